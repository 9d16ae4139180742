// One hand's event loop in one core call (replay_audit.replay.table._Table.run).
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// _core.run_hand(table, events, run): replay_audit.replay.table._Table.run for an XML
// log: every event of ``events`` played on the table (replay_audit.replay.state.
// _TableState) in order, and the hand's HandReplay returned.  ``run`` is a
// replay.table.RunArgs, its fields (play, checks, make, classes, riichi_cost,
// chi_allowed) read by name, so that one added or moved cannot shift the others (a
// TypeError for a missing or unset field).  Runs of draws and discards go to ``play`` (the core's play_moves,
// or what a test puts in its place) and, where it declines the first move, to the
// table's ``_moves``; riichi steps to the table's own Python rooms; a call, a NewDora and
// a draw result are made here where their room would find nothing (an ankan, kakan,
// chi, pon or daiminkan with its pao; a kan dora indicator; an exhaustive draw, or an
// abortive one but a triple ron), else sent to that room (``_call``, ``_new_dora``,
// ``_draw_result``, the reference); a win is made here when ``checks`` (win_checks; None: never) finds nothing and
// it is a tsumo in turn or a ron on a discard, else by the table's ``_win`` (told when
// ``checks`` found something, so that it does not ask again).  ``make`` makes the values
// (replay_audit.replay.values.MAKE); ``classes`` (a replay.table.RunClasses, read by
// field name: a TypeError for a missing or unset field) holds Draw, Discard, the
// terminal-and-honor mask, RiichiDeclare, RiichiAccept, Call, MeldKind.CHI and .PON,
// NewDora, RecordedWin, RecordedDraw, WinContext, ResultReplay, HandReplay, DrawContext,
// MeldKind.ANKAN, .KAKAN, .DAIMINKAN and .KITA.  A raw
// METH_FASTCALL function, once a hand.
PyObject* run_hand(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.run_game(cls, hands, walls_of, walls, set_table, consts, run): replay_audit.replay.table.replay_game's hand loop for an XML
// log in one call a game: for each of ``hands`` (a tuple) with its wall (``walls_of``, a
// list as long), the table built by the core (build_table, table_state.hpp, with the
// game's ``consts``, a TableConstants read by name), or by ``set_table(game, hand,
// rules, walls, wall)`` (the Python's _set_table) where the core declines it or the wall is None with a wall source
// ``walls`` (a finding may be owed), then played as run_hand plays it (``run`` as
// run_hand's).  (the HandReplays as a tuple, every
// hand's findings in order as a tuple).  The Python loop of replay_game, with
// _set_table and run_hand, is its reference.
PyObject* run_game(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.hand_walls(stream, cache, hands, plans, limit, make, wall_cls): the walls of a
// game's hands (replay_audit.replay.walls._WallSource.for_hand's usual case) in one call:
// for each hand with no INIT shuffle of its own whose wall ``cache[hand.index]`` (the
// wall ``stream`` gives next appended to ``cache`` while it is short of it and under
// ``limit``) has the hand's deal as dealt (hand_wall with ``plans[hand.dealer]``), that
// wall as ``make(wall_cls, dora, ura, live, rinshan, dice)``; NotImplemented for every other
// hand, which ``for_hand`` then decides.  A list, one entry per hand.  In
// replay_walls.cpp.
PyObject* hand_walls(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

}  // namespace replay_audit::core
