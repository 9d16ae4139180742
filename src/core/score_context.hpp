// The scoring bindings' conversions (internal: defined in score_bindings.cpp, used there
// and in score_win_row.cpp): the interned names, a WinContext read into core::WinIn, and
// a core::WinOut made into the WinValue fields or the WinValue itself.  The single win,
// the batch and the auditor's row read contexts and make values the same way, so these
// are declared here once (the Python side: replay_audit/scoring/context.py, core.py).
#pragma once

#include <pybind11/pybind11.h>

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

#include "scoring.hpp"

namespace py = pybind11;

namespace replay_audit::core::score_py {

// Python-side names, interned once.
struct Names {
    py::str tiles{"tiles"}, melds{"melds"}, win_tile{"win_tile"}, tsumo{"tsumo"}, seat{"seat"},
        dealer{"dealer"}, round_wind{"round_wind"}, players{"players"}, riichi{"riichi"},
        double_riichi{"double_riichi"}, ippatsu{"ippatsu"}, haitei{"haitei"}, houtei{"houtei"},
        rinshan{"rinshan"}, chankan{"chankan"}, tenhou{"tenhou"}, chiihou{"chiihou"},
        renhou{"renhou"}, dora_indicators{"dora_indicators"}, ura_indicators{"ura_indicators"},
        kind{"kind"}, ron_payment{"ron_payment"}, tsumo_dealer_payment{"tsumo_dealer_payment"},
        tsumo_other_payment{"tsumo_other_payment"}, base{"base"}, yakuman{"yakuman"};
};

// The names, made once (never freed: they live as long as the module).
const Names& names();

// Attribute ``name`` of ``obj`` as a new reference, or null (error cleared).
py::object attr(py::handle obj, const py::str& name);

bool read_long(py::handle obj, long* out);

// Tile ids 0-135 of a sequence into ``out`` (at most ``cap``).
bool read_tiles(py::handle seq, std::uint8_t* out, int cap, std::uint8_t* n);

// A WinContext as core::WinIn; false for anything the core leaves to Python.
bool read_win(py::handle ctx, core::WinIn* in);

// The WinValue fields of one result, in WinValue's order (a tuple).
py::tuple value_tuple(const core::WinOut& o);

// Give the WinValue class (kept with the slots of its fields, for value_object).
void set_value_type(py::handle cls);

// A WinValue object with the fields of ``fields`` (value_tuple's order).
py::object value_object(const py::tuple& fields);

}  // namespace replay_audit::core::score_py
