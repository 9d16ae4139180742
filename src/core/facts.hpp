// The statistics' per-hand event scan (replay_audit.stats.scan): the common case of
// ``py_scan_hand``, which stays the reference (tests/test_core_facts.py holds them equal
// on the shared corpus and on mutated games).
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// _core.hand_scan(events, n, haipai, classes, meld_kinds): one pass over a hand's events
// (a tuple), giving what replay_audit.stats.scan.py_scan_hand gives: ``(per seat its
// SeatFacts tuple or None, riichi declarations, recorded wins, recorded draws, the
// dealt tile ids of each seat as hex)``.
// ``classes``: Draw, Discard, RiichiDeclare, Call, RiichiAccept, RecordedWin, RecordedDraw,
// Meld; ``meld_kinds``: the MeldKind members in order.  None when it declines the hand (a
// seat or tile that is not a plain small int, a riichi seat that called before its
// riichi discard, a kind held five times, a subclass of an event class): then Python
// scans it.  A raw METH_FASTCALL function, as play_moves: it runs once a hand.
PyObject* hand_scan(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.game_rows(hands, n, ctx, fallback): the rows of replay_audit.stats.facts.hand_facts
// for the hands of a game (the same dicts, keys in the same order), each hand's built from
// the scan above (facts_rows.cpp), or ``fallback(hand)``'s (Python's reference) when the
// core declines the hand: what hand_scan declines, a nagashi mangan, a draw without shown
// hands or a win with yaku names (JSON), a value of an odd type.  ``ctx``, per game:
// ``(base row, player names, riichi cost, classes, meld_kinds, the row's keys,
// ABORTIVE_KINDS)``.  None when it declines the game (``n`` outside 1-4, ``hands`` not a
// tuple): then Python writes every row.
PyObject* game_rows(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.score_rows(hands, file, log_id, names, keys): the per-hand rows of
// replay_audit.stats.game_facts.score_history (score_rows.cpp), one per (hand, seat that
// has a score and a name), ``keys`` its seven columns in order.  None when a hand is not a
// HandLog as known (its ``index`` and ``scores`` slots) or its scores not a tuple.
PyObject* score_rows(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// stats.game_facts.score_history's columns, in its order: the rows of score_rows
// (score_rows.cpp) and of file_facts' score history (file_facts.cpp).
enum ScoreCol { sFile, sLogId, sHandIndex, sLabel, sSeat, sName, sScore, sCols };

// _core.file_facts(hands, n, ctx, fallback, game_ctx): a game's three fact tables in one
// walk over its hands (file_facts.cpp), as the tuple ``(hand facts, game facts, score
// history)`` of replay_audit.stats.facts.hand_facts, stats.game_facts.game_facts and
// score_history: the same dicts, keys in the same order.  ``ctx`` is game_rows'
// (``fallback`` answers the hands it declines); ``game_ctx``: ``(score history keys, the
// game facts' row with the game's values, its keys, the final scores and points when the
// game is complete else None, each seat's rate, the table's average rate when the game is
// rated else None, the place scores, the rate factor, the score history's final
// scores)``.  None when it declines the game: then Python writes the three.
// _core.file_facts(..., sink): the same game, its hand facts and score history written
// straight into two tables of the runner's part (part_rows.hpp), cell by cell, without a
// dict per row; ``sink``: ``(a _core.PartRows, the hand facts' table, the score history's
// table, the file as the part's source)``.  ``(hand facts' rows, game facts, score
// history's rows)``, the game facts as dicts; or None (nothing written: the tables rolled
// back) when it declines the game or a table declines a row, when a table declined rows
// before; an error (the tables rolled back) as without a sink.  The tables are then what
// PartRows.add makes of the dicts the call without a sink gives.
PyObject* file_facts(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

}  // namespace replay_audit::core
