// Complete hands and waits: a port of scoring/agari.py (is_complete) and replay/waits.py
// (wait_mask).  The answers are the Python ones for every hand of at most four tiles of
// a kind; tests/test_core_waits.py holds them equal (the corpus's hands, made-up hands
// and every one-suit pattern).
#include "waits.hpp"

#include <cstring>

#include "scoring.hpp"

namespace replay_audit::core {

namespace {

constexpr int kSuitLo[4] = {0, 9, 18, 27};
constexpr int kSuitLen[4] = {9, 9, 9, 7};

// Can ``c`` (one suit of ``n`` kinds, a copy: it is used up) be split into sets only?
// The lowest kind held, x times, starts x mod 3 runs: three runs from it are the same
// tiles as three triplets, so no other choice can succeed where this one fails.
// Honors (no runs) only take triplets.
bool sets_only(std::uint8_t* c, int n, bool honors) {
    for (int i = 0; i < n; ++i) {
        const int x = c[i];
        if (x == 0) continue;
        const int r = x % 3;
        if (r == 0) continue;
        if (honors || i + 2 >= n || c[i + 1] < r || c[i + 2] < r) return false;
        c[i + 1] = static_cast<std::uint8_t>(c[i + 1] - r);
        c[i + 2] = static_cast<std::uint8_t>(c[i + 2] - r);
    }
    return true;
}

// Can the suit be split into sets, plus one pair when ``pair`` (agari._suit_ok)?
bool suit_ok(const std::uint8_t* part, int n, bool honors, bool pair) {
    std::uint8_t c[9];
    if (!pair) {
        std::memcpy(c, part, static_cast<std::size_t>(n));
        return sets_only(c, n, honors);
    }
    for (int p = 0; p < n; ++p) {
        if (part[p] < 2) continue;
        std::memcpy(c, part, static_cast<std::size_t>(n));
        c[p] = static_cast<std::uint8_t>(c[p] - 2);
        if (sets_only(c, n, honors)) return true;
    }
    return false;
}

// The positions of one suit whose tile (held fewer than four times) lets it split into
// sets, plus one pair when ``pair`` (waits._suit_waits).  A tile with nothing of its
// suit within two kinds of it (honors: of its own kind) can join no set or pair, so
// only the others are tried.
// With ``first_only``, the first such position alone (a riichi asks only whether there
// is a wait).
std::uint32_t suit_waits(const std::uint8_t* part, int n, bool honors, bool pair,
                         bool first_only) {
    std::uint8_t c[9];
    std::memcpy(c, part, static_cast<std::size_t>(n));
    std::uint32_t mask = 0;
    for (int i = 0; i < n; ++i) {
        if (c[i] >= 4) continue;
        bool near = c[i] != 0;
        if (!honors) {
            for (int j = i - 2; j <= i + 2 && !near; ++j)
                if (j >= 0 && j < n && c[j]) near = true;
        }
        if (!near) continue;
        ++c[i];
        if (suit_ok(c, n, honors, pair)) {
            mask |= std::uint32_t{1} << i;
            if (first_only) return mask;
        }
        --c[i];
    }
    return mask;
}

int suit_sum(const std::uint8_t* counts, int s) {
    int n = 0;
    for (int k = kSuitLo[s]; k < kSuitLo[s] + kSuitLen[s]; ++k) n += counts[k];
    return n;
}

}  // namespace

bool is_regular_complete(const std::uint8_t* counts) {
    int pair_suit = -1;
    for (int s = 0; s < 4; ++s) {
        const int r = suit_sum(counts, s) % 3;
        if (r == 1) return false;
        if (r == 2) {
            if (pair_suit >= 0) return false;
            pair_suit = s;
        }
    }
    if (pair_suit < 0) return false;
    for (int s = 0; s < 4; ++s) {
        if (!suit_ok(counts + kSuitLo[s], kSuitLen[s], s == 3, s == pair_suit)) return false;
    }
    return true;
}

bool is_complete(const std::uint8_t* counts) {
    return is_regular_complete(counts) || is_chiitoitsu(counts) || is_kokushi(counts);
}

// wait_mask, or with ``first_only`` a mask of one of its kinds (the first found; 0 when
// wait_mask is 0): the same search, stopped at its first wait.
//
// As waits.wait_mask: a regular hand of 3n+1 tiles waits either in its one suit of 3m+1
// tiles (that suit takes the pair, the others only sets) or in one of its two suits of
// 3m+2 tiles (that one becomes sets, the other holds the pair).  A 13-tile hand may
// also wait for seven pairs (on its single) or kokushi (on a terminal or honor).
namespace {

std::uint64_t waits(const std::uint8_t* counts, bool first_only) {
    int ones[4], twos[4], n_ones = 0, n_twos = 0, total = 0;
    for (int s = 0; s < 4; ++s) {
        const int n = suit_sum(counts, s);
        total += n;
        if (n % 3 == 1) ones[n_ones++] = s;
        if (n % 3 == 2) twos[n_twos++] = s;
    }
    auto rest_sets = [&](int a, int b) {
        for (int s = 0; s < 4; ++s) {
            if (s == a || s == b) continue;
            if (!suit_ok(counts + kSuitLo[s], kSuitLen[s], s == 3, false)) return false;
        }
        return true;
    };
    auto waits_in = [&](int s, bool pair) {
        return std::uint64_t{suit_waits(counts + kSuitLo[s], kSuitLen[s], s == 3, pair,
                                        first_only)}
               << kSuitLo[s];
    };
    std::uint64_t mask = 0;
    if (n_ones == 1 && n_twos == 0) {
        if (rest_sets(ones[0], -1)) mask = waits_in(ones[0], true);
    } else if (n_twos == 2 && n_ones == 0) {
        const int a = twos[0], b = twos[1];
        if (rest_sets(a, b)) {
            if (suit_ok(counts + kSuitLo[b], kSuitLen[b], b == 3, true)) mask |= waits_in(a, false);
            if ((mask == 0 || !first_only) &&
                suit_ok(counts + kSuitLo[a], kSuitLen[a], a == 3, true))
                mask |= waits_in(b, false);
        }
    }
    if (mask != 0 && first_only) return mask;
    if (total == 13) {
        // waits._special_waits: seven pairs wait on the single of six pairs and a
        // single; kokushi (a hand of terminals and honors only) on those kinds
        std::uint8_t c[kNumKinds];
        std::memcpy(c, counts, sizeof c);
        int pairs = 0, singles = 0, single = -1;
        bool only_th = true;
        for (int k = 0; k < kNumKinds; ++k) {
            if (c[k] == 2) ++pairs;
            if (c[k] == 1) ++singles, single = k;
            if (c[k] && !is_terminal_or_honor(k)) only_th = false;
        }
        for (int k = 0; k < kNumKinds; ++k) {
            const bool cand = (pairs == 6 && singles == 1) ? k == single
                                                           : only_th && is_terminal_or_honor(k);
            if (!cand || c[k] >= 4) continue;
            ++c[k];
            if (is_chiitoitsu(c) || is_kokushi(c)) mask |= std::uint64_t{1} << k;
            --c[k];
        }
    }
    return mask;
}

}  // namespace

std::uint64_t wait_mask(const std::uint8_t* counts) { return waits(counts, false); }

bool has_wait(const std::uint8_t* counts) { return waits(counts, true) != 0; }

bool count_tiles(const long* ids, long n, std::uint8_t* counts) {
    std::memset(counts, 0, kNumKinds);
    for (long i = 0; i < n; ++i) {
        if (ids[i] < 0 || ids[i] >= 4 * kNumKinds) return false;
        if (++counts[ids[i] >> 2] > 4) return false;
    }
    return true;
}

}  // namespace replay_audit::core
