// The statistics' per-hand event scan, shared by ``_core.hand_scan`` (facts.cpp: the scan
// as a tuple, held equal to replay_audit.stats.scan.py_scan_hand) and ``_core.game_rows``
// (facts_rows.cpp: the scan written straight into the facts' rows).  Internal to the
// core: module.cpp only sees facts.hpp.
#pragma once

#include <pybind11/pybind11.h>

#include "py_errors.hpp"  // Declined: the core declines a hand, Python answers it

// CPython 3.11's dict layout (its own header), for store() below: a row's value written
// into its entry without PyDict_SetItem's hash lookup, which was a third of the facts'
// instructions.  Other versions (and debug builds) take PyDict_SetItem.
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_DEBUG)
#define REPLAY_AUDIT_DICT_ENTRIES 1
#ifndef Py_BUILD_CORE
#define Py_BUILD_CORE 1
#define REPLAY_AUDIT_UNDEF_BUILD_CORE 1
#endif
#include <internal/pycore_dict.h>
#ifdef REPLAY_AUDIT_UNDEF_BUILD_CORE
#undef Py_BUILD_CORE
#undef REPLAY_AUDIT_UNDEF_BUILD_CORE
#endif
#endif

// Hidden, as pybind11's own namespace is: Scan holds pybind11 objects, and a type of
// default visibility with fields of hidden types draws -Wattributes (the core is built with
// -fvisibility=hidden, where it did not show; a build without that flag warned).
namespace replay_audit::core {
namespace facts_detail __attribute__((visibility("hidden"))) {

constexpr int kMaxSeats = 4;

// ``row[key] = value`` (``value`` borrowed) for a row the core has just made as a copy of
// a template whose ``col``-th entry has the key ``key``, as every facts row is: on 3.11
// the value is written straight into that entry when the entry holds that very key (so a
// template laid out otherwise, or a copy that is not, takes the general path) and the
// value is one the garbage collector does not track (the row stays untracked, as
// PyDict_SetItem keeps it); else PyDict_SetItem.  The row must not have been seen by
// Python yet (no version tag or watcher to keep).  Throws pybind11::error_already_set.
__attribute__((always_inline)) inline void store(PyObject* row, Py_ssize_t col, PyObject* key,
                                                PyObject* value) {
#ifdef REPLAY_AUDIT_DICT_ENTRIES
    PyDictObject* d = reinterpret_cast<PyDictObject*>(row);
    PyDictKeysObject* k = d->ma_keys;
    if (d->ma_values == nullptr && k->dk_kind == DICT_KEYS_UNICODE && col < k->dk_nentries &&
        !PyObject_IS_GC(value)) {
        PyDictUnicodeEntry* e = DK_UNICODE_ENTRIES(k) + col;
        PyObject* old = e->me_value;
        if (e->me_key == key && old != nullptr) {
            Py_INCREF(value);
            e->me_value = value;
            Py_DECREF(old);
            return;
        }
    }
#endif
    if (PyDict_SetItem(row, key, value) < 0) throw pybind11::error_already_set();
}

// The classes the scan is given, in stats.scan._CLASSES' order.
enum Cls { kDraw, kDiscard, kDeclare, kCall, kAccept, kWin, kRecDraw, kMeld, kClasses };
// The MeldKind members, in their order (stats.scan._KINDS).
enum Kind { kChi, kPon, kDaiminkan, kKakan, kAnkan, kKita, kKinds };

// One seat's SeatFacts (stats.scan.SeatFacts, same fields) while the scan runs.
struct Facts {
    bool any = false;  // a call, riichi or win: the seat gets a tuple, else None
    long riichi_turn = 0;  // 0: none
    long riichi_order = 0;
    PyObject* waits = nullptr;  // owned; nullptr: None
    bool accepted = false, called = false, ankan = false, taken = false;
    long kita = 0;
    long win_turn = 0;  // 0: none
    Facts() = default;
    Facts(const Facts&) = delete;
    Facts& operator=(const Facts&) = delete;
    ~Facts() { Py_XDECREF(waits); }
};

// A hand scanned: stats.scan.HandScan's values, the per-seat facts still in C.
struct Scan {
    Facts facts[kMaxSeats];
    long declared = 0;
    pybind11::list wins, draws;  // the RecordedWin and RecordedDraw events, in log order
    pybind11::object dealt;      // list: each dealt seat's tile ids as hex
};

// Scan ``events`` (a tuple) for a table of ``n`` (1-4) seats; ``cls`` and ``kinds`` point
// at the classes' and meld kinds' tuples' items.  Throws Declined or
// pybind11::error_already_set.
void scan_hand(Scan& out, PyObject* events, long n, PyObject* haipai, PyObject* const* cls,
               PyObject* const* kinds);

// ``classes`` and ``meld_kinds`` as hand_scan and game_rows take them: true if fit, else
// false with a TypeError set.
bool check_classes(PyObject* classes, PyObject* kinds);

// A game's hand-facts rows before any hand: per seat, the context's base row with the
// seat, its player's name and the commonest result ("win") written in, so that each
// row is a copy of its seat's with only the hand's own values set (two to three fewer
// dict stores a row).  ``ok`` false when the context does not fit (a base that is not a
// dict, fewer names than seats): then every hand is the fallback's.
struct SeatRows {
    pybind11::object row[kMaxSeats];
    bool ok = false;
};

// ``out``'s rows for a table of ``n`` (1-4) seats from ``ctx`` (game_rows' context tuple's
// items).  Throws pybind11::error_already_set.
void make_seat_rows(SeatRows& out, long n, PyObject* const* ctx);

// The hand-facts rows of ``hand`` (a HandLog) appended to the list ``out``: the core's
// (facts_rows.cpp), or ``fallback(hand)``'s when it declines the hand.  ``ctx`` points at
// game_rows' context tuple's items (checked by the caller), ``seats`` is make_seat_rows'
// answer for it; ``label`` is the hand's label (borrowed), or nullptr to read it here.
// Throws pybind11::error_already_set.
void append_hand_rows(PyObject* out, PyObject* hand, long n, PyObject* const* ctx,
                      const SeatRows& seats, PyObject* fallback, PyObject* label);

// The context tuple game_rows takes: its size, and true if fit, else false with a
// TypeError set (the classes, meld kinds and keys checked).
constexpr Py_ssize_t kRowsCtxSize = 7;
bool check_rows_ctx(PyObject* ctx);

}  // namespace facts_detail
}  // namespace replay_audit::core
