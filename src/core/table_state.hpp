// A hand's replay table at its deal, built by the core (replay_audit.replay.state).
#pragma once

#include <pybind11/pybind11.h>

#include <utility>

namespace replay_audit::core {

// The table of ``hand`` at its deal as replay_audit.replay.state._TableState.__init__
// makes it for an XML log (its reference; tests/test_core_replay_table.py holds them
// equal slot by slot on the corpus), an instance of ``cls`` (that class or a subclass
// adding no slot) allocated without running ``__init__``; ``wall`` is the hand's
// _HandWall or None; ``consts`` the game's replay_audit.replay.state.TableConstants
// (replay_audit.replay.state._core_constants: the game, the rules, n, aka, kan_dora_now,
// the live wall at the deal, rinshan_from_live, dealt_seen), read by field name (a
// TypeError for a missing or unset field).  An empty object when the
// core declines: ``dealt_seen`` gives None (a tile met twice or an id outside 0-135, whose
// findings the Python loop makes), or a class whose slots are not the table's.
pybind11::object build_table(PyTypeObject* cls, PyObject* hand, PyObject* wall, PyObject* consts);

// The game and the rules (borrowed) of ``consts`` (a TableConstants, read by name as
// build_table reads it): run_game's for the Python's _set_table.
std::pair<PyObject*, PyObject*> consts_game_rules(PyObject* consts);

// _core.new_table(cls, hand, wall, consts): build_table as a binding (None where it
// declines), so that tests can compare a table with the Python's.
PyObject* new_table(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

}  // namespace replay_audit::core
