// The core's module-level functions of the fastcall convention (``METH_FASTCALL``: the
// arguments as a C array, no pybind11 conversion on the audit's hot paths), each added
// to the module by one call rather than its own PyMethodDef and PyCFunction_NewEx.
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

using FastFunction = PyObject* (*)(PyObject* module, PyObject* const* args, Py_ssize_t nargs);

// ``F`` added to ``m`` as the builtin ``name`` with the docstring ``doc`` (string
// literals: the method table keeps their pointers).  The PyMethodDef must outlive the
// function object: one static per function, the template's.
template <FastFunction F>
void add_fastcall(pybind11::module_& m, const char* name, const char* doc) {
    static PyMethodDef def = {name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(F)),
                              METH_FASTCALL, doc};
    m.add_object(name, pybind11::reinterpret_steal<pybind11::object>(
                           PyCFunction_NewEx(&def, nullptr, m.ptr())));
}

}  // namespace replay_audit::core
