// The value of one win: a port of replay_audit/scoring/{hand,decompose,yaku,fu,points}.py.
// Each function names the Python function it follows; the order of readings, of
// placements of the winning tile and of fu items is the Python one, because the best
// reading is the first of equal value.
#include "scoring.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace replay_audit::core {

namespace {

using u64 = std::uint64_t;
using i64 = std::int64_t;

constexpr int kRun = 0;
constexpr int kTriplet = 1;
constexpr int kKan = 2;

enum Wait : std::uint8_t { kRyanmen = 0, kKanchan, kPenchan, kShanpon, kTanki };

constexpr u64 bit(int k) { return u64{1} << k; }

constexpr u64 kMaskTerminals = bit(0) | bit(8) | bit(9) | bit(17) | bit(18) | bit(26);
constexpr u64 kMaskHonors = u64{0x7F} << 27;
constexpr u64 kMaskTerminalsHonors = kMaskTerminals | kMaskHonors;
constexpr u64 kMaskGreen = bit(19) | bit(20) | bit(21) | bit(23) | bit(25) | bit(32);
constexpr u64 kMaskDragons = bit(31) | bit(32) | bit(33);
constexpr u64 kMaskWinds = bit(27) | bit(28) | bit(29) | bit(30);
constexpr u64 kMaskSuit[3] = {0x1FF, u64{0x1FF} << 9, u64{0x1FF} << 18};
constexpr u64 kIttsu[3] = {0b1001001, u64{0b1001001} << 9, u64{0b1001001} << 18};

inline bool is_terminal_or_honor(int k) { return k >= 27 || k % 9 == 0 || k % 9 == 8; }
inline bool is_dragon(int k) { return k >= 31 && k <= 33; }
inline bool is_wind(int k) { return k >= 27 && k <= 30; }

// Python's floor division and ceil100 (points.py / payments.py), for any sign.
inline i64 floordiv(i64 a, i64 b) {
    i64 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
inline i64 ceil100(i64 x) { return -floordiv(-x, 100) * 100; }

// tiles.dora_of
int dora_of(int k, int players) {
    if (k >= 31) return 31 + (k - 31 + 1) % 3;
    if (k >= 27) return 27 + (k - 27 + 1) % 4;
    if (players == 3 && (k == 0 || k == 8)) return k == 0 ? 8 : 0;
    const int base = k - k % 9;
    return base + (k % 9 + 1) % 9;
}

struct DoraNext {
    std::uint8_t next[2][34];
    DoraNext() {
        for (int k = 0; k < 34; ++k) {
            next[0][k] = static_cast<std::uint8_t>(dora_of(k, 4));
            next[1][k] = static_cast<std::uint8_t>(dora_of(k, 3));
        }
    }
};
const DoraNext kDoraNext;

// ------------------------------------------------------------------ decompose.py

struct Split {  // one suit's reading: pair kind or -1, up to four sets
    std::int8_t pair;
    std::uint8_t n;
    std::uint8_t form[4];
    std::uint8_t kind[4];
};

constexpr int kMaxSplits = 64;

struct Splits {
    int n = 0;
    Split s[kMaxSplits];
};

void suit_splits(std::uint8_t* c, int lo, int hi, bool honors, Splits* out, bool* overflow);

// The splits of what is left once a set (``form``, starting at kind ``i``) is taken
// out of ``c``, each with that set put first: one branch of ``suit_splits``.
void with_set_first(std::uint8_t* c, int lo, int hi, bool honors, std::uint8_t form, int i,
                    Splits* out, bool* overflow) {
    Splits sub;
    suit_splits(c, lo, hi, honors, &sub, overflow);
    for (int j = 0; j < sub.n; ++j) {
        if (sub.s[j].n >= 4 || out->n >= kMaxSplits) { *overflow = true; break; }
        Split& s = out->s[out->n++];
        s.pair = sub.s[j].pair;
        s.n = static_cast<std::uint8_t>(sub.s[j].n + 1);
        s.form[0] = form;
        s.kind[0] = static_cast<std::uint8_t>(i);
        std::memcpy(s.form + 1, sub.s[j].form, sub.s[j].n);
        std::memcpy(s.kind + 1, sub.s[j].kind, sub.s[j].n);
    }
}

// _suit_splits: every split of one suit into sets and at most one pair, in the
// Python order (pair first, then triplet, then run, each followed by the rest's splits).
// ``c`` are absolute counts of kinds [lo, hi); kinds written absolute.
void suit_splits(std::uint8_t* c, int lo, int hi, bool honors, Splits* out, bool* overflow) {
    int i = lo;
    while (i < hi && c[i] == 0) ++i;
    if (i == hi) {
        if (out->n >= kMaxSplits) { *overflow = true; return; }
        Split& s = out->s[out->n++];
        s.pair = -1;
        s.n = 0;
        return;
    }
    if (c[i] >= 2) {
        c[i] -= 2;
        Splits sub;
        suit_splits(c, lo, hi, honors, &sub, overflow);
        for (int j = 0; j < sub.n; ++j) {
            if (sub.s[j].pair != -1) continue;
            if (out->n >= kMaxSplits) { *overflow = true; break; }
            Split& s = out->s[out->n++];
            s = sub.s[j];
            s.pair = static_cast<std::int8_t>(i);
        }
        c[i] += 2;
    }
    if (c[i] >= 3) {
        c[i] -= 3;
        with_set_first(c, lo, hi, honors, kTriplet, i, out, overflow);
        c[i] += 3;
    }
    if (!honors && i + 2 < hi && c[i + 1] && c[i + 2]) {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        with_set_first(c, lo, hi, honors, kRun, i, out, overflow);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

// decompose.run_wait
inline Wait run_wait(int start, int win) {
    if (win == start + 1) return kKanchan;
    if (win == start && start % 9 == 6) return kPenchan;
    if (win == start + 2 && start % 9 == 0) return kPenchan;
    return kRyanmen;
}

constexpr int kKokushiKinds[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

}  // namespace

// decompose.is_kokushi_counts
bool is_kokushi(const std::uint8_t* c) {
    int total = 0;
    for (int k = 0; k < 34; ++k) total += c[k];
    if (!c[0] || !c[33] || total != 14) return false;
    u64 allowed = 0;
    bool pair = false;
    for (int k : kKokushiKinds) {
        if (c[k] == 0) return false;
        if (c[k] == 2) pair = true;
        allowed |= bit(k);
    }
    for (int k = 0; k < 34; ++k) {
        if (!(allowed & bit(k)) && c[k]) return false;
    }
    return pair;
}

// decompose.is_chiitoitsu_counts
bool is_chiitoitsu(const std::uint8_t* c) {
    int pairs = 0, total = 0;
    for (int k = 0; k < 34; ++k) {
        total += c[k];
        if (c[k] == 2) ++pairs;
    }
    return pairs == 7 && total == 14;
}

namespace {

// ------------------------------------------------------------------ yaku.py

struct YakuList {
    int n = 0;
    std::uint8_t id[kMaxYaku];
    i64 han[kMaxYaku];
    void add(int i, i64 h) {
        if (n < kMaxYaku) {
            id[n] = static_cast<std::uint8_t>(i);
            han[n] = h;
            ++n;
        }
    }
    bool has(int i, i64 h) const {
        for (int j = 0; j < n; ++j)
            if (id[j] == i && han[j] == h) return true;
        return false;
    }
    // sorted(...) of (id, han) pairs
    void sort() {
        for (int a = 1; a < n; ++a) {
            const std::uint8_t ia = id[a];
            const i64 ha = han[a];
            int b = a - 1;
            while (b >= 0 && (id[b] > ia || (id[b] == ia && han[b] > ha))) {
                id[b + 1] = id[b];
                han[b + 1] = han[b];
                --b;
            }
            id[b + 1] = ia;
            han[b + 1] = ha;
        }
    }
};

struct IdList {
    int n = 0;
    std::uint8_t id[kMaxYakuman];
    void add(int i) {
        if (n < kMaxYakuman) id[n++] = static_cast<std::uint8_t>(i);
    }
    void sort() { std::sort(id, id + n); }
};

// yaku.yakuman_count
int yakuman_count(const IdList& ids, const ScoreRules& rules) {
    if (!ids.n) return 0;
    if (rules.yakuman == kYakumanSingle) return 1;
    if (rules.yakuman == kYakumanFull) {
        int total = 0;
        for (int j = 0; j < ids.n; ++j) {
            const int i = ids.id[j];
            total += rules.is_double(i) ? 2 : 1;
        }
        return total;
    }
    return ids.n;
}

// yaku.hand_yaku
void hand_yaku(const WinIn& in, const ScoreRules& rules, u64 mask, bool closed, YakuList* yaku,
               IdList* yakuman) {
    const auto f = in.flags;
    if (f & kTenhou) yakuman->add(37);
    if (f & kChiihou) yakuman->add(38);
    if ((f & kRenhou) && rules.renhou == kRenhouYakuman) yakuman->add(36);
    if (!(mask & ~kMaskHonors)) yakuman->add(42);
    if (!(mask & ~kMaskGreen)) yakuman->add(43);
    if (!(mask & ~kMaskTerminals)) yakuman->add(44);

    if (closed && (f & kTsumo)) yaku->add(0, 1);
    if (f & kDoubleRiichi)
        yaku->add(21, 2);
    else if (f & kRiichi)
        yaku->add(1, 1);
    if (f & kIppatsu) yaku->add(2, 1);
    if (f & kChankan) yaku->add(3, 1);
    if (f & kRinshan) yaku->add(4, 1);
    if (f & kHaitei) yaku->add(5, 1);
    if (f & kHoutei) yaku->add(6, 1);
    if ((f & kRenhou) && rules.renhou == kRenhouMangan) yaku->add(36, 5);
    if (!(mask & kMaskTerminalsHonors)) {
        if (closed || rules.kuitan) yaku->add(8, 1);
    } else if (!(mask & ~kMaskTerminalsHonors) && (mask & ~kMaskTerminals)) {
        yaku->add(31, 2);
    }
    const int suits = ((mask & kMaskSuit[0]) != 0) + ((mask & kMaskSuit[1]) != 0) +
                      ((mask & kMaskSuit[2]) != 0);
    if (suits == 1) {
        if (mask & kMaskHonors)
            yaku->add(34, closed ? 3 : 2);
        else
            yaku->add(35, closed ? 6 : 5);
    }
}

// yaku.chuuren
int chuuren(const std::uint8_t* concealed, int win_kind, u64 mask) {
    const int lo = (mask & 0x1FF) ? 0 : (mask & (u64{0x1FF} << 9)) ? 9 : 18;
    if (mask & ~kMaskSuit[lo / 9]) return 0;
    const std::uint8_t* c = concealed + lo;
    if (c[0] < 3 || c[8] < 3) return 0;
    for (int i = 1; i < 8; ++i)
        if (!c[i]) return 0;
    int rest[9];
    for (int i = 0; i < 9; ++i) rest[i] = c[i];
    const int at = win_kind - lo;
    if (at < 0 || at >= 9) return 45;  // not reached: the winning tile is in the suit
    rest[at] -= 1;
    static constexpr int junsei[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    for (int i = 0; i < 9; ++i)
        if (rest[i] != junsei[i]) return 45;
    return 46;
}

// yaku.set_yaku
void set_yaku(int pair, const std::uint8_t* runs, int n_runs, const std::uint8_t* pons,
              int n_pons, int kans, int concealed_pons, Wait wait, int seat_kind,
              int round_kind, bool closed, bool has_honor, YakuList* yaku, IdList* yakuman) {
    u64 pon_bits = 0;
    for (int j = 0; j < n_pons; ++j) pon_bits |= bit(pons[j]);
    const int dragons = __builtin_popcountll(pon_bits & kMaskDragons);
    const int winds = __builtin_popcountll(pon_bits & kMaskWinds);
    const int before = yakuman->n;
    if (dragons == 3) yakuman->add(39);
    if (concealed_pons == 4) yakuman->add(wait == kTanki ? 41 : 40);
    if (winds == 4)
        yakuman->add(49);
    else if (winds == 3 && is_wind(pair))
        yakuman->add(50);
    if (kans == 4) yakuman->add(51);
    if (yakuman->n > before) return;

    if (closed) {
        if (!n_pons && wait == kRyanmen && !is_dragon(pair) && pair != seat_kind &&
            pair != round_kind)
            yaku->add(7, 1);
        if (n_runs >= 2) {
            std::uint8_t ordered[8];
            std::memcpy(ordered, runs, n_runs);
            for (int a = 1; a < n_runs; ++a) {  // sorted(runs): at most 8, insertion sort
                const std::uint8_t v = ordered[a];
                int b = a - 1;
                while (b >= 0 && ordered[b] > v) {
                    ordered[b + 1] = ordered[b];
                    --b;
                }
                ordered[b + 1] = v;
            }
            bool repeat = false;
            for (int i = 0; i + 1 < n_runs; ++i)
                if (ordered[i] == ordered[i + 1]) repeat = true;
            if (repeat) {
                int peiko = 0;
                int i = 0;
                while (i + 1 < n_runs) {
                    if (ordered[i] == ordered[i + 1]) {
                        ++peiko;
                        i += 2;
                    } else {
                        ++i;
                    }
                }
                if (peiko >= 2)
                    yaku->add(32, 3);
                else if (peiko == 1)
                    yaku->add(9, 1);
            }
        }
    }
    if (pon_bits & kMaskHonors) {
        for (int j = 0; j < n_pons; ++j) {
            const int k = pons[j];
            if (k == seat_kind) yaku->add(k - 17, 1);
            if (k == round_kind) yaku->add(k - 13, 1);
            if (k > 30) yaku->add(k - 13, 1);
        }
    }
    if (n_runs) {
        bool outside = true;
        for (int j = 0; j < n_runs; ++j) {
            const int k = runs[j];
            if (!(k < 27 && (k % 9 == 0 || k % 9 == 6))) outside = false;
        }
        if (pair >= 0 && is_terminal_or_honor(pair) && outside &&
            !(pon_bits & ~kMaskTerminalsHonors)) {
            if (has_honor)
                yaku->add(23, closed ? 2 : 1);
            else
                yaku->add(33, closed ? 3 : 2);
        }
        u64 run_bits = 0;
        for (int j = 0; j < n_runs; ++j) run_bits |= bit(runs[j]);
        for (u64 ittsu : kIttsu) {
            if ((run_bits & ittsu) == ittsu) {
                yaku->add(24, closed ? 2 : 1);
                break;
            }
        }
        if (run_bits & (run_bits >> 9) & (run_bits >> 18) & 0x7F) yaku->add(25, closed ? 2 : 1);
    } else {
        yaku->add(28, 2);
    }
    if (pon_bits & (pon_bits >> 9) & (pon_bits >> 18) & 0x1FF) yaku->add(26, 2);
    if (kans == 3) yaku->add(27, 2);
    if (concealed_pons == 3) yaku->add(29, 2);
    if (dragons == 2 && is_dragon(pair)) yaku->add(30, 2);
}

// ------------------------------------------------------------------ fu.py

struct PonSet {
    std::uint8_t form;  // kTriplet or kKan
    std::uint8_t kind;
    bool concealed;
};

struct Items {
    int n = 0;
    std::uint8_t label[kMaxItems];
    std::int8_t fu[kMaxItems];
    bool chiitoitsu = false;
    void add(int l, int f) {
        if (n < kMaxItems) {
            label[n] = static_cast<std::uint8_t>(l);
            fu[n] = static_cast<std::int8_t>(f);
            ++n;
        }
    }
};

// fu.set_fu
inline int set_fu(int form, int kind, bool concealed) {
    int fu = is_terminal_or_honor(kind) ? 4 : 2;
    if (concealed) fu *= 2;
    if (form == kKan) fu *= 4;
    return fu;
}

inline int set_label(int form, int kind, bool concealed) {
    return kSetLabel + (form == kKan ? 68 : 0) + 2 * kind + (concealed ? 1 : 0);
}

// fu.pair_fu
inline int pair_fu(int pair, int seat_kind, int round_kind, const ScoreRules& rules) {
    if (is_dragon(pair)) return 2;
    if (pair == seat_kind && pair == round_kind) return rules.double_wind_fu;
    if (pair == seat_kind || pair == round_kind) return 2;
    return 0;
}

// fu.fu_items
void fu_items(int pair, const PonSet* pon_sets, int n_pon_sets, Wait wait, bool tsumo, bool rinshan,
              int seat_kind, int round_kind, const ScoreRules& rules, bool closed, bool pinfu,
              Items* items) {
    items->add(0, 20);
    if (closed && !tsumo) items->add(1, 10);
    if (tsumo && !pinfu) items->add(2, rinshan ? rules.rinshan_tsumo_fu : 2);
    if (wait == kKanchan) items->add(3, 2);
    if (wait == kPenchan) items->add(4, 2);
    if (wait == kTanki) items->add(5, 2);
    const int fu = pair_fu(pair, seat_kind, round_kind, rules);
    if (fu) items->add(kPairLabel + pair, fu);
    for (int j = 0; j < n_pon_sets; ++j) {
        const PonSet& p = pon_sets[j];
        items->add(set_label(p.form, p.kind, p.concealed), set_fu(p.form, p.kind, p.concealed));
    }
    if (!closed && items->n == 1) items->add(6, rules.open_pinfu_fu - 20);
}

// ------------------------------------------------------------------ points.py

struct Payment {
    i64 ron = 0, tsumo_dealer = 0, tsumo_other = 0, total = 0;
};

// points.base_points
void base_points(i64 han, i64 fu, int count, const ScoreRules& rules, i64* base, int* limit) {
    *limit = 0;
    if (count) {
        *base = 8000 * static_cast<i64>(count);
        *limit = 5;
        return;
    }
    if (han >= 13) {
        if (rules.kazoe == kKazoeSingle) {
            *base = 8000;
            *limit = 5;
        } else if (rules.kazoe == kKazoeMultiple) {
            *base = 8000 * (han / 13);
            *limit = 5;
        } else {
            *base = 6000;
            *limit = 4;
        }
        return;
    }
    if (han >= 11) { *base = 6000; *limit = 4; return; }
    if (han >= 8) { *base = 4000; *limit = 3; return; }
    if (han >= 6) { *base = 3000; *limit = 2; return; }
    if (han == 5) { *base = 2000; *limit = 1; return; }
    // han 0-4 here (negative han cannot come out of the scorer)
    const i64 b = fu * (i64{1} << (2 + han));
    if (b >= 2000) { *base = 2000; *limit = 1; return; }
    if (rules.kiriage && b == 1920) { *base = 2000; return; }
    *base = b;
}

// points.pay
Payment pay(i64 base, bool dealer, bool tsumo, const ScoreRules& rules) {
    Payment p;
    if (!tsumo) {
        p.ron = ceil100(base * (dealer ? 6 : 4));
        p.total = p.ron;
        return p;
    }
    const int payers = rules.players - 1;
    const bool missing = rules.players != 4 && !rules.tsumo_loss;
    if (dealer) {
        i64 each = ceil100(2 * base);
        if (missing) each += ceil100(floordiv(each, 2));  // each is a multiple of 100
        p.tsumo_dealer = each;
        p.total = each * payers;
        return p;
    }
    i64 d = ceil100(2 * base);
    i64 o = ceil100(base);
    if (missing) {
        const i64 half = ceil100(floordiv(o, 2));
        d += half;
        o += half;
    }
    p.tsumo_dealer = d;
    p.tsumo_other = o;
    p.total = d + o * (payers - 1);
    return p;
}

// ------------------------------------------------------------------ hand.py

struct Best {
    bool have = false;
    i64 key_total = 0;
    int key_real = 0;
    i64 key_han = 0;
    i64 key_fu = 0;
    i64 key_raw = 0;
};

}  // namespace

int score_win(const WinIn& in, const ScoreRules& rules, WinOut* out) {
    out->error = kWinOk;
    out->n_yaku = out->n_yakuman = out->n_items = 0;
    // _candidates: counts, mask, calls
    std::uint8_t counts[34] = {};
    u64 mask = 0;
    for (int j = 0; j < in.n_tiles; ++j) {
        const int k = in.tiles[j] >> 2;
        counts[k] += 1;
        mask |= bit(k);
    }
    const int win_kind = in.win_tile >> 2;
    std::uint8_t meld_runs[kMaxMelds];
    int n_meld_runs = 0;
    PonSet meld_pons[kMaxMelds];
    int n_meld_pons = 0;
    int kans = 0, ankans = 0;
    bool closed = true;
    for (int j = 0; j < in.n_melds; ++j) {
        const MeldIn& m = in.melds[j];
        if (m.kind == kKita) continue;
        if (m.kind == kChi) {
            const int k = *std::min_element(m.tiles, m.tiles + m.n) >> 2;
            meld_runs[n_meld_runs++] = static_cast<std::uint8_t>(k);
            mask |= u64{7} << k;
            closed = false;
            continue;
        }
        const int k = m.tiles[0] >> 2;
        mask |= bit(k);
        PonSet& p = meld_pons[n_meld_pons++];
        p.kind = static_cast<std::uint8_t>(k);
        if (m.kind == kPon) {
            p.form = kTriplet;
            p.concealed = false;
            closed = false;
        } else if (m.kind == kAnkan) {
            p.form = kKan;
            p.concealed = true;
            ++kans;
            ++ankans;
        } else {
            p.form = kKan;
            p.concealed = false;
            ++kans;
            closed = false;
        }
    }
    const int n_calls = n_meld_runs + n_meld_pons;
    if (in.n_tiles + 3 * n_calls != 14 || counts[win_kind] == 0) {
        out->error = kNotComplete;
        return out->error;
    }
    YakuList hand_list;
    IdList hand_ym;
    hand_yaku(in, rules, mask, closed, &hand_list, &hand_ym);

    const bool tsumo = in.flags & kTsumo;
    const bool dealer = in.dealer;
    const bool riichi = in.flags & (kRiichi | kDoubleRiichi);

    // count_dora, computed once (the Python computes it on the first regular candidate)
    bool dora_done = false;
    i64 dora = 0, ura = 0, aka = 0;
    auto count_dora = [&]() {
        dora_done = true;
        std::uint8_t all[34];
        std::memcpy(all, counts, sizeof all);
        const bool use_aka = rules.aka > 0;
        if (use_aka) {
            for (int r = 0; r < rules.n_red; ++r) {
                for (int j = 0; j < in.n_tiles; ++j) {
                    if (in.tiles[j] == rules.red_fives[r]) {
                        ++aka;
                        break;
                    }
                }
            }
        }
        i64 kita = 0;
        for (int j = 0; j < in.n_melds; ++j) {
            const MeldIn& m = in.melds[j];
            if (m.kind == kKita) ++kita;
            for (int t = 0; t < m.n; ++t) {
                all[m.tiles[t] >> 2] += 1;
                if (use_aka) {
                    for (int r = 0; r < rules.n_red; ++r)
                        if (m.tiles[t] == rules.red_fives[r]) {
                            ++aka;
                            break;
                        }
                }
            }
        }
        const std::uint8_t* following = kDoraNext.next[in.players == 3 ? 1 : 0];
        dora = kita;
        for (int j = 0; j < in.n_dora; ++j) dora += all[following[in.dora[j] >> 2]];
        if (riichi)
            for (int j = 0; j < in.n_ura; ++j) ura += all[following[in.ura[j] >> 2]];
    };

    Best best;
    int n_candidates = 0;
    // Evaluate one candidate (the loop body of score_win), keeping the best.
    auto consider = [&](YakuList& yaku, IdList& ym, const Items& items) {
        ++n_candidates;
        i64 raw = 0;
        for (int j = 0; j < items.n; ++j) raw += items.fu[j];
        const i64 fu = items.chiitoitsu ? raw : -floordiv(-raw, 10) * 10;
        i64 han, base;
        int limit, count, real;
        Payment payment;
        if (ym.n) {
            count = yakuman_count(ym, rules);
            han = 13 * static_cast<i64>(count);
            base_points(0, fu, count, rules, &base, &limit);
            payment = pay(base, dealer, tsumo, rules);
            real = 1;
        } else {
            if (!yaku.n) return;
            if (!dora_done) count_dora();
            han = dora + ura + aka;
            for (int j = 0; j < yaku.n; ++j) han += yaku.han[j];
            count = 0;
            base_points(han, fu, 0, rules, &base, &limit);
            payment = pay(base, dealer, tsumo, rules);
            real = 0;
        }
        const bool better =
            !best.have ||
            std::tie(payment.total, real, han, fu, raw) >
                std::tie(best.key_total, best.key_real, best.key_han, best.key_fu, best.key_raw);
        if (!better) return;
        best.have = true;
        best.key_total = payment.total;
        best.key_real = real;
        best.key_han = han;
        best.key_fu = fu;
        best.key_raw = raw;
        out->han = han;
        out->fu = static_cast<int>(fu);
        out->points = payment.total;
        out->limit = limit;
        out->yakuman_count = count;
        out->base = base;
        out->ron = payment.ron;
        out->tsumo_dealer = payment.tsumo_dealer;
        out->tsumo_other = payment.tsumo_other;
        out->n_items = items.n;
        std::memcpy(out->item_label, items.label, items.n);
        std::memcpy(out->item_fu, items.fu, items.n);
        if (ym.n) {
            out->n_yaku = 0;
            out->n_yakuman = ym.n;
            std::memcpy(out->yakuman, ym.id, ym.n);
        } else {
            out->n_yakuman = 0;
            int n = 0;
            for (int j = 0; j < yaku.n && n < kMaxYaku; ++j, ++n) {
                out->yaku_id[n] = yaku.id[j];
                out->yaku_han[n] = yaku.han[j];
            }
            auto push = [&](int id, i64 h) {
                if (n < kMaxYaku) {
                    out->yaku_id[n] = static_cast<std::uint8_t>(id);
                    out->yaku_han[n] = h;
                    ++n;
                }
            };
            if (dora) push(52, dora);
            if (aka) push(54, aka);
            if (riichi) push(53, ura);
            out->n_yaku = n;
        }
    };

    if (!n_calls) {
        if (is_kokushi(counts)) {
            IdList ym = hand_ym;
            ym.add(counts[win_kind] == 2 ? 48 : 47);
            ym.sort();
            YakuList none;
            Items items;  // no fu items
            consider(none, ym, items);
            if (!best.have) {
                out->error = kNoYaku;
                out->han = out->fu = 0;
            }
            return out->error;
        }
        if (is_chiitoitsu(counts)) {
            Items items;
            items.add(7, 25);
            items.chiitoitsu = true;
            if (hand_ym.n) {
                IdList ym = hand_ym;
                ym.sort();
                YakuList none;
                consider(none, ym, items);
            } else {
                YakuList yaku = hand_list;
                yaku.add(22, 2);
                yaku.sort();
                IdList none;
                consider(yaku, none, items);
            }
        }
    }

    // readings_of: per suit, its splits; then every combination with exactly one pair
    Splits per_suit[4];
    int n_suits = 0;
    bool overflow = false;
    bool any_reading = true;
    for (int suit = 0; suit < 4; ++suit) {
        const int lo = 9 * suit, hi = suit < 3 ? lo + 9 : 34;
        bool empty = true;
        for (int k = lo; k < hi; ++k)
            if (counts[k]) empty = false;
        if (empty) continue;
        std::uint8_t c[34];
        std::memcpy(c, counts, sizeof c);
        Splits& sp = per_suit[n_suits];
        sp.n = 0;
        suit_splits(c, lo, hi, suit == 3, &sp, &overflow);
        if (!sp.n) {
            any_reading = false;
            break;
        }
        ++n_suits;
    }
    if (overflow) return out->error = kDeclined;

    const int seat_kind = 27 + in.seat_wind;
    const int round_kind = 27 + in.round_wind;
    const bool has_honor = mask & kMaskHonors;
    const bool rinshan = in.flags & kRinshan;
    const int chuuren_id =
        (hand_list.has(35, 6) && in.n_melds == 0) ? chuuren(counts, win_kind, mask) : 0;
    std::uint8_t meld_pon_kinds[kMaxMelds];
    for (int j = 0; j < n_meld_pons; ++j) meld_pon_kinds[j] = meld_pons[j].kind;

    if (any_reading && n_suits > 0) {
        int idx[4] = {0, 0, 0, 0};
        while (true) {
            // _combine
            int pair = -1;
            bool ok = true;
            for (int s = 0; s < n_suits; ++s) {
                const Split& sp = per_suit[s].s[idx[s]];
                if (sp.pair >= 0) {
                    if (pair >= 0) {
                        ok = false;
                        break;
                    }
                    pair = sp.pair;
                }
            }
            if (ok && pair >= 0) {
                std::uint8_t runs[8];
                int n_runs = 0;
                for (int j = 0; j < n_meld_runs; ++j) runs[n_runs++] = meld_runs[j];
                std::uint8_t pons[8];
                int n_pons = 0;
                for (int j = 0; j < n_meld_pons; ++j) pons[n_pons++] = meld_pon_kinds[j];
                PonSet pon_sets[8];
                int n_pon_sets = 0;
                Wait place_wait[8];
                int place_at[8];
                int n_place = 0;
                if (pair == win_kind) {
                    place_wait[n_place] = kTanki;
                    place_at[n_place++] = -1;
                }
                int last_form = -1, last_kind = -1;
                for (int s = 0; s < n_suits; ++s) {
                    const Split& sp = per_suit[s].s[idx[s]];
                    for (int j = 0; j < sp.n; ++j) {
                        const int f = sp.form[j], k = sp.kind[j];
                        const bool same_as_last = f == last_form && k == last_kind;
                        if (f == kRun) {
                            runs[n_runs++] = static_cast<std::uint8_t>(k);
                            if (k <= win_kind && win_kind <= k + 2 && !same_as_last) {
                                last_form = f;
                                last_kind = k;
                                place_wait[n_place] = run_wait(k, win_kind);
                                place_at[n_place++] = -1;
                            }
                        } else {
                            if (k == win_kind && !same_as_last) {
                                last_form = f;
                                last_kind = k;
                                place_wait[n_place] = kShanpon;
                                place_at[n_place++] = tsumo ? -1 : n_pon_sets;
                            }
                            pons[n_pons++] = static_cast<std::uint8_t>(k);
                            pon_sets[n_pon_sets++] = PonSet{kTriplet, static_cast<std::uint8_t>(k), true};
                        }
                    }
                }
                const int n_concealed = n_pon_sets + ankans;
                for (int j = 0; j < n_meld_pons; ++j) pon_sets[n_pon_sets++] = meld_pons[j];
                for (int p = 0; p < n_place; ++p) {
                    const Wait wait = place_wait[p];
                    const int ron_at = place_at[p];
                    YakuList yaku;
                    IdList ym;
                    set_yaku(pair, runs, n_runs, pons, n_pons, kans,
                             n_concealed - (ron_at >= 0 ? 1 : 0), wait, seat_kind, round_kind,
                             closed, has_honor, &yaku, &ym);
                    if (chuuren_id) ym.add(chuuren_id);
                    bool pinfu = false;
                    if (hand_ym.n || ym.n) {
                        IdList merged = hand_ym;
                        for (int j = 0; j < ym.n; ++j) merged.add(ym.id[j]);
                        merged.sort();
                        ym = merged;
                        yaku.n = 0;
                    } else {
                        pinfu = yaku.has(7, 1);
                        YakuList merged = hand_list;
                        for (int j = 0; j < yaku.n; ++j) merged.add(yaku.id[j], yaku.han[j]);
                        merged.sort();
                        yaku = merged;
                    }
                    PonSet placed[8];
                    std::memcpy(placed, pon_sets, sizeof(PonSet) * n_pon_sets);
                    if (ron_at >= 0)
                        placed[ron_at] = PonSet{kTriplet, static_cast<std::uint8_t>(win_kind), false};
                    Items items;
                    fu_items(pair, placed, n_pon_sets, wait, tsumo, rinshan, seat_kind, round_kind,
                             rules, closed, pinfu, &items);
                    consider(yaku, ym, items);
                }
            }
            // next combination (itertools.product: the last suit turns fastest)
            int s = n_suits - 1;
            while (s >= 0) {
                if (++idx[s] < per_suit[s].n) break;
                idx[s] = 0;
                --s;
            }
            if (s < 0) break;
        }
    }
    if (!best.have) {
        // _candidates returned None (no candidate at all) -> not_complete; else no_yaku
        out->error = n_candidates ? kNoYaku : kNotComplete;
        out->han = out->fu = 0;
        out->points = out->limit = 0;
        out->n_yaku = out->n_yakuman = out->n_items = 0;
        out->yakuman_count = 0;
        out->base = out->ron = out->tsumo_dealer = out->tsumo_other = 0;
    }
    return out->error;
}

}  // namespace replay_audit::core
