// The Python values GameBuilder makes (internal to build_events.cpp): the shared int
// cache, ints, tuples of ints and of pairs, strings, the unquoted UN names, the split
// and converted string lists, and SlotClass, a frozen slotted dataclass made without
// its __init__.  Each returns a new reference or null with the Python error set (see
// build_events.cpp).  Apart from the builder, which only decides what goes where; the
// helpers are inline (integer() is on every event's path) and the int cache is one
// for the program.
#pragma once

#include <pybind11/pybind11.h>
#include <structmember.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "game.hpp"
#include "py_errors.hpp"

namespace replay_audit::core::mjlog::build_values {

namespace py = pybind11;

// The ints 0..n-1 made once, for every Game built (ints are immutable, so sharing them is
// invisible): the element indices (``seq``) are mostly past CPython's own small ints
// (0-256), and one int per event was a new object each.  Grown (with the GIL held) by
// GameBuilder::build to the largest index of the document, up to kCachedInts.
inline constexpr std::size_t kCachedInts = 1 << 14;
inline std::vector<PyObject*> cached_ints;  // strong references, kept for the module's life
inline std::size_t n_cached_ints = 0;       // cached_ints.size(), a plain value for integer()

inline void cache_ints(std::size_t largest) {
    const std::size_t want = std::min(largest + 1, kCachedInts);
    if (cached_ints.size() >= want) return;
    cached_ints.reserve(want);
    for (std::size_t v = cached_ints.size(); v < want; ++v) {
        PyObject* i = PyLong_FromSize_t(v);
        if (i == nullptr) throw py::error_already_set();
        cached_ints.push_back(i);
        n_cached_ints = cached_ints.size();
    }
}

inline PyObject* none() { return Py_NewRef(Py_None); }
// An int (some thousand a game): inlined, one unsigned comparison with the cache's size.
inline PyObject* integer(long v) {
    if (static_cast<unsigned long>(v) < n_cached_ints)
        return Py_NewRef(cached_ints.data()[static_cast<std::size_t>(v)]);
    return PyLong_FromLong(v);
}
inline PyObject* optional(long v) { return v < 0 ? none() : integer(v); }
inline PyObject* text(const std::string& s) {
    return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
}

// A tuple of ``n`` ints read from ``values``.
template <class T>
inline PyObject* ints(const T* values, Py_ssize_t n) {
    PyObject* out = PyTuple_New(n);
    if (out == nullptr) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* v = integer(static_cast<long>(values[i]));
        if (v == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

// ((a, b), ...) from a flat list of ``n`` (even) ints.
inline PyObject* pairs(const std::int32_t* values, Py_ssize_t n) {
    PyObject* out = PyTuple_New(n / 2);
    if (out == nullptr) return nullptr;
    for (Py_ssize_t i = 0; i < n / 2; ++i) {
        PyObject* pair = ints(values + 2 * i, 2);
        if (pair == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

// A tuple of borrowed objects, each given a new reference.
inline PyObject* refs(const std::vector<py::object>& items, std::size_t start, std::size_t n) {
    PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(n));
    if (out == nullptr) return nullptr;
    for (std::size_t i = 0; i < n; ++i)
        PyTuple_SET_ITEM(out, static_cast<Py_ssize_t>(i), Py_NewRef(items[start + i].ptr()));
    return out;
}

// A frozen slotted dataclass of ``fields``, made here without its ``__init__``.
class SlotClass {
public:
    SlotClass(py::handle cls, std::initializer_list<const char*> fields) {
        if (!PyType_Check(cls.ptr())) throw py::type_error("GameBuilder: a class is needed");
        type_ = reinterpret_cast<PyTypeObject*>(cls.ptr());
        cls_ = py::reinterpret_borrow<py::object>(cls);
        const std::string name = type_->tp_name;
        // only the fields' slots, straight on object: none is left unset
        const auto size = static_cast<Py_ssize_t>(fields.size());
        if (type_->tp_base != &PyBaseObject_Type || type_->tp_new != PyBaseObject_Type.tp_new ||
            type_->tp_basicsize !=
                PyBaseObject_Type.tp_basicsize + size * static_cast<Py_ssize_t>(sizeof(PyObject*)))
            throw py::type_error("GameBuilder: " + name + " is not a plain slotted class");
        py::object slots = cls.attr("__slots__");
        if (!PyTuple_Check(slots.ptr()) || PyTuple_GET_SIZE(slots.ptr()) != size)
            throw py::type_error("GameBuilder: " + name + " fields changed");
        Py_ssize_t i = 0;
        for (const char* field : fields) {
            if (py::str(PyTuple_GET_ITEM(slots.ptr(), i++)).cast<std::string>() != field)
                throw py::type_error("GameBuilder: " + name + " fields changed");
            py::object d = cls.attr(field);
            if (Py_TYPE(d.ptr()) != &PyMemberDescr_Type || PyDescr_TYPE(d.ptr()) != type_)
                throw py::type_error("GameBuilder: not a slot: " + name + "." + field);
            const PyMemberDef* member = reinterpret_cast<PyMemberDescrObject*>(d.ptr())->d_member;
            if (member->type != T_OBJECT_EX || (member->flags & READONLY) != 0)
                throw py::type_error("GameBuilder: not a slot: " + name + "." + field);
            offsets_.push_back(member->offset);
        }
    }

    // A new object with ``values`` (new references, stolen) in field order.
    template <class... V>
    PyObject* make(V... values) const {
        PyObject* v[] = {values...};
        constexpr std::size_t n = sizeof...(V);
        if (n != offsets_.size()) throw std::logic_error("GameBuilder: wrong field count");
        PyObject* obj = type_->tp_alloc(type_, 0);
        bool ok = obj != nullptr;
        for (PyObject* x : v) ok = ok && x != nullptr;
        if (!ok) {
            Py_XDECREF(obj);
            for (PyObject* x : v) Py_XDECREF(x);
            throw py::error_already_set();
        }
        for (std::size_t i = 0; i < n; ++i)
            *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + offsets_[i]) = v[i];
        return obj;
    }

    PyTypeObject* type() const { return type_; }

private:
    PyTypeObject* type_ = nullptr;
    py::object cls_;  // keeps the class alive
    std::vector<Py_ssize_t> offsets_;
};

// Strings as Python objects, one each, checked to be ``str``.
inline std::vector<py::object> strs(const py::sequence& items, std::size_t n, const char* what) {
    if (items.size() != n) throw py::value_error(std::string("GameBuilder: ") + what);
    std::vector<py::object> out;
    for (py::handle item : items) {
        if (!PyUnicode_Check(item.ptr())) throw py::type_error(std::string("GameBuilder: ") + what);
        out.push_back(py::reinterpret_borrow<py::object>(item));
    }
    return out;
}

inline py::object ref_or_none(const GameTables& g, std::int32_t ref) {
    if (ref < 0) return py::none();
    return py::str(g.strings[static_cast<std::size_t>(ref)]);
}

inline int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// ``urllib.parse.unquote(s)``: for ASCII text (all the reader accepts) a '%' and two
// hex digits are a byte, any other '%' stays, and the bytes are decoded as UTF-8
// with errors="replace"; other text is left to ``unquote`` itself.
inline PyObject* unquoted(std::string_view s, PyObject* unquote) {
    bool ascii = true;
    for (char c : s) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    if (!ascii) {
        PyObject* raw = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
        if (raw == nullptr) return nullptr;
        PyObject* out = PyObject_CallOneArg(unquote, raw);
        Py_DECREF(raw);
        return out;
    }
    std::string bytes;
    bytes.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const int high = s[i] == '%' && i + 2 < s.size() ? hex_digit(s[i + 1]) : -1;
        const int low = high >= 0 ? hex_digit(s[i + 2]) : -1;
        if (low >= 0) {
            bytes.push_back(static_cast<char>(16 * high + low));
            i += 2;
        } else {
            bytes.push_back(s[i]);
        }
    }
    return PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "replace");
}

// ``value.split(",")`` of a string of the tables (-1: None, an empty list), each part
// made by ``convert`` (new reference from a str part, stealing it; null on error).
template <class F>
py::list split(const GameTables& g, std::int32_t ref, F convert) {
    py::list out;
    if (ref < 0) return out;
    const std::string_view value = g.strings[std::size_t(ref)];
    std::size_t start = 0;
    while (true) {
        const std::size_t end = std::min(value.find(',', start), value.size());
        const std::string_view part = value.substr(start, end - start);
        PyObject* str = PyUnicode_DecodeUTF8(part.data(), static_cast<Py_ssize_t>(part.size()),
                                             nullptr);
        py::object item = own(str == nullptr ? nullptr : convert(str));
        if (PyList_Append(out.ptr(), item.ptr()) < 0) throw py::error_already_set();
        if (end == value.size()) return out;
        start = end + 1;
    }
}

inline PyObject* keep(PyObject* str) { return str; }
inline PyObject* to_int(PyObject* str) {
    PyObject* v = PyLong_FromUnicodeObject(str, 10);  // int(str)
    Py_DECREF(str);
    return v;
}
inline PyObject* to_float(PyObject* str) {
    PyObject* v = PyFloat_FromString(str);  // float(str)
    Py_DECREF(str);
    return v;
}

// ``values[i]`` if there is one, else None (a new reference).
inline PyObject* nth(const py::list& values, Py_ssize_t i) {
    return i < PyList_GET_SIZE(values.ptr()) ? Py_NewRef(PyList_GET_ITEM(values.ptr(), i)) : none();
}

inline void check(bool ok, const char* what) {
    if (!ok) throw py::value_error(std::string("GameBuilder: inconsistent tables: ") + what);
}

}  // namespace replay_audit::core::mjlog::build_values

namespace replay_audit::core {

// The Draw and Discard classes a HandEvents makes its lazy events of (hand_events.hpp),
// as the builder makes them: shared by the builder and every HandEvents it made, so a
// hand kept past its builder still makes its events.
struct LazyClasses {
    mjlog::build_values::SlotClass draw, discard;
};

}  // namespace replay_audit::core
