// The scoring engine: the value of one win and its payments (Riichi rules as data).
//
// A port of replay_audit/scoring/ (hand.py, decompose.py, yaku.py, fu.py, points.py,
// payments.py), rule by rule and in the same order, so that both give exactly the same
// results: the same yaku list, the same fu items in the same order, the same reading
// chosen among equals.  Every rule that differs between platforms is a field of
// ScoreRules, filled from the Python RuleSet (replay_audit/native.py); nothing here
// knows which platform a log came from.  Toutenkou's point scoring is not here: the
// Python side keeps it (replay_audit/scoring/toutenkou.py).
//
// Tiles are Tenhou's ids 0-135, kinds 0-33 (id >> 2).  Inputs the Python code would
// treat in an unusual way (ids outside 0-135, more than 14 concealed tiles, an unknown
// call kind...) are declined (kDeclined), and the caller falls back to Python.
#pragma once

#include <cstdint>

#include "game.hpp"  // MeldKindCode

namespace replay_audit::core {

constexpr int kDeclined = -1;
constexpr int kWinOk = 0;
constexpr int kNotComplete = 1;
constexpr int kNoYaku = 2;

// RuleSet fields the scoring and the payments read (replay_audit/rules.py), and the
// rules module's DOUBLE_YAKUMAN_PATTERNS (passed in too: the rule lives in one place).
enum RenhouMode : std::uint8_t { kRenhouNone = 0, kRenhouMangan, kRenhouYakuman };
enum YakumanMode : std::uint8_t { kYakumanSingle = 0, kYakumanCumulative, kYakumanFull };
enum KazoeMode : std::uint8_t { kKazoeNone = 0, kKazoeSanbaiman, kKazoeSingle, kKazoeMultiple };

struct ScoreRules {
    int players = 4;
    int aka = 3;
    int n_red = 3;
    int red_fives[8] = {16, 52, 88};
    bool kuitan = true;
    bool kiriage = false;
    int double_wind_fu = 4;
    int rinshan_tsumo_fu = 2;
    int open_pinfu_fu = 30;
    RenhouMode renhou = kRenhouNone;
    YakumanMode yakuman = kYakumanCumulative;
    KazoeMode kazoe = kKazoeSingle;
    bool tsumo_loss = false;
    // payments
    std::int64_t honba_ron = 300;
    std::int64_t honba_tsumo = 100;
    std::int64_t riichi_cost = 1000;
    int n_pao = 2;
    int pao_yakuman[16] = {39, 49};
    bool pao_scope_all = true;
    // rules.DOUBLE_YAKUMAN_PATTERNS: worth two under yakuman "full"
    int n_double = 4;
    int double_yakuman[16] = {41, 46, 48, 49};

    bool is_double(int yid) const {
        for (int i = 0; i < n_double; ++i)
            if (double_yakuman[i] == yid) return true;
        return false;
    }
};

// A kind (0-33) that is a terminal or an honor (the scoring's and waits.cpp's test).
inline bool is_terminal_or_honor(int k) { return k >= 27 || k % 9 == 0 || k % 9 == 8; }

constexpr int kMaxTiles = 14;
constexpr int kMaxMelds = 8;
constexpr int kMaxIndicators = 16;

struct MeldIn {
    MeldKindCode kind;
    std::uint8_t n;
    std::uint8_t tiles[4];
};

// Situation flags of a WinContext.
enum WinFlag : std::uint16_t {
    kTsumo = 1 << 0,
    kRiichi = 1 << 1,
    kDoubleRiichi = 1 << 2,
    kIppatsu = 1 << 3,
    kHaitei = 1 << 4,
    kHoutei = 1 << 5,
    kRinshan = 1 << 6,
    kChankan = 1 << 7,
    kTenhou = 1 << 8,
    kChiihou = 1 << 9,
    kRenhou = 1 << 10,
};

// One WinContext (replay_audit/scoring/context.py), as plain data.
struct WinIn {
    std::uint8_t n_tiles = 0;
    std::uint8_t n_melds = 0;
    std::uint8_t n_dora = 0;
    std::uint8_t n_ura = 0;
    std::uint8_t win_tile = 0;
    std::uint8_t players = 4;
    std::uint8_t round_wind = 0;
    std::uint16_t flags = 0;
    std::int32_t seat_wind = 0;  // (seat - dealer) mod players
    bool dealer = false;         // seat == dealer
    std::uint8_t tiles[kMaxTiles];
    MeldIn melds[kMaxMelds];
    std::uint8_t dora[kMaxIndicators];
    std::uint8_t ura[kMaxIndicators];
};

// Fu item labels, as codes (replay_audit/scoring/fu.py writes them as text):
// 0 base, 1 menzen ron, 2 tsumo, 3 kanchan wait, 4 penchan wait, 5 tanki wait,
// 6 open pinfu shape, 7 chiitoitsu, 8 + kind: "pair <kind>",
// kSetLabel + (kan ? 68 : 0) + 2 * kind + concealed: "<closed|open> <triplet|kan> <kind>".
constexpr int kPairLabel = 8;
constexpr int kSetLabel = 42;
constexpr int kNumLabels = kSetLabel + 136;

constexpr int kMaxYaku = 32;
constexpr int kMaxYakuman = 16;
constexpr int kMaxItems = 12;

// A WinValue (context.py) as plain data; error is kWinOk, kNotComplete or kNoYaku.
struct WinOut {
    int error = kWinOk;
    std::int64_t han = 0;
    int fu = 0;
    std::int64_t points = 0;
    int limit = 0;
    int n_yaku = 0;
    std::uint8_t yaku_id[kMaxYaku];
    std::int64_t yaku_han[kMaxYaku];
    int n_yakuman = 0;
    std::uint8_t yakuman[kMaxYakuman];
    int yakuman_count = 0;
    std::int64_t base = 0;
    std::int64_t ron = 0;
    std::int64_t tsumo_dealer = 0;
    std::int64_t tsumo_other = 0;
    int n_items = 0;
    std::uint8_t item_label[kMaxItems];
    std::int8_t item_fu[kMaxItems];
};

// score_win (hand.py) for the han-and-fu scoring.  Returns out->error.
int score_win(const WinIn& in, const ScoreRules& rules, WinOut* out);

// decompose.is_kokushi_counts and is_chiitoitsu_counts over 34 counts (the shapes
// waits.cpp's is_complete asks about too).
bool is_kokushi(const std::uint8_t* counts);
bool is_chiitoitsu(const std::uint8_t* counts);

// What win_deltas (payments.py) needs of a WinValue, and the table.
struct DeltasIn {
    std::int64_t ron = 0;
    std::int64_t tsumo_dealer = 0;
    std::int64_t tsumo_other = 0;
    std::int64_t base = 0;
    int n_yakuman = 0;
    int yakuman[kMaxYakuman];
    int winner = 0;
    int from_seat = 0;
    int dealer = 0;
    int players = 4;
    std::int64_t honba = 0;
    std::int64_t sticks = 0;
    bool first_winner = true;
    int pao_seat = -1;  // -1: none
};

// win_deltas (payments.py): per-seat deltas into out[0..players).  Returns kWinOk, or
// kDeclined for arguments the Python function would refuse or treat oddly (a seat
// outside the table, three or four players only).
int win_deltas(const DeltasIn& in, const ScoreRules& rules, std::int64_t* out);

}  // namespace replay_audit::core
