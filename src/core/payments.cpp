// Who pays whom on a win: a port of win_deltas and its helpers in
// replay_audit/scoring/payments.py (honba, sticks, pao, double ron, three-player tsumo
// loss or split), every platform difference read from ScoreRules.
#include "scoring.hpp"

#include "scoring_parts.hpp"  // i64, floordiv, ceil100

namespace replay_audit::core {

namespace score_detail {
namespace {

// _pao_fraction: (pao units, all units) of the value the liable seat answers for.
void pao_fraction(const DeltasIn& in, const ScoreRules& rules, i64* part, i64* whole) {
    if (rules.pao_scope_all || in.n_yakuman == 0) {
        *part = *whole = 1;
        return;
    }
    auto units = [&](int yid) -> i64 {
        return (rules.yakuman == kYakumanFull && rules.is_double(yid)) ? 2 : 1;
    };
    i64 total = 0, pao = 0;
    for (int j = 0; j < in.n_yakuman; ++j) {
        const int y = in.yakuman[j];
        total += units(y);
        for (int p = 0; p < rules.n_pao; ++p) {
            if (rules.pao_yakuman[p] == y) {
                pao += units(y);
                break;
            }
        }
    }
    *part = pao;
    *whole = total;
}

}  // namespace
}  // namespace score_detail

int win_deltas(const DeltasIn& in, const ScoreRules& rules, std::int64_t* out) {
    using namespace score_detail;  // not at file scope: it would reach the unity build's next files
    const int players = in.players;
    if (players != 3 && players != 4) return kDeclined;
    if (in.winner < 0 || in.winner >= players || in.from_seat < 0 || in.from_seat >= players)
        return kDeclined;  // the Python raises ValueError: it says why
    if (in.pao_seat < -1 || in.pao_seat >= players) return kDeclined;

    const bool dealer_win = in.winner == in.dealer;
    // _value_payments: the value's own split, or one derived from base
    i64 ron_value = in.ron, dealer_share = in.tsumo_dealer, other_share = in.tsumo_other;
    bool split = true;
    if (!(in.ron || in.tsumo_dealer || in.tsumo_other) && in.base) {
        split = false;
        if (dealer_win) {
            ron_value = ceil100(6 * in.base);
            dealer_share = ceil100(2 * in.base);
            other_share = 0;
        } else {
            ron_value = ceil100(4 * in.base);
            dealer_share = ceil100(2 * in.base);
            other_share = ceil100(in.base);
        }
    }
    const int pao = (in.pao_seat >= 0 && in.pao_seat != in.winner) ? in.pao_seat : -1;
    i64 pay[4] = {0, 0, 0, 0};
    const i64 honba_n = in.first_winner ? in.honba : 0;

    if (in.from_seat != in.winner) {
        const i64 honba_total = honba_n * rules.honba_ron;
        if (pao < 0 || pao == in.from_seat) {
            pay[in.from_seat] = ron_value + honba_total;
        } else {
            i64 part, whole;
            pao_fraction(in, rules, &part, &whole);
            const i64 pao_part = floordiv(ron_value * part, whole);
            const i64 half = floordiv(pao_part, 2);
            pay[pao] = half + honba_total;
            pay[in.from_seat] = ron_value - half;
        }
    } else {
        // tsumo_shares, with the scorer's own split already sharing out an absent North
        const bool tsumo_loss = rules.tsumo_loss || split;
        i64 shares[4] = {0, 0, 0, 0};
        for (int seat = 0; seat < players; ++seat) {
            if (seat == in.winner) continue;
            shares[seat] = (dealer_win || seat == in.dealer) ? dealer_share : other_share;
        }
        if (players == 3 && !tsumo_loss) {
            const i64 north = dealer_win ? dealer_share : other_share;
            const i64 half = ceil100(-floordiv(-north, 2));
            for (int seat = 0; seat < players; ++seat)
                if (seat != in.winner) shares[seat] += half;
        }
        const i64 honba_each = honba_n * rules.honba_tsumo;
        if (pao < 0) {
            for (int s = 0; s < players; ++s)
                if (s != in.winner) pay[s] = shares[s] + honba_each;
        } else {
            i64 part, whole;
            pao_fraction(in, rules, &part, &whole);
            for (int s = 0; s < players; ++s) {
                if (s == in.winner) continue;
                const i64 liable = floordiv(shares[s] * part, whole);
                pay[s] += shares[s] - liable;
                pay[pao] += liable;
            }
            pay[pao] += honba_each * (players - 1);
        }
    }
    i64 sum = 0;
    for (int s = 0; s < players; ++s) {
        out[s] = -pay[s];
        sum += pay[s];
    }
    out[in.winner] = sum + (in.first_winner ? in.sticks * rules.riichi_cost : 0);
    return kWinOk;
}

}  // namespace replay_audit::core
