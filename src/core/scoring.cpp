// The value of one win: a port of replay_audit/scoring/{hand,decompose,yaku,fu,points}.py.
// Each function names the Python function it follows; the order of readings, of
// placements of the winning tile and of fu items is the Python one, because the best
// reading is the first of equal value.
// This file: hand.py's score_win, every reading of a hand tried and the best kept;
// the parts it calls are declared in scoring_parts.hpp.
#include "scoring.hpp"

#include "scoring_parts.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace replay_audit::core {

namespace score_detail {
namespace {

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
}  // namespace score_detail

int score_win(const WinIn& in, const ScoreRules& rules, WinOut* out) {
    using namespace score_detail;  // not at file scope: it would reach the unity build's next files
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
