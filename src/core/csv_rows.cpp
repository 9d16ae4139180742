// A chunk's CSV rows in one buffer (csv_rows.hpp): what csv.writer(f, lineterminator="\n")
// writes for them, byte for byte.
#include "csv_rows.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace py = pybind11;

namespace replay_audit::core {
namespace {

enum Kind : long { kNull = 0, kPlain = 1, kFloat = 2 };

// The writer of one chunk: the buffer, and how a field is quoted.
struct CsvOut {
    std::string out;
    bool quote_cr = false;
    const char* errors = "strict";

    // A text field as QUOTE_MINIMAL writes it: quoted where it holds a comma, a quote or
    // a newline (or a \r, where the csv module quotes that too), its quotes doubled.
    void text(std::string_view s) {
        bool quote = false;
        for (const char c : s) {
            if (c == ',' || c == '"' || c == '\n' || (c == '\r' && quote_cr)) {
                quote = true;
                break;
            }
        }
        if (!quote) {
            out.append(s);
            return;
        }
        out.push_back('"');
        for (const char c : s) {
            if (c == '"') out.push_back('"');
            out.push_back(c);
        }
        out.push_back('"');
    }

    // A str's UTF-8 as a field; a str strict UTF-8 refuses (a lone surrogate) through the
    // error handler the caller chose, as the file's encoder would take it.
    void str(PyObject* v) {
        if (PyUnicode_IS_ASCII(v)) {
            text(std::string_view(static_cast<const char*>(PyUnicode_DATA(v)),
                                  static_cast<std::size_t>(PyUnicode_GET_LENGTH(v))));
            return;
        }
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(v, &size);
        if (data != nullptr) {
            text(std::string_view(data, static_cast<std::size_t>(size)));
            return;
        }
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) throw py::error_already_set();
        PyErr_Clear();
        PyObject* b = PyUnicode_AsEncodedString(v, "utf-8", errors);
        if (b == nullptr) throw py::error_already_set();
        const auto held = py::reinterpret_steal<py::object>(b);
        text(std::string_view(PyBytes_AS_STRING(b), static_cast<std::size_t>(PyBytes_GET_SIZE(b))));
    }

    // A float's repr (float_repr's own formatting: shortest round trip, ".0" added).
    void real(double d) {
        char* s = PyOS_double_to_string(d, 'r', 0, Py_DTSF_ADD_DOT_0, nullptr);
        if (s == nullptr) throw py::error_already_set();
        out.append(s);
        PyMem_Free(s);
    }

    // Any other object: as the csv module takes it (a float's repr, else its str).
    void object(PyObject* v) {
        PyObject* s = PyFloat_Check(v) ? PyObject_Repr(v) : PyObject_Str(v);
        if (s == nullptr) throw py::error_already_set();
        const auto held = py::reinterpret_steal<py::object>(s);
        str(s);
    }

    // A PLAIN cell; false where it wrote nothing (a gap, an empty str).
    void plain(PyObject* v) {
        if (v == Py_None) return;
        if (PyUnicode_CheckExact(v)) {
            str(v);
        } else if (v == Py_True) {
            out.append("True");
        } else if (v == Py_False) {
            out.append("False");
        } else if (PyLong_CheckExact(v)) {
            int overflow = 0;
            const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow != 0) {
                object(v);
                return;
            }
            if (x == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();
            char buf[24];
            const auto r = std::to_chars(buf, buf + sizeof buf, x);
            out.append(buf, r.ptr);
        } else if (PyFloat_CheckExact(v)) {
            real(PyFloat_AS_DOUBLE(v));
        } else {
            object(v);
        }
    }

    // A FLOAT cell: float(v)'s repr, a gap and NaN empty.
    void as_float(PyObject* v) {
        if (v == Py_None) return;
        double d = 0;
        if (PyFloat_CheckExact(v)) {
            d = PyFloat_AS_DOUBLE(v);
        } else {
            PyObject* f = PyNumber_Float(v);
            if (f == nullptr) throw py::error_already_set();
            d = PyFloat_AS_DOUBLE(f);
            Py_DECREF(f);
        }
        if (std::isnan(d)) return;
        real(d);
    }

    void cell(PyObject* v, long kind) {
        if (kind == kPlain) {
            plain(v);
        } else if (kind == kFloat) {
            as_float(v);
        }
    }
};

py::bytes csv_rows(const py::list& columns, const py::list& kinds, const py::object& order,
                   bool quote_cr, const std::string& errors) {
    const std::size_t ncols = columns.size();
    if (kinds.size() != ncols) throw std::invalid_argument("one kind a column");
    std::vector<PyObject*> cols(ncols);
    std::vector<long> kind(ncols);
    Py_ssize_t n = -1;
    for (std::size_t c = 0; c < ncols; ++c) {
        PyObject* col = PyList_GET_ITEM(columns.ptr(), static_cast<Py_ssize_t>(c));
        if (!PyList_CheckExact(col)) throw std::invalid_argument("a column is a list");
        if (n < 0) n = PyList_GET_SIZE(col);
        if (PyList_GET_SIZE(col) != n) throw std::invalid_argument("columns of one length");
        cols[c] = col;
        kind[c] = py::cast<long>(kinds[c]);
        if (kind[c] < kNull || kind[c] > kFloat) throw std::invalid_argument("a kind is 0, 1 or 2");
    }
    if (n < 0) n = 0;
    std::vector<Py_ssize_t> rows;
    if (order.is_none()) {
        rows.resize(static_cast<std::size_t>(n));
        for (Py_ssize_t i = 0; i < n; ++i) rows[static_cast<std::size_t>(i)] = i;
    } else {
        const auto ord = py::cast<py::list>(order);
        rows.reserve(ord.size());
        for (const auto& o : ord) {
            const auto i = py::cast<Py_ssize_t>(o);
            if (i < 0 || i >= n) throw std::out_of_range("a row outside the columns");
            rows.push_back(i);
        }
    }
    CsvOut w;
    w.quote_cr = quote_cr;
    w.errors = errors.c_str();
    w.out.reserve(rows.size() * ncols * 8);
    for (const Py_ssize_t i : rows) {
        const std::size_t start = w.out.size();
        for (std::size_t c = 0; c < ncols; ++c) {
            if (c != 0) w.out.push_back(',');
            w.cell(PyList_GET_ITEM(cols[c], i), kind[c]);
        }
        if (ncols > 0 && w.out.size() == start) w.out.append("\"\"");  // a lone empty field
        w.out.push_back('\n');
    }
    return py::bytes(w.out);
}

// The types a column's values hold, as bits (1 None, 2 bool, 4 int, 8 float, 16 str), and
// its ints' least and greatest; None for a value of another type or an int past 64 bits.
py::object column_class(const py::handle& values) {
    if (!PyList_CheckExact(values.ptr())) return py::none();
    const Py_ssize_t n = PyList_GET_SIZE(values.ptr());
    long bits = 0;
    long long low = 0;
    long long high = 0;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* v = PyList_GET_ITEM(values.ptr(), i);
        if (v == Py_None) {
            bits |= 1;
        } else if (PyUnicode_CheckExact(v)) {
            bits |= 16;
        } else if (PyLong_CheckExact(v)) {
            int overflow = 0;
            const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow != 0) return py::none();
            if (x == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();
            if ((bits & 4) == 0) {
                low = high = x;
            } else {
                low = x < low ? x : low;
                high = x > high ? x : high;
            }
            bits |= 4;
        } else if (PyFloat_CheckExact(v)) {
            bits |= 8;
        } else if (PyBool_Check(v)) {
            bits |= 2;
        } else {
            return py::none();
        }
    }
    return py::make_tuple(bits, low, high);
}

}  // namespace

void def_csv_rows(py::module_& m) {
    m.def("column_class", &column_class, py::arg("values"),
          "(type bits, least int, greatest int) of a column's values, or None (csv_rows.hpp).");
    m.def("csv_rows", &csv_rows, py::arg("columns"), py::arg("kinds"), py::arg("order"),
          py::arg("quote_cr"), py::arg("errors"),
          "A chunk's CSV rows as csv.writer(f, lineterminator='\\n') writes them (csv_rows.hpp).");
}

}  // namespace replay_audit::core
