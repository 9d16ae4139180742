// replay_audit._core: the compiled core's Python bindings (pybind11).
//
// It holds the wall rebuilt from the seed (wall.hpp; the replayer does not use it
// yet) and the mjlog XML reader to columns (mjlog.hpp; the read path does not use it
// yet).  replay_audit/_core.pyi types it for mypy; replay_audit/native.py is the
// Python side (Wall objects and the fallback to replay_audit/wall.py; the events
// table and the Game built from the columns, with the fallback to the Python reader).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "game.hpp"
#include "mjlog.hpp"
#include "sha512.hpp"
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

py::object read_mjlog(const py::bytes& data) {
    const std::string_view view(data);
    mj::GameTables g;
    bool ok;
    {
        py::gil_scoped_release release;
        ok = mj::read_mjlog(view, &g, nullptr);
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
    py::dict game;
    game["players"] = g.players;
    game["tile_set"] = g.tile_set;
    game["go_type"] = g.has_go ? py::object(py::int_(g.go_type)) : py::object(py::none());
    game["lobby"] = g.has_lobby ? py::object(py::int_(g.lobby)) : py::object(py::none());
    game["seed"] = ref_or_none(g, g.seed);
    py::list extra;
    for (const auto& kv : g.meta_extra) extra.append(py::make_tuple(kv.first, kv.second));
    game["extra"] = extra;
    const mj::PlayerList& pl = g.player_list;
    py::list names;
    for (std::int32_t n : pl.names) names.append(ref_or_none(g, n));
    game["names"] = names;
    game["dan"] = ref_or_none(g, pl.dan);
    game["rate"] = ref_or_none(g, pl.rate);
    game["sx"] = ref_or_none(g, pl.sx);
    game["gold"] = ref_or_none(g, pl.gold);
    game["rc"] = ref_or_none(g, pl.rc);
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

py::object mjlog_decline_reason(const py::bytes& data) {
    mj::GameTables g;
    std::string reason;
    if (mj::read_mjlog(std::string_view(data), &g, &reason)) return py::none();
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

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "replay_audit's compiled core (C++): the wall rebuilt from the seed, the mjlog reader.";
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
    m.def("mt19937_outputs", &mt19937_outputs, py::arg("key"), py::arg("count"),
          "``count`` outputs of MT19937 seeded with init_by_array(key).");
    m.def("read_mjlog", &read_mjlog, py::arg("data"),
          "One mjlog XML document (bytes, not gzipped) as columns: a dict of tables (events,\n"
          "melds, hands, agari, ryuukyoku, owari, reach_scores, pool, strings, game); None\n"
          "if the reader declines the document (replay_audit.native explains the layout).");
    m.def("mjlog_decline_reason", &mjlog_decline_reason, py::arg("data"),
          "Why read_mjlog declines ``data``, or None if it reads it.");
    m.def("decode_meld", &decode_meld, py::arg("m"), py::arg("who"), py::arg("gari") = false,
          "A meld code decoded: (kind, tiles, called, from_seat, added), kind the index of\n"
          "replay_audit.meld.MeldKind; None where meld_code.decode_meld raises.");
}
