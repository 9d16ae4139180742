// The replay's value objects made without their __init__ (replay.hpp's make_value): a
// frozen slots dataclass whose __init__ only stores its fields gets them stored at their
// slot offsets directly.  Its own file: it knows nothing of the replay's state, only of
// how such a class is laid out (slots.hpp), and refuses every other class.
#include "replay.hpp"

#include "py_errors.hpp"
#include "slots.hpp"

#include <utility>
#include <vector>

namespace py = pybind11;

namespace replay_audit::core {

namespace {

// A class make_value may build: a frozen slots dataclass whose __init__ only stores
// its fields (no __post_init__, every slot a field of __init__, object its only base),
// with the offsets of its fields in __init__'s order.
struct ValueClass {
    PyTypeObject* type = nullptr;  // held
    std::vector<Py_ssize_t> at;
};

// Whether ``t`` is such a class; fills ``out`` if so.
bool value_class(PyTypeObject* t, ValueClass& out) {
    PyObject* cls = reinterpret_cast<PyObject*>(t);
    if (t->tp_base != &PyBaseObject_Type || t->tp_dictoffset != 0) return false;
    if (PyObject_HasAttrString(cls, "__post_init__") ||
        !PyObject_HasAttrString(cls, "__dataclass_fields__"))
        return false;
    py::object names = py::reinterpret_steal<py::object>(PyObject_GetAttrString(cls, "__match_args__"));
    py::object slots = py::reinterpret_steal<py::object>(PyObject_GetAttrString(cls, "__slots__"));
    if (!names || !slots || !PyTuple_CheckExact(names.ptr()) || !PyTuple_CheckExact(slots.ptr())) {
        PyErr_Clear();
        return false;
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(names.ptr());
    if (n != PyTuple_GET_SIZE(slots.ptr())) return false;  // a slot __init__ would not set
    std::vector<Py_ssize_t> at(static_cast<std::size_t>(n));
    for (Py_ssize_t j = 0; j < n; ++j) {
        PyObject* name = PyTuple_GET_ITEM(names.ptr(), j);
        if (!PyUnicode_Check(name)) return false;
        const char* text = PyUnicode_AsUTF8(name);
        if (text == nullptr) {
            PyErr_Clear();
            return false;
        }
        at[static_cast<std::size_t>(j)] = slot_offset(t, text);
        if (at[static_cast<std::size_t>(j)] < 0) return false;
    }
    Py_INCREF(cls);
    out.type = t;
    out.at = std::move(at);
    return true;
}

}  // namespace

PyObject* make_value(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) noexcept {
    // The few value classes of the replay, found once each; a class that is not one
    // is remembered too (and refused) so the check runs once.
    static std::vector<ValueClass> known;
    static std::vector<PyTypeObject*> refused;
    return python_errors([&]() -> PyObject* {
        if (nargs < 1 || !PyType_Check(args[0]))
            throw py::type_error("make_value(cls, *fields): cls must be a class");
        PyTypeObject* t = reinterpret_cast<PyTypeObject*>(args[0]);
        const ValueClass* vc = nullptr;
        for (const ValueClass& k : known)
            if (k.type == t) vc = &k;
        if (vc == nullptr) {
            for (PyTypeObject* r : refused)
                if (r == t) throw py::type_error("make_value: not a slots dataclass whose __init__ only sets its fields");
            ValueClass fresh;
            if (!value_class(t, fresh)) {
                Py_INCREF(args[0]);
                refused.push_back(t);
                throw py::type_error("make_value: not a slots dataclass whose __init__ only sets its fields");
            }
            known.push_back(std::move(fresh));
            vc = &known.back();
        }
        const Py_ssize_t n = static_cast<Py_ssize_t>(vc->at.size());
        if (nargs - 1 != n)
            throw py::type_error("make_value: one value per field of the class, in order");
        PyObject* obj = t->tp_alloc(t, 0);
        if (obj == nullptr) throw py::error_already_set();
        for (Py_ssize_t j = 0; j < n; ++j) {
            PyObject* v = args[j + 1];
            Py_INCREF(v);
            *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) +
                                          vc->at[static_cast<std::size_t>(j)]) = v;
        }
        return obj;
    });
}

}  // namespace replay_audit::core
