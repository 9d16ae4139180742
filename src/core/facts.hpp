// The statistics' per-hand event scan (replay_audit.stats.scan): the common case of
// ``py_scan_hand``, which stays the reference (tests/test_core_facts.py holds them equal
// on the shared corpus and on mutated games).
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

// _core.hand_scan(events, n, haipai, draw_cls, discard_cls, declare_cls, call_cls): one
// pass over a hand's events (a tuple), as replay_audit.stats.scan.py_scan_hand makes it:
// a list with one entry per event that is neither an exact Draw nor an exact Discard,
// ``(i, last_discarder or None, discards per seat so far)``, and one per riichi discard
// (a seat's first discard after its first declaration), ``(i, wait kinds or None,
// None)``.  None when it declines the hand (a seat or tile that is not a plain small int,
// a riichi seat that called before its riichi discard, a kind held five times): then
// Python scans it.  A raw METH_FASTCALL function, as play_moves: it runs once a hand.
PyObject* hand_scan(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

}  // namespace replay_audit::core
