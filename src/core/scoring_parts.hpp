// The scoring engine's internal parts (scoring.cpp's score_win and its helpers): the
// kind masks and set forms, one suit's splits (scoring_decompose.cpp), the yaku lists
// (scoring_yaku.cpp), the fu items and the payments (scoring_points.cpp).  score_win
// (scoring.cpp) walks the readings and calls each of them; they share these types, so
// the types are declared here once.  Not part of scoring.hpp: nothing outside scoring
// uses them.
#pragma once

#include <algorithm>
#include <cstdint>

#include "scoring.hpp"

namespace replay_audit::core::score_detail {

using u64 = std::uint64_t;
using i64 = std::int64_t;

constexpr int kRun = 0;
constexpr int kTriplet = 1;
constexpr int kKan = 2;

enum Wait : std::uint8_t { kRyanmen = 0, kKanchan, kPenchan, kShanpon, kTanki };

constexpr u64 bit(int k) { return u64{1} << k; }

inline constexpr u64 kMaskTerminals = bit(0) | bit(8) | bit(9) | bit(17) | bit(18) | bit(26);
inline constexpr u64 kMaskHonors = u64{0x7F} << 27;
inline constexpr u64 kMaskTerminalsHonors = kMaskTerminals | kMaskHonors;
inline constexpr u64 kMaskGreen = bit(19) | bit(20) | bit(21) | bit(23) | bit(25) | bit(32);
inline constexpr u64 kMaskDragons = bit(31) | bit(32) | bit(33);
inline constexpr u64 kMaskWinds = bit(27) | bit(28) | bit(29) | bit(30);
inline constexpr u64 kMaskSuit[3] = {0x1FF, u64{0x1FF} << 9, u64{0x1FF} << 18};
inline constexpr u64 kIttsu[3] = {0b1001001, u64{0b1001001} << 9, u64{0b1001001} << 18};

inline bool is_dragon(int k) { return k >= 31 && k <= 33; }
inline bool is_wind(int k) { return k >= 27 && k <= 30; }

// Python's floor division and ceil100 (points.py / payments.py), for any sign.
inline i64 floordiv(i64 a, i64 b) {
    i64 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
inline i64 ceil100(i64 x) { return -floordiv(-x, 100) * 100; }

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

// _suit_splits: every split of one suit into sets and at most one pair, in the
// Python order (pair first, then triplet, then run, each followed by the rest's splits).
// ``c`` are absolute counts of kinds [lo, hi); kinds written absolute (scoring_decompose.cpp).
void suit_splits(std::uint8_t* c, int lo, int hi, bool honors, Splits* out, bool* overflow);

// decompose.run_wait
inline Wait run_wait(int start, int win) {
    if (win == start + 1) return kKanchan;
    if (win == start && start % 9 == 6) return kPenchan;
    if (win == start + 2 && start % 9 == 0) return kPenchan;
    return kRyanmen;
}

// ------------------------------------------------------------------ yaku.py (scoring_yaku.cpp)

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
int yakuman_count(const IdList& ids, const ScoreRules& rules);

// yaku.hand_yaku
void hand_yaku(const WinIn& in, const ScoreRules& rules, u64 mask, bool closed, YakuList* yaku,
               IdList* yakuman);

// yaku.chuuren
int chuuren(const std::uint8_t* concealed, int win_kind, u64 mask);

// yaku.set_yaku
void set_yaku(int pair, const std::uint8_t* runs, int n_runs, const std::uint8_t* pons,
              int n_pons, int kans, int concealed_pons, Wait wait, int seat_kind,
              int round_kind, bool closed, bool has_honor, YakuList* yaku, IdList* yakuman);

// ------------------------------------------------------------------ fu.py, points.py (scoring_points.cpp)

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

// fu.fu_items
void fu_items(int pair, const PonSet* pon_sets, int n_pon_sets, Wait wait, bool tsumo, bool rinshan,
              int seat_kind, int round_kind, const ScoreRules& rules, bool closed, bool pinfu,
              Items* items);

struct Payment {
    i64 ron = 0, tsumo_dealer = 0, tsumo_other = 0, total = 0;
};

// points.base_points
void base_points(i64 han, i64 fu, int count, const ScoreRules& rules, i64* base, int* limit);

// points.pay
Payment pay(i64 base, bool dealer, bool tsumo, const ScoreRules& rules);

}  // namespace replay_audit::core::score_detail
