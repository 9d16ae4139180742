// A hand's decompositions (scoring_parts.hpp, scoring.hpp): one suit's splits into sets
// and a pair in the Python order of replay_audit/scoring/decompose.py (the best reading
// is the first of equal value, so the order is part of the answer), and the two special
// shapes, kokushi and chiitoitsu.  Pure functions of the kind counts.
#include "scoring.hpp"

#include "scoring_parts.hpp"

#include <cstring>

namespace replay_audit::core {

namespace score_detail {

namespace {

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

}  // namespace

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

namespace {

constexpr int kKokushiKinds[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

}  // namespace

}  // namespace score_detail

// decompose.is_kokushi_counts
bool is_kokushi(const std::uint8_t* c) {
    int total = 0;
    for (int k = 0; k < 34; ++k) total += c[k];
    if (!c[0] || !c[33] || total != 14) return false;
    using score_detail::bit;
    score_detail::u64 allowed = 0;
    bool pair = false;
    for (int k : score_detail::kKokushiKinds) {
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

}  // namespace replay_audit::core
