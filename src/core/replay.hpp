// The replay's hot loop: runs of plain draws and discards (replay_audit.replay.moves).
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// Play the draws and discards of ``events`` from ``i`` on, on the replay's own state
// (the Python lists of replay_audit.replay.state._TableState, changed in place), and
// stop before the first event that is neither or that needs anything rare (a
// finding, a rinshan draw, riichi, kan dora, a tile not held as is).  Returns
// (index reached, to_draw, to_act, after_call, live, rinshan_due, live_drawn,
// drawn_rinshan, last (0 nothing played, 1 a draw, 2 a discard), last_seat, last_tile).
pybind11::tuple play_moves(pybind11::tuple events, Py_ssize_t i, pybind11::handle draw_cls,
                           pybind11::handle discard_cls, pybind11::tuple lists,
                           pybind11::tuple scalars, pybind11::handle wall_live,
                           unsigned long long th_mask);

}  // namespace replay_audit::core
