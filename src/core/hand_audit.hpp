// The auditor's hands of one game in one call (auditing/game.py, hand_audit.cpp says
// what it checks): the rows of a game whose every hand agrees with what the core
// computes, or None and the Python code audits the game.
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// audit_hands(played, start, chain, ctx): registered on replay_audit._core by module.cpp.
void def_auditor_hands(pybind11::module_& m);

}  // namespace replay_audit::core
