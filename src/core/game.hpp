// The columnar form of one mjlog game, as src/core/mjlog.cpp reads it.
//
// Integer columns only (plus a few strings: names, the seed, raw extras), one row per
// thing, no object per event: an events table in document order, a table per hand
// (the INIT values), one per win (AGARI), one per draw (RYUUKYOKU), one per meld, one
// per final-scores line (owari), and a pool of int32 values that the variable-length
// lists (tile lists, yaku pairs, meld codes) point into as (offset, length) spans.
//
// The units are those of replay_audit/model/events.py: scores in whole points (the
// XML's hundreds multiplied out), seats absolute, tiles as 136-ids, dice 1-6, ``seq``
// the element's index among the root's children.  -1 stands for "none" in every column
// (no seat, no tile, no row, an absent list).  replay_audit/parsers/tenhou_xml/columns.py
// turns these tables into a ``pyarrow.Table`` of events; build_events.cpp makes from
// them the very ``Game`` that the Python reader (parsers/tenhou_xml/) builds.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace replay_audit::core {

// The kinds of meld, in the order of replay_audit.meld.MeldKind: mjlog's melds.kind,
// the scoring's MeldIn.kind (scoring.hpp) and the facts scan's index into the MeldKind
// members (facts_scan.hpp).
enum MeldKindCode : std::int8_t {
    kChi = 0,
    kPon = 1,
    kDaiminkan = 2,
    kKakan = 3,
    kAnkan = 4,
    kKita = 5,
};
constexpr int kMeldKinds = 6;

}  // namespace replay_audit::core

namespace replay_audit::core::mjlog {

// events.kind
enum EventKind : std::int8_t {
    kDraw = 0,
    kDiscard = 1,
    kCall = 2,            // ref: row of melds
    kRiichiDeclare = 3,
    kRiichiAccept = 4,    // ref: row of reach_scores, or -1 (no ``ten``)
    kNewDora = 5,         // tile: the indicator
    kDisconnect = 6,      // BYE
    kReconnect = 7,       // UN with one name; ref: index of strings (the raw name)
    kAgari = 8,           // ref: row of agari
    kRyuukyoku = 9,       // ref: row of ryuukyoku
};

// One decoded <N m=...> code (replay_audit/parsers/meld_code.py).
struct DecodedMeld {
    std::int8_t kind = -1;
    std::int8_t count = 0;  // tiles used: 3 (chi, pon), 4 (kans), 1 (kita)
    std::int16_t tiles[4] = {-1, -1, -1, -1};  // ascending
    std::int16_t called = -1;
    std::int8_t from_seat = -1;
    std::int16_t added = -1;
};

struct Span {
    std::int32_t offset = 0;
    std::int32_t length = -1;  // -1: absent (None), 0: empty
};

struct Events {
    std::vector<std::int32_t> hand;  // -1: before the first hand (Game.pre_game)
    std::vector<std::int32_t> seq;
    std::vector<std::int8_t> kind;
    std::vector<std::int8_t> seat;   // -1 for NewDora and RYUUKYOKU
    std::vector<std::int16_t> tile;  // draw/discard tile, dora indicator, AGARI machi
    std::vector<std::int8_t> tsumogiri;
    std::vector<std::int32_t> ref;

    std::size_t size() const { return seq.size(); }
    void clear() {
        for (auto* v : {&hand, &seq, &ref}) v->clear();
        for (auto* v : {&kind, &seat, &tsumogiri}) v->clear();
        tile.clear();
    }
    void reserve(std::size_t n) {
        hand.reserve(n);
        seq.reserve(n);
        kind.reserve(n);
        seat.reserve(n);
        tile.reserve(n);
        tsumogiri.reserve(n);
        ref.reserve(n);
    }
    void push(std::int32_t h, std::int32_t s, std::int8_t k, std::int8_t st, std::int16_t t,
              std::int8_t tg, std::int32_t r) {
        hand.push_back(h);
        seq.push_back(s);
        kind.push_back(k);
        seat.push_back(st);
        tile.push_back(t);
        tsumogiri.push_back(tg);
        ref.push_back(r);
    }
};

struct Melds {
    std::vector<std::int32_t> code;
    std::vector<std::int8_t> who;
    std::vector<std::int8_t> kind;
    std::vector<std::int16_t> tiles;  // 4 per row, -1 padded
    std::vector<std::int16_t> called;
    std::vector<std::int8_t> from_seat;
    std::vector<std::int16_t> added;

    std::size_t size() const { return code.size(); }
    void clear() {
        code.clear();
        for (auto* v : {&who, &kind, &from_seat}) v->clear();
        for (auto* v : {&tiles, &called, &added}) v->clear();
    }
};

struct Hands {
    std::vector<std::int32_t> seq, round_index, honba, sticks;
    std::vector<std::int8_t> dealer, dice;  // dice: 2 per row
    std::vector<std::int16_t> dora_indicator;
    std::vector<std::int32_t> scores;   // 4 per row
    std::vector<std::int16_t> haipai;   // 4 x 13 per row, -1 for an empty seat
    std::vector<Span> chips;            // INIT chip (chip rooms)
    std::vector<std::int32_t> shuffle;  // index of strings: the 2009 INIT shuffle, or -1

    std::size_t size() const { return seq.size(); }
    void clear() {
        for (auto* v : {&seq, &round_index, &honba, &sticks, &scores, &shuffle}) v->clear();
        for (auto* v : {&dealer, &dice}) v->clear();
        for (auto* v : {&dora_indicator, &haipai}) v->clear();
        chips.clear();
    }
};

struct Agaris {
    std::vector<std::int32_t> hand, seq;
    std::vector<std::int8_t> who, from_who, pao;
    std::vector<std::int16_t> machi;
    std::vector<std::int32_t> fu, points, limit, honba, sticks;
    std::vector<std::int32_t> scores, deltas;           // 4 per row
    std::vector<std::int8_t> has_chips;                 // 16-value sc
    std::vector<std::int32_t> chips, chip_deltas;       // 4 per row (0 without)
    std::vector<Span> hai, melds, yaku, yakuman, dora, ura, chip;  // melds: rows of Melds
    std::vector<std::int32_t> ratio;  // index of strings, or -1
    std::vector<std::int32_t> owari;  // row of owari, or -1

    std::size_t size() const { return seq.size(); }
    void clear() {
        for (auto* v : {&hand, &seq, &fu, &points, &limit, &honba, &sticks, &scores, &deltas,
                        &chips, &chip_deltas, &ratio, &owari})
            v->clear();
        for (auto* v : {&who, &from_who, &pao, &has_chips}) v->clear();
        machi.clear();
        for (auto* v : {&hai, &melds, &yaku, &yakuman, &dora, &ura, &chip}) v->clear();
    }
};

struct Ryuukyokus {
    std::vector<std::int32_t> hand, seq;
    std::vector<std::int8_t> kind;  // index of DRAW_KINDS (0: exhaustive)
    std::vector<std::int32_t> honba, sticks;
    std::vector<std::int32_t> scores, deltas;  // 4 per row
    std::vector<std::int8_t> has_chips;
    std::vector<std::int32_t> chips, chip_deltas;  // 4 per row
    std::vector<Span> shown;                       // 4 per row: hai0-hai3, -1 length if absent
    std::vector<std::int32_t> ratio;
    std::vector<std::int32_t> owari;

    std::size_t size() const { return seq.size(); }
    void clear() {
        for (auto* v : {&hand, &seq, &honba, &sticks, &scores, &deltas, &chips, &chip_deltas,
                        &ratio, &owari})
            v->clear();
        for (auto* v : {&kind, &has_chips}) v->clear();
        shown.clear();
    }
};

struct Owaris {
    std::vector<std::int32_t> scores;  // 4 per row, points
    std::vector<double> points;        // 4 per row
    std::size_t size() const { return points.size() / 4; }
    void clear() {
        scores.clear();
        points.clear();
    }
};

// The player list (UN with three or four names), raw: the Python side unquotes
// the names and splits the lists, as the Python reader does.
struct PlayerList {
    bool present = false;
    std::int32_t names[4] = {-1, -1, -1, -1};  // index of strings, -1: absent
    std::int32_t dan = -1, rate = -1, sx = -1, gold = -1, rc = -1;
};

struct GameTables {
    Events events;
    Melds melds;
    Hands hands;
    Agaris agari;
    Ryuukyokus ryuukyoku;
    Owaris owari;
    std::vector<std::int32_t> reach_scores;  // 4 per row
    std::vector<std::int32_t> pool;
    std::vector<std::string> strings;

    int players = 4;
    int tile_set = 4;  // 4, 3 or 112 (Toutenkou)
    bool has_go = false;
    std::int64_t go_type = 0;
    bool has_lobby = false;
    std::int64_t lobby = 0;
    std::int32_t seed = -1;  // index of strings (SHUFFLE seed), or -1
    PlayerList player_list;
    std::vector<std::pair<std::string, std::string>> meta_extra;

    // Empties every table and resets every value, keeping the columns' capacity: a
    // builder reading document after document reuses one GameTables (no regrowth).
    // A field added above must be reset here too (the corpus test reads the
    // documents one after another through one builder, so a leftover shows).
    void clear() {
        events.clear();
        melds.clear();
        hands.clear();
        agari.clear();
        ryuukyoku.clear();
        owari.clear();
        reach_scores.clear();
        pool.clear();
        strings.clear();
        players = 4;
        tile_set = 4;
        has_go = false;
        go_type = 0;
        has_lobby = false;
        lobby = 0;
        seed = -1;
        player_list = PlayerList{};
        meta_extra.clear();
    }

    std::int32_t add_string(std::string_view s) {
        strings.emplace_back(s);
        return static_cast<std::int32_t>(strings.size() - 1);
    }
};

}  // namespace replay_audit::core::mjlog
