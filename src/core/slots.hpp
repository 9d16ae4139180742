// Where a Python class with __slots__ keeps one object member: the replay's runs
// (replay.cpp) and the statistics' hand scan (facts.cpp) read the events' and the
// table's slots at these offsets, a load each, instead of a getattr (a type lookup per
// read, most of their time when measured).  One helper for both, so the rule for which
// members may be read so lives in one place.
#pragma once

#include <pybind11/pybind11.h>
#include <structmember.h>

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

}  // namespace replay_audit::core
