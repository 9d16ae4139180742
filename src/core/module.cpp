// replay_audit._core: the compiled core's Python bindings (pybind11).
//
// It holds the wall rebuilt from the seed (wall.hpp), the mjlog XML reader to columns
// (mjlog.hpp) and to a Game's events and hands (build_events.hpp), the scoring engine
// (scoring.hpp: the value of a win and its payments, bound in score_bindings.cpp with the
// auditor's row of a win) and the runs of plain draws and discards of the replay
// (replay.hpp); all four are in the audit's path.
// replay_audit/_core.pyi types it for mypy.  The Python side, each with its fallback
// to the pure-Python code: replay_audit/native.py (Wall objects),
// replay_audit/parsers/tenhou_xml/columns.py and from_columns.py (the events table,
// the Game built by GameBuilder), replay_audit/scoring/core.py (WinValue objects
// and payments) and replay_audit/replay/moves.py (the moves the core does not play).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "build_events.hpp"
#include "codec.hpp"
#include "csv_rows.hpp"
#include "facts.hpp"
#include "fastcall.hpp"
#include "game.hpp"
#include "game_end.hpp"
#include "hand_audit.hpp"
#include "mjlog.hpp"
#include "part_rows.hpp"
#include "replay.hpp"
#include "replay_hand.hpp"
#include "score_bindings.hpp"
#include "scoring.hpp"
#include "sha512.hpp"
#include "shanten.hpp"
#include "table_state.hpp"
#include "waits.hpp"
#include "wall.hpp"

#ifndef REPLAY_AUDIT_CORE_SOURCES
#define REPLAY_AUDIT_CORE_SOURCES "unknown"  // setup.py defines it: a digest of src/core
#endif

namespace py = pybind11;
namespace core = replay_audit::core;
namespace mj = replay_audit::core::mjlog;

namespace {

[[noreturn]] void decline(int code) { throw py::value_error(core::declined_reason(code)); }

py::list walls(std::string_view seed, int players, long hands) {
    const int size = core::wall_record_bytes(players);
    if (size == 0) decline(core::kBadPlayers);
    if (hands < 0) decline(core::kBadHands);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(size) * static_cast<std::size_t>(hands));
    bool flipped = false;
    const int code = core::seed_walls(seed, players, hands, out.data(), &flipped);
    if (code != core::kOk) decline(code);
    py::list result(static_cast<std::size_t>(hands));
    for (long h = 0; h < hands; ++h) {
        result[static_cast<std::size_t>(h)] =
            py::bytes(reinterpret_cast<const char*>(out.data() + size * h), size);
    }
    return result;
}

// One game's walls, hand after hand (replay_audit.native.iter_walls).
class WallStream {
public:
    WallStream(std::string_view seed, int players) {
        const int code = walls_.start(seed, players);
        if (code != core::kOk) decline(code);
    }
    bool flipped() const { return walls_.flipped(); }
    py::bytes next() {
        std::uint8_t out[core::kMaxWallTiles + 2];
        walls_.next(out);
        return py::bytes(reinterpret_cast<const char*>(out),
                         core::wall_record_bytes(walls_.players()));
    }

private:
    core::SeedWalls walls_;
};

py::bytes init_shuffle_wall(std::string_view shuffle, int players) {
    std::uint8_t out[core::kMaxWallTiles + 2];
    const int code = core::init_shuffle_wall(shuffle, players, out);
    if (code != core::kOk) decline(code);
    return py::bytes(reinterpret_cast<const char*>(out), core::wall_record_bytes(players));
}

py::bytes sha512(py::bytes data) {
    const std::string_view view(data);
    std::uint8_t out[core::kSha512DigestBytes];
    core::sha512(reinterpret_cast<const std::uint8_t*>(view.data()), view.size(), out);
    return py::bytes(reinterpret_cast<const char*>(out), sizeof out);
}

// The digests of 128-byte chunks (wall.cpp's path), for the tests: ``best`` 0 keeps to
// the plain code, 1 to AVX2 or plain, 2 any (core::Sha512Code), so every path the
// processor has is held to hashlib.
py::bytes sha512_128(py::bytes data, int best) {
    const std::string_view view(data);
    if (view.size() % 128 != 0) throw py::value_error("sha512_128: whole 128-byte chunks only");
    if (best < 0 || best > 2) throw py::value_error("sha512_128: best is 0, 1 or 2");
    const std::size_t count = view.size() / 128;
    std::string out(count * core::kSha512DigestBytes, '\0');
    core::sha512_128(reinterpret_cast<const std::uint8_t*>(view.data()), count,
                     reinterpret_cast<std::uint8_t*>(out.data()),
                     static_cast<core::Sha512Code>(best));
    return py::bytes(out);
}

int sha512_128_code(int best) {
    if (best < 0 || best > 2) throw py::value_error("sha512_128_code: best is 0, 1 or 2");
    return static_cast<int>(core::sha512_128_code(static_cast<core::Sha512Code>(best)));
}

std::vector<std::uint32_t> mt19937_outputs(const std::vector<std::uint32_t>& key, std::size_t count) {
    if (key.empty()) throw py::value_error("init_by_array needs a non-empty key");
    std::vector<std::uint32_t> out(count);
    core::mt19937_outputs(key.data(), key.size(), count, out.data());
    return out;
}

// ------------------------------------------------------------------ mjlog reader

template <class T>
py::array_t<T> column(const std::vector<T>& v, py::ssize_t width = 1) {
    const auto rows = static_cast<py::ssize_t>(v.size()) / width;
    py::array_t<T> out = width == 1 ? py::array_t<T>(rows) : py::array_t<T>({rows, width});
    if (!v.empty()) std::memcpy(out.mutable_data(), v.data(), v.size() * sizeof(T));
    return out;
}

// (offset, length) arrays of spans; ``width`` spans per row.
void spans(py::dict& d, const char* name, const std::vector<mj::Span>& v, py::ssize_t width = 1) {
    std::vector<std::int32_t> off(v.size()), len(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        off[i] = v[i].offset;
        len[i] = v[i].length;
    }
    d[(std::string(name) + "_offset").c_str()] = column(off, width);
    d[(std::string(name) + "_length").c_str()] = column(len, width);
}

py::object ref_or_none(const mj::GameTables& g, std::int32_t ref) {
    if (ref < 0) return py::none();
    return py::str(g.strings[static_cast<std::size_t>(ref)]);
}

mj::Limits limits_of(int max_elements, std::size_t max_attribute_length) {
    mj::Limits limits;
    limits.max_elements = max_elements;
    limits.max_attribute_length = max_attribute_length;
    return limits;
}

py::object read_mjlog(const py::bytes& data, int max_elements, std::size_t max_attribute_length) {
    const std::string_view view(data);
    const mj::Limits limits = limits_of(max_elements, max_attribute_length);
    mj::GameTables g;
    bool ok;
    {
        py::gil_scoped_release release;
        ok = mj::read_mjlog(view, &g, nullptr, limits);
    }
    if (!ok) return py::none();
    py::dict events;
    events["hand"] = column(g.events.hand);
    events["seq"] = column(g.events.seq);
    events["kind"] = column(g.events.kind);
    events["seat"] = column(g.events.seat);
    events["tile"] = column(g.events.tile);
    events["tsumogiri"] = column(g.events.tsumogiri);
    events["ref"] = column(g.events.ref);
    py::dict melds;
    melds["code"] = column(g.melds.code);
    melds["who"] = column(g.melds.who);
    melds["kind"] = column(g.melds.kind);
    melds["tiles"] = column(g.melds.tiles, 4);
    melds["called"] = column(g.melds.called);
    melds["from_seat"] = column(g.melds.from_seat);
    melds["added"] = column(g.melds.added);
    py::dict hands;
    hands["seq"] = column(g.hands.seq);
    hands["round_index"] = column(g.hands.round_index);
    hands["honba"] = column(g.hands.honba);
    hands["sticks"] = column(g.hands.sticks);
    hands["dealer"] = column(g.hands.dealer);
    hands["dice"] = column(g.hands.dice, 2);
    hands["dora_indicator"] = column(g.hands.dora_indicator);
    hands["scores"] = column(g.hands.scores, 4);
    hands["haipai"] = column(g.hands.haipai, 52);
    spans(hands, "chips", g.hands.chips);
    py::list shuffle;
    for (std::int32_t r : g.hands.shuffle) shuffle.append(ref_or_none(g, r));
    hands["shuffle"] = shuffle;
    py::dict agari;
    const mj::Agaris& a = g.agari;
    agari["hand"] = column(a.hand);
    agari["seq"] = column(a.seq);
    agari["who"] = column(a.who);
    agari["from_who"] = column(a.from_who);
    agari["pao"] = column(a.pao);
    agari["machi"] = column(a.machi);
    agari["fu"] = column(a.fu);
    agari["points"] = column(a.points);
    agari["limit"] = column(a.limit);
    agari["honba"] = column(a.honba);
    agari["sticks"] = column(a.sticks);
    agari["scores"] = column(a.scores, 4);
    agari["deltas"] = column(a.deltas, 4);
    agari["has_chips"] = column(a.has_chips);
    agari["chips"] = column(a.chips, 4);
    agari["chip_deltas"] = column(a.chip_deltas, 4);
    spans(agari, "hai", a.hai);
    spans(agari, "melds", a.melds);
    spans(agari, "yaku", a.yaku);
    spans(agari, "yakuman", a.yakuman);
    spans(agari, "dora", a.dora);
    spans(agari, "ura", a.ura);
    spans(agari, "chip", a.chip);
    py::list ratio;
    for (std::int32_t r : a.ratio) ratio.append(ref_or_none(g, r));
    agari["ratio"] = ratio;
    agari["owari"] = column(a.owari);
    py::dict ryuukyoku;
    const mj::Ryuukyokus& r = g.ryuukyoku;
    ryuukyoku["hand"] = column(r.hand);
    ryuukyoku["seq"] = column(r.seq);
    ryuukyoku["kind"] = column(r.kind);
    ryuukyoku["honba"] = column(r.honba);
    ryuukyoku["sticks"] = column(r.sticks);
    ryuukyoku["scores"] = column(r.scores, 4);
    ryuukyoku["deltas"] = column(r.deltas, 4);
    ryuukyoku["has_chips"] = column(r.has_chips);
    ryuukyoku["chips"] = column(r.chips, 4);
    ryuukyoku["chip_deltas"] = column(r.chip_deltas, 4);
    spans(ryuukyoku, "shown", r.shown, 4);
    py::list rratio;
    for (std::int32_t x : r.ratio) rratio.append(ref_or_none(g, x));
    ryuukyoku["ratio"] = rratio;
    ryuukyoku["owari"] = column(r.owari);
    py::dict owari;
    owari["scores"] = column(g.owari.scores, 4);
    owari["points"] = column(g.owari.points, 4);
    py::dict game = mj::game_values(g);
    py::list strings;
    for (const auto& s : g.strings) strings.append(py::str(s));
    py::dict out;
    out["game"] = game;
    out["events"] = events;
    out["melds"] = melds;
    out["hands"] = hands;
    out["agari"] = agari;
    out["ryuukyoku"] = ryuukyoku;
    out["owari"] = owari;
    out["reach_scores"] = column(g.reach_scores, 4);
    out["pool"] = column(g.pool);
    out["strings"] = strings;
    return out;
}

py::object mjlog_decline_reason(const py::bytes& data, int max_elements,
                                std::size_t max_attribute_length) {
    mj::GameTables g;
    std::string reason;
    const mj::Limits limits = limits_of(max_elements, max_attribute_length);
    if (mj::read_mjlog(std::string_view(data), &g, &reason, limits)) return py::none();
    return py::str(reason);
}

py::object decode_meld(long long m, int who, bool gari) {
    mj::DecodedMeld d;
    if (!mj::decode_meld(m, who, gari, &d)) return py::none();
    py::tuple tiles(d.count);
    for (int i = 0; i < d.count; ++i) tiles[i] = py::int_(d.tiles[i]);
    auto opt = [](int v) { return v < 0 ? py::object(py::none()) : py::object(py::int_(v)); };
    return py::make_tuple(int(d.kind), tiles, opt(d.called), opt(d.from_seat), opt(d.added));
}

// ------------------------------------------------------------------ waits (waits.hpp)
// The bindings of waits.hpp, in one block: a hand comes as a list or tuple of 34 counts
// or of tile ids, read item by item (no std::vector conversion: these calls are many and
// small).  None when the core declines the input; then replay_audit's Python answers.

// ``obj``'s items into ``out`` (at most ``cap``); their number, or -1 if ``obj`` is not a
// list or tuple of ints that fit a long, or holds more than ``cap`` items.
long read_ints(py::handle obj, long* out, long cap) {
    PyObject* o = obj.ptr();
    if (!PyList_Check(o) && !PyTuple_Check(o)) return -1;
    PyObject** items = PySequence_Fast_ITEMS(o);
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    if (n > cap) return -1;
    for (Py_ssize_t i = 0; i < n; ++i) {
        const long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return -1;
        }
        out[i] = v;
    }
    return static_cast<long>(n);
}

// 34 counts (each 0-4) from ``counts``, or from tile ids 0-135 when ``tiles``.
bool read_hand(py::handle obj, bool tiles, std::uint8_t* counts) {
    long v[4 * core::kNumKinds];
    const long n = read_ints(obj, v, tiles ? 4 * core::kNumKinds : core::kNumKinds);
    if (tiles) return n >= 0 && core::count_tiles(v, n, counts);
    if (n != core::kNumKinds) return false;
    for (int k = 0; k < core::kNumKinds; ++k) {
        if (v[k] < 0 || v[k] > 4) return false;
        counts[k] = static_cast<std::uint8_t>(v[k]);
    }
    return true;
}

void def_waits(py::module_& m) {
    m.def(
        "wait_mask",
        [](py::handle counts) -> py::object {
            std::uint8_t c[core::kNumKinds];
            if (!read_hand(counts, false, c)) return py::none();
            return py::int_(core::wait_mask(c));
        },
        py::arg("counts"),
        "replay_audit.replay.waits.wait_mask of 34 counts (each 0-4), or None.");
    m.def(
        "tiles_wait_mask",
        [](py::handle tiles) -> py::object {
            std::uint8_t c[core::kNumKinds];
            if (!read_hand(tiles, true, c)) return py::none();
            return py::int_(core::wait_mask(c));
        },
        py::arg("tiles"), "wait_mask of the counts34 of tile ids (0-135), or None.");
    m.def(
        "is_complete",
        [](py::handle counts) -> py::object {
            std::uint8_t c[core::kNumKinds];
            if (!read_hand(counts, false, c)) return py::none();
            return py::bool_(core::is_complete(c));
        },
        py::arg("counts"),
        "replay_audit.scoring.agari.is_complete of 34 counts (each 0-4), or None.");
    m.def(
        "tiles_complete",
        [](py::handle tiles) -> py::object {
            std::uint8_t c[core::kNumKinds];
            if (!read_hand(tiles, true, c)) return py::none();
            return py::bool_(core::is_complete(c));
        },
        py::arg("tiles"), "is_complete of the counts34 of tile ids (0-135), or None.");
}

// ------------------------------------------------------------------ end of waits



}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() =
        "replay_audit's compiled core (C++): the wall rebuilt from the seed, the mjlog "
        "reader, scoring.";
    m.attr("SOURCES_DIGEST") = REPLAY_AUDIT_CORE_SOURCES;
    m.def("walls", &walls, py::arg("seed"), py::arg("players"), py::arg("hands"),
          "The first ``hands`` walls of a game from its SHUFFLE seed: one bytes object per\n"
          "hand, the tile ids in draw order then the two dice (1-6).  The 2009 hex form's\n"
          "walls are read flipped (see replay_audit.wall.Wall.flipped).  ValueError for a\n"
          "seed the core declines (anything but the canonical base64 and hex forms).");
    py::class_<WallStream>(m, "WallStream",
                           "A game's walls from its SHUFFLE seed, one record per ``next()``,\n"
                           "without end (the caller stops after the last hand).  ValueError\n"
                           "at construction for a seed the core declines.")
        .def(py::init<std::string_view, int>(), py::arg("seed"), py::arg("players"))
        .def_property_readonly("flipped", &WallStream::flipped)
        .def("__iter__", [](py::object self) { return self; })
        .def("__next__", &WallStream::next);
    m.def("init_shuffle_wall", &init_shuffle_wall, py::arg("shuffle"), py::arg("players"),
          "One hand's wall from a mid-2009 INIT ``shuffle`` attribute, as ``walls`` lays it\n"
          "out (always flipped).  ValueError for a seed the core declines.");
    m.def("sha512", &sha512, py::arg("data"), "The SHA-512 digest (the core's own code).");
    m.def("sha512_128", &sha512_128, py::arg("data"), py::arg("best") = 2,
          "The SHA-512 digests of data's 128-byte chunks, end to end (the wall's code),\n"
          "by the best code up to ``best`` the processor runs (0 plain, 1 AVX2, 2 AVX-512).");
    m.def("sha512_128_code", &sha512_128_code, py::arg("best") = 2,
          "The code ``sha512_128(data, best)`` runs on this processor (0, 1 or 2).");
    m.def("mt19937_outputs", &mt19937_outputs, py::arg("key"), py::arg("count"),
          "``count`` outputs of MT19937 seeded with init_by_array(key).");
    m.def("read_mjlog", &read_mjlog, py::arg("data"), py::arg("max_elements") = 200000,
          py::arg("max_attribute_length") = 65536,
          "One mjlog XML document (bytes, not gzipped) as columns: a dict of tables (events,\n"
          "melds, hands, agari, ryuukyoku, owari, reach_scores, pool, strings, game); None\n"
          "if the reader declines the document (replay_audit.parsers.tenhou_xml.columns\n"
          "explains the layout).  The limits are the Python reader's, handed over.");
    m.def("mjlog_decline_reason", &mjlog_decline_reason, py::arg("data"),
          py::arg("max_elements") = 200000, py::arg("max_attribute_length") = 65536,
          "Why read_mjlog declines ``data``, or None if it reads it.");
    mj::bind_game_builder(m);
    core::add_fastcall<&core::play_moves>(m, "play_moves",
        "play_moves(table, events, i, draw_cls, discard_cls, th_mask, declare_cls,\n"
        "accept_cls, riichi_cost, call_cls, chi, pon, chi_allowed): the replay's\n"
        "runs of plain draws and discards (and the riichi steps, chi and pon between them)\n"
        "from events[i] on, on the table's state (changed in\n"
        "place), stopping before anything rare (replay_audit.replay.moves explains): the\n"
        "index reached, or -1 if the first move was declined.");
    core::add_fastcall<&core::dealt_seen>(m, "dealt_seen",
        "dealt_seen(haipai, dora_indicator): a bytearray of 136 with a 1 at each tile id\n"
        "dealt and at the dora indicator (replay_audit.replay.state), or None when a tile\n"
        "is met twice or is not an id 0-135 (the Python then names each repeat).");
    core::add_fastcall<&core::make_value>(m, "make_value",
        "make_value(cls, *fields): an instance of the slots dataclass cls with all its\n"
        "fields given in order, set without running its __init__ (replay_audit.replay.values\n"
        "explains); TypeError for a class whose __init__ does more than set its fields.");
    core::add_fastcall<&core::win_checks>(m, "win_checks",
        "win_checks(table, seat, tiles, win_tile, ron, win, melds, dora, ura, riichi,\n"
        "ura_from_log): True when a win's checks find nothing (complete, not furiten, the\n"
        "shown hand, melds, winning tile, dora and ura the same); False sends them to the\n"
        "Python (replay_audit.replay.results).");
    core::add_fastcall<&core::hand_wall>(m, "hand_wall",
        "hand_wall(record, plan, dora_indicator, haipai): a hand's (dora, ura, live,\n"
        "rinshan, dice) from a wall record whose deal is the hand's as dealt (dice None for\n"
        "a record without them); None if INIT's dora\n"
        "is not the wall's; NotImplemented leaves it to replay_audit.replay.walls.");
    m.def("decode_meld", &decode_meld, py::arg("m"), py::arg("who"), py::arg("gari") = false,
          "A meld code decoded: (kind, tiles, called, from_seat, added), kind the index of\n"
          "replay_audit.meld.MeldKind; None where meld_code.decode_meld raises.");

    core::def_scoring(m);  // score_bindings.hpp: the value of a win, its payments, WinBatch
    def_waits(m);  // waits.hpp: the block above
    core::def_shanten(m);  // shanten.hpp: shanten of counts and of a dealt hand

    // ------------------------------------------------ the statistics' hand scan (facts.hpp)
    core::add_fastcall<&core::hand_scan>(m, "hand_scan",
        "hand_scan(events, n, haipai, classes, meld_kinds): one hand's events scanned for the\n"
        "statistics' facts, as replay_audit.stats.scan.py_scan_hand scans them (the same\n"
        "values), or None if the core declines the hand.");
    core::add_fastcall<&core::game_rows>(m, "game_rows",
        "game_rows(hands, n, ctx, fallback): the rows of replay_audit.stats.facts.hand_facts\n"
        "for a game's hands (the same dicts), fallback(hand)'s for the hands the core\n"
        "declines; None if it declines the game.");
    core::add_fastcall<&core::score_rows>(m, "score_rows",
        "score_rows(hands, file, log_id, names, keys): the per-hand rows of\n"
        "replay_audit.stats.game_facts.score_history; None if it declines the game.");

    // ------------------------------------------ the auditor's win (auditing/wins.py)
    core::def_auditor_win(m);  // score_bindings.hpp

    // ------------------------------------------------ the row codec's per-cell work (codec.hpp)
    core::add_fastcall<&core::row_columns>(m, "row_columns",
        "row_columns(rows): (names, columns, lacks) as replay_audit.report.codec._py_columns\n"
        "gives them, or None if the core declines the rows.");
    core::add_fastcall<&core::plain_kind>(m, "plain_kind",
        "plain_kind(values): a column's one plain type as replay_audit.report.codec._py_plain_kind\n"
        "gives it (0 all None, 1 bool, 2 int, 3 float, 4 str, -1 other); None for other than a\n"
        "list or tuple.");
    core::add_fastcall<&core::column_buffers>(m, "column_buffers",
        "column_buffers(values, kind): (validity, null count, data, offsets) of a plain column\n"
        "for pyarrow.Array.from_buffers, or None if the core declines it.");

    // --------------------------------- the auditor's hands of a game (auditing/game.py)
    core::def_auditor_hands(m);  // hand_audit.hpp
    core::def_final_points(m);   // game_end.hpp: the one-call game's final line

    // ------------------------------------ a game's three fact tables in one walk (facts.hpp)
    core::add_fastcall<&core::file_facts>(m, "file_facts",
        "file_facts(hands, n, ctx, fallback, game_ctx): (hand facts, game facts, score history)\n"
        "of a game, as replay_audit.stats.file_facts.py_file_facts gives them, or None if the\n"
        "core declines the game.");

    // ------------------------------------------------ one hand's event loop (replay_hand.hpp)
    core::add_fastcall<&core::run_hand>(m, "run_hand",
        "run_hand(table, events, run): an XML hand's events played on the replay table\n"
        "(replay_audit.replay.table._Table.run, its reference), the rooms it does not play\n"
        "itself called back; the HandReplay.  run: a replay.table.RunArgs, read by name.");
    core::add_fastcall<&core::hand_walls>(m, "hand_walls",
        "hand_walls(stream, cache, hands, plans, limit, make, wall_cls): each hand's wall\n"
        "from the game's wall stream where its deal is the wall's as dealt, NotImplemented\n"
        "where replay_audit.replay.walls._WallSource.for_hand (its reference) decides.");

    // ------------------------------------ the runner's parts, file by file (part_rows.hpp)
    core::def_part_rows(m);

    // ------------- a hand's table built by the core, a game's hands in one call (helper A)
    core::add_fastcall<&core::new_table>(m, "new_table",
        "new_table(cls, hand, wall, consts): the replay table of an XML hand at its deal, as\n"
        "replay_audit.replay.state._TableState.__init__ (its reference) makes it, with the\n"
        "game's constants (a state.TableConstants, read by name); None where the core\n"
        "declines the deal.");
    core::add_fastcall<&core::run_game>(m, "run_game",
        "run_game(cls, hands, walls_of, walls, set_table, consts, run): every hand of an XML\n"
        "game replayed (its table built as\n"
        "new_table builds it, else by set_table; its events as run_hand plays them):\n"
        "(HandReplays, findings), as replay_audit.replay.table.replay_game's loop gives them.");

    // ------------- a stored table's CSV rows formatted in one buffer (csv_rows.hpp, helper C)
    core::def_csv_rows(m);
}
