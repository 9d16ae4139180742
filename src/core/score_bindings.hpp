// The scoring engine's Python bindings, registered on replay_audit._core by module.cpp
// (score_bindings.cpp holds them and says what they are).
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// ScoreRules, score_win, set_value_type, score_win_value, win_deltas and WinBatch.
void def_scoring(pybind11::module_& m);

// win_row and events_except: the auditor's win in one call (auditing/wins.py, hands.py).
void def_auditor_win(pybind11::module_& m);

}  // namespace replay_audit::core
