// The Arrow buffers of one plain column (bool, int64, float64, string), grown value by
// value: the one copy of the validity bitmap, the bit, int and float packing and the string
// offsets that the row codec's _core.column_buffers (codec.cpp, a whole column at once) and
// the runner's part rows (part_rows.cpp, cell by cell as each file's rows come) both give.
// They used to write it twice, and the two had to agree byte for byte (both are held equal
// to codec.rows_to_table: tests/test_core_codec.py, tests/test_core_codec_part_rows.py).
#pragma once

#include <Python.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "codec.hpp"

namespace replay_audit::core {

class ArrowColumn {
public:
    // ``kind`` 1-4 (codec._KINDS) when the column's kind is known (column_buffers), 0 to
    // take it from the first value that is not None.
    explicit ArrowColumn(int kind = 0) : kind_(kind), given_(kind) {}

    int kind() const { return kind_; }

    // Room for ``n`` rows at once, when their number is known.
    void reserve(std::size_t n) {
        const std::size_t bitmap = (n + 7) / 8;
        valid_.resize(std::max(valid_.size(), bitmap));
        if (kind_ == 1) bits_.resize(std::max(bits_.size(), bitmap));
        if (kind_ == 2 || kind_ == 3) words_.resize(std::max(words_.size(), n));
        if (kind_ == 4) offsets_.resize(std::max(offsets_.size(), n + 1));
    }

    // Row ``r``'s value (rows come in order; a row never added is null).  False, and
    // nothing of the value kept, where the buffers cannot hold it: not of the column's
    // kind (or, as its first value, of no plain kind: kind() then stays 0), an int
    // beyond 64 bits, a str UTF-8 cannot encode, more than 2 GiB of text.  Inlined: it
    // runs once a cell (a few million a run), and as a call it was most of a row's time.
    __attribute__((always_inline)) bool add(std::size_t r, PyObject* v) {
        if (v == Py_None) return true;
        const int k = kind_of(v);
        if (k != kind_) {
            if (kind_ != 0 || k < 0) return false;
            kind_ = k;
        }
        const std::size_t byte = r >> 3;
        const auto bit = static_cast<unsigned char>(1 << (r & 7));
        if (k == 1) {
            if (bits_.size() <= byte) grow(bits_, byte);
            if (v == Py_True) bits_[byte] |= bit;
        } else if (k == 2) {
            long long x;
            if (!small_int(v, x)) {
                int overflow = 0;
                x = PyLong_AsLongLongAndOverflow(v, &overflow);
                if (overflow != 0) return false;  // beyond 64 bits: Python stores it as JSON
            }
            if (words_.size() <= r) grow(words_, r);
            words_[r] = static_cast<std::uint64_t>(x);
        } else if (k == 3) {
            const double x = PyFloat_AS_DOUBLE(v);
            if (words_.size() <= r) grow(words_, r);
            std::memcpy(&words_[r], &x, sizeof x);
        } else if (!add_text(r, v)) {
            return false;
        }
        if (valid_.size() <= byte) grow(valid_, byte);
        valid_[byte] |= bit;
        ++values_;
        return true;
    }

    // Row ``r``'s value as added (a new reference; None where null): how a column that
    // gives up part-way hands its earlier rows back to Python, equal and of the same type.
    PyObject* value(std::size_t r) const {
        if (kind_ == 0 || (r >> 3) >= valid_.size() || !(valid_[r >> 3] >> (r & 7) & 1)) {
            Py_RETURN_NONE;
        }
        if (kind_ == 1) return PyBool_FromLong(bits_[r >> 3] >> (r & 7) & 1);
        if (kind_ == 2) return PyLong_FromLongLong(static_cast<long long>(words_[r]));
        if (kind_ == 3) {
            double x;
            std::memcpy(&x, &words_[r], sizeof x);
            return PyFloat_FromDouble(x);
        }
        const std::size_t start = static_cast<std::size_t>(offsets_[r]);
        const std::size_t end = r + 1 < filled_ ? static_cast<std::size_t>(offsets_[r + 1]) : text_.size();
        return PyUnicode_DecodeUTF8(text_.data() + start, static_cast<Py_ssize_t>(end - start), nullptr);
    }

    // The rows from ``n`` on dropped, as if they had never been added (zeros where they
    // were, the kind forgotten when no value is left): a part's rows of a file rolled back
    // (part_rows.cpp), so the buffers stay byte for byte those of the rows kept.
    void truncate(std::size_t n) {
        for (std::size_t r = n; r < valid_.size() * 8; ++r) {
            const std::size_t byte = r >> 3;
            const auto bit = static_cast<unsigned char>(1 << (r & 7));
            if (valid_[byte] & bit) --values_;
        }
        if (values_ == 0) {
            *this = ArrowColumn(given_);
            return;
        }
        clear_from(valid_, n);
        clear_from(bits_, n);
        if (words_.size() > n) std::fill(words_.begin() + n, words_.end(), 0);
        if (filled_ > n) {
            text_.resize(static_cast<std::size_t>(offsets_[n]));
            std::fill(offsets_.begin() + n, offsets_.end(), 0);
            filled_ = n;
        }
    }

    // The buffers of ``n`` rows, for pyarrow.Array.from_buffers: ``(validity or None, null
    // count, data, offsets or None)`` as bytes (nullptr with the error set when out of
    // memory); the column's kind must be 1-4.  The column's own buffers are cut to size.
    PyObject* buffers(std::size_t n) {
        const std::size_t bitmap = (n + 7) / 8;
        PyObject *validity = Py_None, *data = nullptr, *offsets = Py_None;
        Py_INCREF(Py_None);
        Py_INCREF(Py_None);
        if (values_ < n) {
            valid_.resize(bitmap);
            Py_DECREF(validity);
            validity = bytes(valid_.data(), bitmap);
        }
        if (kind_ == 1) {
            bits_.resize(bitmap);
            data = bytes(bits_.data(), bitmap);
        } else if (kind_ == 2 || kind_ == 3) {
            words_.resize(n);
            data = bytes(words_.data(), n * 8);
        } else {
            fill_offsets(n);
            data = bytes(text_.data(), text_.size());
            Py_DECREF(offsets);
            offsets = bytes(offsets_.data(), (n + 1) * 4);
        }
        PyObject* nulls = PyLong_FromSize_t(n - values_);
        PyObject* out = nullptr;
        if (validity != nullptr && data != nullptr && offsets != nullptr && nulls != nullptr) {
            out = PyTuple_Pack(4, validity, nulls, data, offsets);
        }
        Py_XDECREF(validity);
        Py_XDECREF(nulls);
        Py_XDECREF(data);
        Py_XDECREF(offsets);
        return out;
    }

private:
    // An int of at most one of CPython's digits (nearly every cell) read inline, as
    // PyLong_AsLongLongAndOverflow would; false for a wider one (then that call reads it).
    static bool small_int(PyObject* v, long long& out) {
#if PY_VERSION_HEX >= 0x030C0000
        PyLongObject* x = reinterpret_cast<PyLongObject*>(v);
        if (!PyUnstable_Long_IsCompact(x)) return false;
        out = static_cast<long long>(PyUnstable_Long_CompactValue(x));
        return true;
#else
        const Py_ssize_t size = Py_SIZE(v);
        if (size < -1 || size > 1) return false;
        out = size * static_cast<long long>(reinterpret_cast<PyLongObject*>(v)->ob_digit[0]);
        return true;
#endif
    }

    // A str's UTF-8 appended as row ``r``'s text; false, nothing kept, where add() says.
    bool add_text(std::size_t r, PyObject* v) {
        Py_ssize_t len = 0;
        const char* s = PyUnicode_AsUTF8AndSize(v, &len);
        if (s == nullptr) {  // a lone surrogate: pyarrow decides what happens
            PyErr_Clear();
            return false;
        }
        if (text_.size() + static_cast<std::size_t>(len) > INT32_MAX) return false;
        fill_offsets(r);
        text_.append(s, static_cast<std::size_t>(len));
        return true;
    }

    // String offsets of the rows up to ``r`` written: a row without a string ends where
    // the last string ended.
    void fill_offsets(std::size_t r) {
        if (offsets_.size() <= r) grow(offsets_, r);
        const auto end = static_cast<std::int32_t>(text_.size());
        for (; filled_ <= r; ++filled_) offsets_[filled_] = end;
    }

    // Room for index ``i`` and as many again (zeros): a vector grown one row at a time
    // would call into the library for every row.  buffers() cuts it to the rows' size.
    template <class T>
    static void grow(std::vector<T>& v, std::size_t i) {
        v.resize(std::max<std::size_t>(2 * (i + 1), 64));
    }

    // The bits of rows ``n`` on cleared in a bitmap.
    static void clear_from(std::vector<unsigned char>& bitmap, std::size_t n) {
        const std::size_t byte = n >> 3;
        if (byte >= bitmap.size()) return;
        bitmap[byte] &= static_cast<unsigned char>((1u << (n & 7)) - 1);
        std::fill(bitmap.begin() + byte + 1, bitmap.end(), 0);
    }

    static PyObject* bytes(const void* p, std::size_t size) {
        return PyBytes_FromStringAndSize(static_cast<const char*>(p), static_cast<Py_ssize_t>(size));
    }

    int kind_;  // 0: only None so far, 1-4: the plain kind
    int given_;  // the kind the column was made with (truncate's fresh start)
    std::size_t values_ = 0;  // not None
    std::size_t filled_ = 0;  // string offsets written up to this row
    std::vector<unsigned char> valid_;
    std::vector<unsigned char> bits_;  // bool
    std::vector<std::uint64_t> words_;  // int64 or float64
    std::vector<std::int32_t> offsets_;  // str
    std::string text_;
};

}  // namespace replay_audit::core
