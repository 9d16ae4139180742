// Reading Python ints without a call per read: the replay's runs (replay.cpp) read a
// seat and a tile id per event and compare every held tile of a hand at each discard,
// and PyLong_AsLong (a call, a type check and a load of the int object per read) was a
// fifth of their time, measured.
//
// CPython keeps one int object per value -5..256, in one array (its documented
// small-int cache: every tile id, seat and kind is one of them); an object whose
// address lies in that array is that value, read from the address alone.  The array's
// place and step are found once and checked value by value; when that check fails (an
// interpreter laid out otherwise) no address is taken for a small int, and every read
// goes the general way, with the same answers.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace replay_audit::core {

class SmallInts {
   public:
    // The one instance, found on first use (with the GIL held, as every caller is).
    static const SmallInts& get() {
        static const SmallInts ints;
        return ints;
    }

    // Whether ``o`` is one of the cached int objects; then ``v`` is its value.
    bool value(const PyObject* o, long& v) const {
        const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(o) - lo_;
        if (off >= span_) return false;
        v = static_cast<long>(off >> shift_) - kNeg;
        return true;
    }

    // Whether ``o`` is one of the cached int objects.
    bool holds(const PyObject* o) const {
        return reinterpret_cast<std::uintptr_t>(o) - lo_ < span_;
    }

    // The cached object of ``v`` (-5..256), or nullptr when the array was not found.
    PyObject* object(long v) const {
        if (span_ == 0) return nullptr;
        return reinterpret_cast<PyObject*>(lo_ + (static_cast<std::uintptr_t>(v + kNeg) << shift_));
    }

   private:
    static constexpr long kNeg = 5;    // -5 .. 256: CPython's _PY_NSMALLNEGINTS
    static constexpr long kPos = 257;  // and _PY_NSMALLPOSINTS

    std::uintptr_t lo_ = 0;
    std::uintptr_t span_ = 0;  // 0: not found, nothing is taken for a small int
    int shift_ = 0;

    SmallInts() {
        PyObject* first = PyLong_FromLong(-kNeg);
        PyObject* second = PyLong_FromLong(1 - kNeg);
        if (first == nullptr || second == nullptr) {
            Py_XDECREF(first);
            Py_XDECREF(second);
            PyErr_Clear();
            return;
        }
        const std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(first);
        const std::uintptr_t step = reinterpret_cast<std::uintptr_t>(second) - lo;
        Py_DECREF(first);  // cached: the interpreter keeps them
        Py_DECREF(second);
        int shift = 0;
        while (shift < 16 && (std::uintptr_t{1} << shift) < step) ++shift;
        if (step == 0 || (std::uintptr_t{1} << shift) != step) return;
        // Every value where the step puts it, and the same object each time it is asked for.
        for (long v = -kNeg; v < kPos; ++v) {
            PyObject* o = PyLong_FromLong(v);
            if (o == nullptr) {
                PyErr_Clear();
                return;
            }
            const bool placed =
                reinterpret_cast<std::uintptr_t>(o) == lo + (static_cast<std::uintptr_t>(v + kNeg) << shift) &&
                Py_TYPE(o) == &PyLong_Type && PyLong_AsLong(o) == v;
            Py_DECREF(o);
            if (!placed) return;
        }
        lo_ = lo;
        shift_ = shift;
        span_ = static_cast<std::uintptr_t>(kNeg + kPos) << shift;
    }
};

}  // namespace replay_audit::core
