// The statistics' per-hand event scan, shared by ``_core.hand_scan`` (facts.cpp: the scan
// as a tuple, held equal to replay_audit.stats.scan.py_scan_hand) and ``_core.game_rows``
// (facts_rows.cpp: the scan written straight into the facts' rows).  Internal to the
// core: module.cpp only sees facts.hpp.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>

#include "game.hpp"       // MeldKindCode, kMeldKinds
#include "part_rows.hpp"  // TableRows: a part's table the rows may go straight into
#include "py_errors.hpp"  // Declined, kMaxSeats: the core declines a hand, Python answers it

// Hidden, as pybind11's own namespace is: Scan holds pybind11 objects, and a type of
// default visibility with fields of hidden types draws -Wattributes (the core is built with
// -fvisibility=hidden, where it did not show; a build without that flag warned).
namespace replay_audit::core {
namespace facts_detail __attribute__((visibility("hidden"))) {

// ``row[key] = value`` (``value`` borrowed), the one way a facts row is written: a row is
// a copy of its seat's template, so only the values that differ from it are stored.
// Throws pybind11::error_already_set.
inline void store(PyObject* row, PyObject* key, PyObject* value) {
    if (PyDict_SetItem(row, key, value) < 0) throw pybind11::error_already_set();
}

// The classes the scan is given, in stats.scan._CLASSES' order.
enum Cls { kDraw, kDiscard, kDeclare, kCall, kAccept, kWin, kRecDraw, kMeld, kClasses };
// The meld kinds are given as the MeldKind members in their order (stats.scan._KINDS):
// a kind's index there is its MeldKindCode (game.hpp).

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

constexpr int kFactsCols = 47;  // stats.facts._ROW's columns

// Where a game's hand-facts rows go: appended to ``list`` as dicts (the rows Python gets),
// or, with ``table`` set, written cell by cell into a part's table (part_rows.hpp: the
// runner's facts, no dict per row), each row starting from its seat's template cells (the
// values of its SeatRows row, borrowed).  ``rows`` counts the rows the table got.
struct FactsRowsOut {
    PyObject* list = nullptr;
    TableRows* table = nullptr;
    PyObject* keys = nullptr;       // the facts columns (a tuple), for the table's sequence
    std::size_t seq = kNoSequence;  // the table's key sequence of them, from the first row
    PyObject* source = nullptr;     // the file (an exact str)
    PyObject* cells[kMaxSeats][kFactsCols] = {};
    std::size_t rows = 0;
};

// Thrown where a part's table declines a row of the game (FactsRowsOut): not caught per
// hand, as Declined is, but by the writer of the game's rows, which rolls the table back.
struct TableDeclined {};

// ``out``'s template cells, for a table of ``n`` seats: false when the seats' rows are not
// of ``ctx``'s keys in their order (a dict's row would not be the cells' row): then the
// rows are to go as dicts.
bool seat_cells(FactsRowsOut& out, const SeatRows& seats, long n, PyObject* const* ctx);

// The hand-facts rows of ``hand`` (a HandLog) appended to the list ``out``: the core's
// (facts_rows.cpp), or ``fallback(hand)``'s when it declines the hand.  ``ctx`` points at
// game_rows' context tuple's items (checked by the caller), ``seats`` is make_seat_rows'
// answer for it; ``label`` is the hand's label (borrowed), or nullptr to read it here.
// Throws pybind11::error_already_set.
// With ``out.table``: into the table, the fallback's dicts too (TableDeclined, some rows
// maybe taken, when the table declines them: the caller rolls the table back).
void append_hand_rows(FactsRowsOut& out, PyObject* hand, long n, PyObject* const* ctx,
                      const SeatRows& seats, PyObject* fallback, PyObject* label);

// The context tuple game_rows takes: its size, and true if fit, else false with a
// TypeError set (the classes, meld kinds and keys checked).
constexpr Py_ssize_t kRowsCtxSize = 7;
bool check_rows_ctx(PyObject* ctx);

}  // namespace facts_detail
}  // namespace replay_audit::core
