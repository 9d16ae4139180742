// The score history's per-hand rows (facts.hpp): replay_audit.stats.game_facts.score_history
// writes a 7-column dict per (hand, seat), a fifth of the facts' cost when measured, most
// of it the interpreter's loop; here each row is a copy of the game's row (file and log
// id written, the keys in their order) with the five values that differ written in.
#include <algorithm>
#include <exception>

#include "facts.hpp"
#include "hand_label.hpp"
#include "py_errors.hpp"
#include "slots.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {

// The HandLog slots the score history reads.
enum HistorySlot { hsIndex, hsScores, hsSlots };
const char* const kHistorySlotNames[hsSlots] = {"index", "scores"};

void put_new(PyObject* row, PyObject* key, PyObject* value) {  // value: a new reference
    if (value == nullptr) throw py::error_already_set();
    const int rc = PyDict_SetItem(row, key, value);
    Py_DECREF(value);
    if (rc < 0) throw py::error_already_set();
}

PyObject* rows_of(PyObject* hands, PyObject* file, PyObject* log_id, PyObject* names,
                  PyObject* const* keys) {
    static NamedSlots<hsSlots> hand_slots;
    PyObject* base = PyDict_New();  // the game's row: every key, in order
    if (base == nullptr) throw py::error_already_set();
    py::object base_owner = py::reinterpret_steal<py::object>(base);
    for (int c = 0; c < sCols; ++c) {
        PyObject* v = c == sFile ? file : c == sLogId ? log_id : Py_None;
        if (PyDict_SetItem(base, keys[c], v) < 0) throw py::error_already_set();
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(names);
    py::list out;
    const Py_ssize_t count = PyTuple_GET_SIZE(hands);
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject* hand = PyTuple_GET_ITEM(hands, i);
        if (!hand_slots.of(Py_TYPE(hand), kHistorySlotNames)) throw Declined{};
        PyObject* index = slot_value(hand, hand_slots.at[hsIndex]);
        PyObject* scores = slot_value(hand, hand_slots.at[hsScores]);
        if (index == nullptr || scores == nullptr || !PyTuple_CheckExact(scores)) throw Declined{};
        PyObject* label = hand_label(hand);
        if (label == nullptr) throw py::error_already_set();
        py::object label_owner = py::reinterpret_steal<py::object>(label);
        const Py_ssize_t seats = std::min(n, PyTuple_GET_SIZE(scores));
        for (Py_ssize_t s = 0; s < seats; ++s) {
            PyObject* row = PyDict_Copy(base);
            if (row == nullptr) throw py::error_already_set();
            const int rc = PyList_Append(out.ptr(), row);
            Py_DECREF(row);
            if (rc < 0) throw py::error_already_set();
            put_new(row, keys[sHandIndex], Py_NewRef(index));
            put_new(row, keys[sLabel], Py_NewRef(label));
            put_new(row, keys[sSeat], PyLong_FromSsize_t(s));
            put_new(row, keys[sName], Py_NewRef(PyTuple_GET_ITEM(names, s)));
            put_new(row, keys[sScore], Py_NewRef(PyTuple_GET_ITEM(scores, s)));
        }
    }
    return out.release().ptr();
}

}  // namespace

PyObject* score_rows(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "score_rows takes 5 arguments");
        return nullptr;
    }
    PyObject* keys = args[4];
    if (!PyTuple_CheckExact(keys) || PyTuple_GET_SIZE(keys) != sCols) {
        PyErr_SetString(PyExc_TypeError, "score_rows: the keys must be a 7-tuple");
        return nullptr;
    }
    if (!PyTuple_CheckExact(args[0]) || !PyTuple_CheckExact(args[3])) Py_RETURN_NONE;
    return python_errors([&]() -> PyObject* {
        return rows_of(args[0], args[1], args[2], args[3], &PyTuple_GET_ITEM(keys, 0));
    });
}

}  // namespace replay_audit::core
