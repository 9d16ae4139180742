// One hands row of a game's one call (hand_audit.cpp) as it is filled, and where a game's
// rows go: a list of dicts (what audit_hands has always given), or, for the runner that
// writes parts, the cells of each row straight into the part's ``hands`` table
// (part_rows.hpp; replay_audit.report.part_rows.HandsSink), without a dict per row.
//
// Why the cells: a hands row is 28 keys (a win) or 14-15 (a draw), put into a fresh dict
// by the core, held by the FileAudit, then taken apart again key by key by
// PartRows.add and freed; written as cells, the values go into their columns' Arrow
// buffers while they are made.  The keys are put in the same order in both ways (one
// ``put`` per cell, the same calls), so a row's key sequence, and so the table, is the
// one the dict would have made.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "part_rows.hpp"

namespace replay_audit::core {

// One row being filled: a dict (``dict`` set), or its keys (interned names, borrowed:
// they live as long as the module) and values in the order they were put.
struct HandRow {
    static constexpr int kMaxCells = 40;  // a hands row has at most 28 cells
    PyObject* dict = nullptr;
    int n = 0;
    PyObject* keys[kMaxCells];
    pybind11::object values[kMaxCells];

    HandRow() = default;
    HandRow(const HandRow&) = delete;
    HandRow& operator=(const HandRow&) = delete;
    ~HandRow() { Py_XDECREF(dict); }

    // Cell ``key`` (borrowed) set to ``value`` (borrowed; a null one is the pending error).
    void put(PyObject* key, PyObject* value) {
        if (value == nullptr) throw pybind11::error_already_set();
        if (dict != nullptr) {
            if (PyDict_SetItem(dict, key, value) < 0) throw pybind11::error_already_set();
            return;
        }
        if (n == kMaxCells) throw pybind11::value_error("a hands row of too many cells");
        keys[n] = key;
        values[n++] = pybind11::reinterpret_borrow<pybind11::object>(value);
    }
};

// Where a game's rows go.  Made for a list (dicts) or for a part's table (cells), whose
// size at the start is kept: ``rollback`` takes back every row the game wrote (the core
// declined the game after some rows, or failed), so the Python code's dicts take over.
class HandRowsOut {
public:
    // Rows as dicts appended to ``list``.
    explicit HandRowsOut(PyObject* list) : list_(list) {}
    // Rows as cells into ``table``, ``source`` (an exact str) the file.
    HandRowsOut(TableRows* table, PyObject* source)
        : table_(table), source_(source), mark_(table_mark(*table)) {}

    bool cells() const { return table_ != nullptr; }

    // A new row in ``row`` (its dict made, sized for the hands table's columns, where
    // the rows are dicts).
    void begin(HandRow& row) const;

    // The row, filled, appended.
    void add(HandRow& row);

    // The rows written into the table since it was made taken back (nothing for dicts).
    void rollback() {
        if (table_ != nullptr) table_truncate(*table_, mark_);
    }

    // What audit_hands gives for the rows: the list, or the number written.
    pybind11::object given() const {
        if (table_ != nullptr) return pybind11::int_(count_);
        return pybind11::reinterpret_borrow<pybind11::object>(list_);
    }

private:
    PyObject* list_ = nullptr;
    TableRows* table_ = nullptr;
    PyObject* source_ = nullptr;
    TableMark mark_{};
    std::size_t count_ = 0;
    // the table's key sequence of each shape of row met (its keys, by identity)
    std::vector<std::pair<std::vector<PyObject*>, std::size_t>> shapes_;
};

// Where audit_hands puts a game's rows (its arguments ``args``, ``nargs`` of them): the
// part's table of arguments 7-9 (a _core.PartRows, the index of its hands table, the file
// as an exact str) where they are given, the table takes rows and the wins' cells are the
// core's own (``core_win_row``); else ``list``, as dicts.
HandRowsOut hand_rows_out(PyObject* const* args, Py_ssize_t nargs, bool core_win_row,
                          PyObject* list);

}  // namespace replay_audit::core
