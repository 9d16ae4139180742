// A reading's fu and a win's payments (scoring_parts.hpp): replay_audit/scoring/fu.py's
// fu items of one reading, in the Python order, and points.py's base points (limits,
// kiriage) and who pays what.  Pure functions of the reading, the han and the rules.
#include "scoring.hpp"

#include "scoring_parts.hpp"

namespace replay_audit::core::score_detail {

namespace {

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

}  // namespace

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

}  // namespace replay_audit::core::score_detail
