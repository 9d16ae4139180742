// Where a game's hands rows go (hand_row.hpp): dicts in a list, or cells in a part's table.
#include "hand_row.hpp"

#include <algorithm>

#include "py_errors.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {

constexpr Py_ssize_t kRowColumns = 34;  // the columns of a hands row (hands.csv)

}  // namespace

void HandRowsOut::begin(HandRow& row) const {
    row.n = 0;
    Py_CLEAR(row.dict);
    if (table_ != nullptr) return;
    // sized for the whole row at once (the win's own cells written by win_row): a new
    // dict grew to them in three resizes
    row.dict = _PyDict_NewPresized(kRowColumns);
    if (row.dict == nullptr) throw py::error_already_set();
}

void HandRowsOut::add(HandRow& row) {
    if (table_ == nullptr) {
        py::object dict = own(row.dict);  // (the row's one reference: the list takes its own)
        row.dict = nullptr;
        if (PyList_Append(list_, dict.ptr()) < 0) throw py::error_already_set();
        ++count_;
        return;
    }
    const auto n = static_cast<std::size_t>(row.n);
    std::size_t seq = kNoSequence;
    for (const auto& [keys, s] : shapes_) {
        if (keys.size() == n && std::equal(keys.begin(), keys.end(), row.keys)) {
            seq = s;
            break;
        }
    }
    if (seq == kNoSequence) {  // a shape not met in this game: the table's sequence of it
        py::object keys = own(PyTuple_New(row.n));
        for (int i = 0; i < row.n; ++i) {
            Py_INCREF(row.keys[i]);
            PyTuple_SET_ITEM(keys.ptr(), i, row.keys[i]);
        }
        seq = table_sequence(*table_, keys.ptr());
        if (seq == kNoSequence) throw Declined{};  // (64 shapes in the part: Python's dicts)
        shapes_.emplace_back(std::vector<PyObject*>(row.keys, row.keys + n), seq);
    }
    PyObject* values[HandRow::kMaxCells];
    for (int i = 0; i < row.n; ++i) values[i] = row.values[i].ptr();
    table_add_cells(*table_, seq, values, source_);
    for (int i = 0; i < row.n; ++i) row.values[i] = py::object();
    ++count_;
}

HandRowsOut hand_rows_out(PyObject* const* args, Py_ssize_t nargs, bool core_win_row,
                          PyObject* list) {
    if (nargs < 10 || !core_win_row || !PyUnicode_CheckExact(args[9])) return HandRowsOut(list);
    const long t = plain_long(args[8]);
    TableRows* table = t >= 0 ? part_table(args[7], static_cast<std::size_t>(t)) : nullptr;
    return table != nullptr ? HandRowsOut(table, args[9]) : HandRowsOut(list);
}

}  // namespace replay_audit::core
