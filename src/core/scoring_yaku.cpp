// The yaku of one reading (scoring_parts.hpp): replay_audit/scoring/yaku.py's hand-wide
// yaku (hand_yaku), chuuren, the yaku of one set reading (set_yaku) and the count of
// yakuman under the rules' yakuman mode.  Pure functions of the reading and the rules;
// score_win (scoring.cpp) calls them per reading.
#include "scoring.hpp"

#include "scoring_parts.hpp"

#include <cstring>

namespace replay_audit::core::score_detail {

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

}  // namespace replay_audit::core::score_detail
