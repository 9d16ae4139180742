// replay_audit._core: the compiled core's Python bindings (pybind11).
//
// For now it holds the wall rebuilt from the seed (wall.hpp); the replayer does not
// use it yet.  replay_audit/_core.pyi types it for mypy; replay_audit/native.py is
// the Python side (Wall objects, and the fallback to replay_audit/wall.py).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "sha512.hpp"
#include "wall.hpp"

#ifndef REPLAY_AUDIT_CORE_SOURCES
#define REPLAY_AUDIT_CORE_SOURCES "unknown"  // setup.py defines it: a digest of src/core
#endif

namespace py = pybind11;
namespace core = replay_audit::core;

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

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "replay_audit's compiled core (C++): the wall rebuilt from the seed.";
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
}
