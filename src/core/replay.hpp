// The replay's hot loop: runs of plain draws and discards (replay_audit.replay.moves).
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// _core.play_moves(table, events, i, draw_cls, discard_cls, th_mask, declare_cls,
// accept_cls, riichi_cost, call_cls, chi, pon, chi_allowed): play the draws and
// discards of ``events`` from ``i`` on, on the replay's own state, the table
// (replay_audit.replay.state._TableState): its ``core_lists`` changed in place, its
// counters read and written back as attributes.  It stops before the first event that
// is none of those it plays or that needs anything rare (a finding, a rinshan draw, kan
// dora, a tile not held as is).  It also plays the REACH steps inside a run (the
// classes and the riichi cost given) and the riichi discard that leaves a wait, and the
// chi and pon of the discard just made that find nothing and make no pao (the Call
// class, MeldKind.CHI and .PON, the rules' chi).  Returns the index reached, or -1 if
// it declined the first move (then the table is as it was).  A raw METH_FASTCALL
// function: this runs about five times a hand, and pybind11's argument handling cost
// more than the run it called.
PyObject* play_moves(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.make_value(cls, *fields): an instance of the slots dataclass ``cls`` with its
// fields (all of them, in __init__'s order) set directly, as the dataclass __init__
// would set them but without running it (the replay makes a few values a hand, and a
// frozen dataclass's __init__, one object.__setattr__ per field, cost more than the
// work that filled them).  Only for a class whose __init__ does nothing else: object
// its only base, no __post_init__, every slot a field of __init__ (TypeError for any
// other, and for a wrong count of fields).
PyObject* make_value(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.win_checks(table, seat, tiles, win_tile, ron, win, melds, dora, ura, riichi,
// ura_from_log): True when every check of a win in an XML log
// (replay_audit.replay.results._win) finds nothing: ``tiles`` (the winner's tiles with
// the winning tile) complete, a ron not furiten (riichi._check_furiten over the table's
// core_lists), and against the RecordedWin ``win``: its hand the same tile ids, its
// melds, dora and ura equal to the replayed ``melds``, ``dora`` and ``ura`` (one ura
// per dora when they come from the log), its winning tile (or None) the same.  False
// when any of them could find something, or when the input is not as the Python code
// keeps it: then the Python checks run, and they stay the reference.
PyObject* win_checks(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.hand_wall(record, plan, dora_indicator, haipai): replay_audit.replay.walls's
// _hand_wall on a core wall record (bytes): (dora, ura, live, rinshan, dice) as tuples when
// INIT's dora indicator and every seat's deal, as dealt and in order, are the wall's;
// None when the dora indicator is not; NotImplemented for anything else (a deal in
// another order, an input not as expected), which the Python then decides.  ``plan``
// is the layout's positions: (first dora, a bytes of positions per seat's deal, dora,
// ura, live start, live stop, rinshan), the bytes giving positions in order.
PyObject* hand_wall(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.dealt_seen(haipai, dora_indicator): the replay's tiles met at the deal
// (replay_audit.replay.state._TableState's ``seen``: a bytearray of 136, a 1 at each
// tile id dealt and at the dora indicator); None when a tile is met twice or is not an
// int id 0-135, and then the Python builds it and names each repeat (its reference).
PyObject* dealt_seen(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

}  // namespace replay_audit::core
