// The row codec's per-cell work (replay_audit.report.codec): rows taken apart into
// columns, each column's one plain type, and the Arrow buffers of a plain column.  The
// Python functions of the codec stay the reference (tests/test_core_codec.py holds them
// equal on the corpus's rows and on generated ones); each function here returns None
// where it declines, and the codec then does the work in Python.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>

namespace replay_audit::core {

// The plain kind of a value's exact type, as codec._KINDS numbers them: 1 bool, 2 int,
// 3 float, 4 str, -1 any other (a subclass too).  The row codec and the runner's part
// rows (part_rows.cpp) both type cells by it.
inline int kind_of(PyObject* v) {
    PyTypeObject* t = Py_TYPE(v);
    if (t == &PyBool_Type) return 1;
    if (t == &PyLong_Type) return 2;
    if (t == &PyFloat_Type) return 3;
    if (t == &PyUnicode_Type) return 4;
    return -1;
}

// The most distinct key sequences the row codec (row_columns) and a part's table
// (part_rows.cpp) take; rows of more sequences are Python's.
constexpr std::size_t kMaxSequences = 64;

// Two exact str keys equal (the identity test first: rows built from one template share
// their key objects).
inline bool same_key(PyObject* a, PyObject* b) {
    if (a == b) return true;
    return PyUnicode_GET_LENGTH(a) == PyUnicode_GET_LENGTH(b) && PyUnicode_Compare(a, b) == 0;
}

// _core.row_columns(rows): what codec._py_columns gives, ``(names, columns, lacks)``: the
// keys in the order they first appear, per name the list of every row's value (None where
// a row lacks the key), per row the list of keys it lacks (None when it has them all;
// rows with the same key sequence share one list).  None when it declines: ``rows`` not
// an exact list or tuple, a row not an exact dict, a key not an exact str, or more than
// kMaxSequences different key sequences.
PyObject* row_columns(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.plain_kind(values): what codec._py_plain_kind gives for a list or tuple: 0 when
// every value is None, 1 bool, 2 int, 3 float, 4 str when every other value has exactly
// that type (no subclass), -1 otherwise.  None when ``values`` is not a list or tuple.
PyObject* plain_kind(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.column_buffers(values, kind): the Arrow buffers of a column plain_kind found of
// kind 1-4 (bool, int64, float64, string): ``(validity or None, null count, data,
// offsets or None)``, as bytes, for pyarrow.Array.from_buffers.  None when it declines:
// an int beyond 64 bits, a str not encodable as UTF-8, more than 2 GiB of text, a value
// not of the kind.
PyObject* column_buffers(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

}  // namespace replay_audit::core
