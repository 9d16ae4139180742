// The scoring engine's Python bindings, registered on replay_audit._core by module.cpp
// (score_bindings.cpp holds them and says what they are).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace replay_audit::core {

// ScoreRules, score_win, set_value_type, score_win_value, win_deltas and WinBatch.
void def_scoring(pybind11::module_& m);

// win_row and events_except: the auditor's win in one call (auditing/wins.py, hands.py).
void def_auditor_win(pybind11::module_& m);

struct HandRow;  // hand_row.hpp

// win_row's work without its Python call (hand_audit.cpp, for every win of a game): the
// win's 17 cells put into ``row`` (a dict or cells, hand_row.hpp) where it agrees with
// its value, and (value, deltas); None, nothing put, for anything else.  ``rules`` is a
// _core.ScoreRules.
pybind11::object win_row_into(HandRow& row, PyObject* ev, PyObject* ctx, PyObject* rules,
                              std::int64_t dealer, std::int64_t players, std::int64_t honba,
                              std::int64_t sticks, bool first_winner);

// Whether ``f`` is _core.win_row itself (not a stand-in a test set).
bool is_core_win_row(PyObject* f);

}  // namespace replay_audit::core
