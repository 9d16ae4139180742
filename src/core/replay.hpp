// The replay's hot loop: runs of plain draws and discards (replay_audit.replay.moves).
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// _core.play_moves(table, events, i, draw_cls, discard_cls, th_mask): play the draws and
// discards of ``events`` from ``i`` on, on the replay's own state, the table
// (replay_audit.replay.state._TableState): its ``core_lists`` changed in place, its
// counters read and written back as attributes.  It stops before the first event that
// is neither or that needs anything rare (a finding, a rinshan draw, kan dora, a tile
// not held as is).  Given (declare_cls, accept_cls, riichi_cost) too, it plays the REACH
// steps inside a run and the riichi discard that leaves a wait; given (call_cls, chi, pon,
// chi_allowed) as well, the chi and pon of the discard just made that find nothing and
// make no pao.  Returns the index reached, or -1 if it declined the first move
// (then the table is as it was).  A raw METH_FASTCALL function: this runs about five
// times a hand, and pybind11's argument handling cost more than the run it called.
PyObject* play_moves(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

}  // namespace replay_audit::core
