// The replay core's plumbing on CPython objects (internal to the replay's files:
// replay.cpp, replay_calls.cpp): exact ints read without a call (small
// ints by their address, small_ints.hpp), discard masks, list items removed, set and
// appended without the general list calls, and a class's __slots__ members found once
// (Slots, slots.hpp) and read or written at their offsets.  Each file that walks the replay's
// state needs some of them; they are kept in one place so the rule for which objects
// are read so, and how a miss falls back, is written once.  Inline and file-local, as
// they were when one file held them (each use compiles to the same loads).
#pragma once

#include <pybind11/pybind11.h>

#include <cstring>

#include "py_errors.hpp"
#include "slots.hpp"
#include "small_ints.hpp"

namespace replay_audit::core {

namespace {

namespace py = pybind11;

// The count of the table's core_lists (replay_audit.replay.state._TableState.core_lists).
constexpr Py_ssize_t kCoreListCount = 17;  // state._TableState.core_lists

// item_long's way for an object that is no cached small int: out of line, so that the
// common case below is a few instructions where it is used.
[[gnu::noinline]] inline long item_long_slow(PyObject* seq_item, bool& ok) {
    long v;
    if (!PyLong_CheckExact(seq_item)) {
        ok = false;
        return -1;
    }
    v = PyLong_AsLong(seq_item);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        ok = false;
    }
    return v;
}

// CPython's small ints (small_ints.hpp), found when the core is loaded (an import,
// with the GIL held) rather than behind SmallInts::get()'s call and guard at each read.
const SmallInts& small_ints = SmallInts::get();

// An exact int's value (``ok`` false for anything else: a bool, a float, an int too
// large); a cached small int is read from its address (small_ints.hpp).  Inlined: the
// runs read a seat, a tile and a wall tile so per move (a million calls a Phoenix pass,
// a tenth of run_game's instructions when it was a call, measured with callgrind).
[[gnu::always_inline]] inline long item_long(PyObject* seq_item, bool& ok) {
    long v;
    if (small_ints.value(seq_item, v)) return v;
    return item_long_slow(seq_item, ok);
}

// Up to ``cap`` tile ids (exact ints 0-135) of a list or tuple into ``out``: their
// count, or -1 when the sequence is neither, is longer, or an item is no tile id.  The
// one reader of a hand, a meld's tiles or a shown hand for every room of the replay.
inline Py_ssize_t tile_ids(PyObject* seq, long* out, Py_ssize_t cap) {
    const bool list = PyList_CheckExact(seq);
    if (!list && !PyTuple_CheckExact(seq)) return -1;
    const Py_ssize_t n = list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
    if (n > cap) return -1;
    for (Py_ssize_t j = 0; j < n; ++j) {
        bool ok = true;
        const long t = item_long(list ? PyList_GET_ITEM(seq, j) : PyTuple_GET_ITEM(seq, j), ok);
        if (!ok || t < 0 || t >= 136) return -1;  // 4 copies x 34 kinds
        out[j] = t;
    }
    return n;
}

// A discard mask's value (an exact int 0 .. 2**64-1), as PyLong_AsUnsignedLongLong
// reads it; false for anything else.  A mask with an honor in it is two of CPython's
// 30-bit digits, which that function reads through a byte array: read here directly.
inline bool read_mask(PyObject* o, unsigned long long& out) {
    if (!PyLong_CheckExact(o)) return false;
#if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
    const Py_ssize_t digits = Py_SIZE(o);
    const digit* d = reinterpret_cast<PyLongObject*>(o)->ob_digit;
    if (digits == 0) {
        out = 0;
        return true;
    }
    if (digits == 1 || digits == 2) {
        out = d[0] | (digits == 2 ? static_cast<unsigned long long>(d[1]) << PyLong_SHIFT : 0ULL);
        return true;
    }
#endif
    out = PyLong_AsUnsignedLongLong(o);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    return true;
}

// Remove the item ``j`` of ``list`` (as ``del list[j]``: the items after it move down
// one), without PyList_SetSlice's general slice assignment.
inline void remove_at(PyObject* list, Py_ssize_t j) {
    PyListObject* l = reinterpret_cast<PyListObject*>(list);
    const Py_ssize_t size = Py_SIZE(l);
    PyObject* gone = l->ob_item[j];
    std::memmove(&l->ob_item[j], &l->ob_item[j + 1],
                 static_cast<std::size_t>(size - j - 1) * sizeof(PyObject*));
    Py_SET_SIZE(l, size - 1);
    Py_DECREF(gone);
}

inline void set_item(PyObject* list, Py_ssize_t idx, PyObject* value) {  // steals value
    if (value == nullptr || PyList_SetItem(list, idx, value) < 0) throw py::error_already_set();
}

inline void append(PyObject* list, PyObject* value) {  // borrows value
    if (PyList_Append(list, value) < 0) throw py::error_already_set();
}

// The slots ``names`` of one class, found once per class (slots.hpp's NamedSlots; the
// replay writes some of them, so read-only ones do not count): a slot read at its offset
// is a load, where getattr is a type lookup per read (most of this function's time,
// measured, when it read the events' seat and tile and the table's counters so).
template <int N>
using Slots = NamedSlots<N, true>;

inline long slot_long(PyObject* obj, Py_ssize_t at) {
    PyObject* v = slot_value(obj, at);
    long small;
    if (SmallInts::get().value(v, small)) return small;
    if (v == nullptr || !PyLong_Check(v))
        throw py::type_error("play_moves: the table's counters must be ints");
    const long out = PyLong_AsLong(v);
    if (out == -1 && PyErr_Occurred()) throw py::error_already_set();
    return out;
}

inline bool slot_true(PyObject* obj, Py_ssize_t at) {
    PyObject* v = slot_value(obj, at);
    if (v == nullptr) throw py::type_error("play_moves: a table slot is unset");
    const int truth = PyObject_IsTrue(v);
    if (truth < 0) throw py::error_already_set();
    return truth != 0;
}

inline void put(PyObject* obj, Py_ssize_t at, PyObject* value) {  // steals value
    if (value == nullptr) throw py::error_already_set();
    PyObject** p = reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + at);
    PyObject* old = *p;
    *p = value;
    Py_XDECREF(old);
}

inline PyObject* new_bool(bool b) {
    PyObject* v = b ? Py_True : Py_False;
    Py_INCREF(v);
    return v;
}

}  // namespace

}  // namespace replay_audit::core
