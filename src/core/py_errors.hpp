// The error boundary of the core's METH_FASTCALL functions: no C++ exception may cross
// into Python, so each runs its body through ``python_errors``, which turns what the body
// throws into the matching Python error and returns nullptr (one copy of the catch chain
// the replay's, the facts' and the score history's functions each wrote out before).
#pragma once

#include <pybind11/pybind11.h>

#include <exception>

namespace replay_audit::core {

// Thrown where the core declines its input (a hand, a game): ``python_errors`` then gives
// None and the Python reference answers.
struct Declined {};

// The most seats of a table the core plays or scans: more, and it declines (Python does it).
constexpr int kMaxSeats = 4;

// A new reference held (pybind11's object), or the pending Python error thrown.
inline pybind11::object own(PyObject* p) {
    if (p == nullptr) throw pybind11::error_already_set();
    return pybind11::reinterpret_steal<pybind11::object>(p);
}

// A plain int's value; Declined for anything else (a bool, a subclass, a huge int).
inline long plain_long(PyObject* v) {
    if (!PyLong_CheckExact(v)) throw Declined{};
    int overflow = 0;
    const long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow != 0) throw Declined{};
    return x;
}

// ``body()``; if it throws: ``Declined`` gives None (the core declines, Python answers),
// a pending Python error (error_already_set) is restored, pybind11's builtin exceptions
// (type_error, value_error, ...) become their Python error, any other std::exception a
// RuntimeError, and nullptr is returned.
template <class Body>
PyObject* python_errors(Body&& body) noexcept {
    try {
        return body();
    } catch (const Declined&) {
        Py_RETURN_NONE;
    } catch (pybind11::error_already_set& e) {
        e.restore();
    } catch (const pybind11::builtin_exception& e) {
        e.set_error();
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
}

}  // namespace replay_audit::core
