// Where a Python class with __slots__ keeps one object member: the replay's runs
// (replay.cpp) and the statistics' hand scan (facts.cpp) read the events' and the
// table's slots at these offsets, a load each, instead of a getattr (a type lookup per
// read, most of their time when measured).  One helper for both, so the rule for which
// members may be read so lives in one place; with the readers of such a slot and the
// per-class table of named offsets the facts' files share.
#pragma once

#include <pybind11/pybind11.h>
#include <structmember.h>

#include "py_errors.hpp"

namespace replay_audit::core {

// The offset of ``cls``'s plain ``__slots__`` object member ``name``, or -1 if it is
// not one (a property, a class attribute, missing) or, with ``writable``, if it is
// read-only.
inline Py_ssize_t slot_offset(PyTypeObject* cls, const char* name, bool writable = false) {
    PyObject* d = PyObject_GetAttrString(reinterpret_cast<PyObject*>(cls), name);
    if (d == nullptr) {
        PyErr_Clear();
        return -1;
    }
    Py_ssize_t at = -1;
    if (Py_TYPE(d) == &PyMemberDescr_Type) {
        const PyMemberDef* m = reinterpret_cast<PyMemberDescrObject*>(d)->d_member;
        if (m->type == T_OBJECT_EX && !(writable && (m->flags & READONLY))) at = m->offset;
    }
    Py_DECREF(d);
    return at;
}

// A slot's value at ``at`` (borrowed; nullptr while the slot is unset).
inline PyObject* slot_value(PyObject* obj, Py_ssize_t at) {
    return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + at);
}

// A slot's value at ``at`` (borrowed); Declined while the slot is unset.
inline PyObject* slot_or_decline(PyObject* obj, Py_ssize_t at) {
    PyObject* v = slot_value(obj, at);
    if (v == nullptr) throw Declined{};
    return v;
}

// The offsets of ``N`` named slots of one class, found once per class: ``of`` answers
// whether they are all plain slots of ``t`` (and, with ``Writable``, not read-only),
// looking them up again only when the class changes (the class is held while its
// offsets are).
template <int N, bool Writable = false>
struct NamedSlots {
    PyTypeObject* type = nullptr;
    Py_ssize_t at[N] = {};
    bool ok = false;

    bool of(PyTypeObject* t, const char* const (&names)[N]) {
        if (t == type) return ok;
        ok = true;
        for (int j = 0; j < N; ++j) {
            at[j] = slot_offset(t, names[j], Writable);
            if (at[j] < 0) ok = false;
        }
        Py_INCREF(t);
        Py_XDECREF(type);
        type = t;
        return ok;
    }
};

// The values (borrowed) of ``obj``'s ``N`` named slots into ``out``, in ``names``'
// order: how the core reads a context the Python hands it by name (a frozen dataclass
// with slots), so that a field added or moved on one side cannot shift the others.  A
// TypeError naming ``what`` and the field where ``obj``'s class has no such plain slot
// or leaves it unset: never a read at a wrong offset.
template <int N>
void named_values(PyObject* obj, NamedSlots<N>& slots, const char* const (&names)[N],
                  const char* what, PyObject** out) {
    PyTypeObject* t = Py_TYPE(obj);
    if (!slots.of(t, names)) {
        for (int j = 0; j < N; ++j)
            if (slot_offset(t, names[j]) < 0) {
                PyErr_Format(PyExc_TypeError, "%s: %s has no field '%s'", what, t->tp_name, names[j]);
                throw pybind11::error_already_set();
            }
    }
    for (int j = 0; j < N; ++j) {
        out[j] = slot_value(obj, slots.at[j]);
        if (out[j] == nullptr) {
            PyErr_Format(PyExc_TypeError, "%s: %s's field '%s' is unset", what, t->tp_name, names[j]);
            throw pybind11::error_already_set();
        }
    }
}

}  // namespace replay_audit::core
