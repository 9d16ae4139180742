// The row codec's per-cell work (codec.hpp): a chunk's rows are about a million cells per
// 500 files, and taking them apart, checking each column's type and handing pyarrow a
// Python list cost the runner more than the Parquet encoding itself.  Plain CPython API
// (METH_FASTCALL), no Python code run: keys must be exact str, so comparing them is safe.
#include "codec.hpp"

#include <cstdint>
#include <new>
#include <vector>

#include "arrow_column.hpp"

namespace replay_audit::core {

namespace {

// An owned reference, released unless handed on with release().
struct Ref {
    PyObject* p = nullptr;
    Ref() = default;
    explicit Ref(PyObject* o) : p(o) {}
    Ref(const Ref&) = delete;
    Ref& operator=(const Ref&) = delete;
    Ref(Ref&& o) noexcept : p(o.release()) {}
    Ref& operator=(Ref&&) = delete;
    ~Ref() { Py_XDECREF(p); }
    PyObject* release() {
        PyObject* o = p;
        p = nullptr;
        return o;
    }
};

PyObject* declined() { Py_RETURN_NONE; }

// One key sequence of the rows: its keys in order (borrowed from the first row that has
// it, alive as long as the rows), each key's column, and the keys it lacks.
struct RowsSequence {
    std::vector<PyObject*> keys;
    std::vector<Py_ssize_t> column;
    std::vector<Py_ssize_t> lacking;
    Ref lacks;  // the shared list of lacking names, or None
};

// Whether ``row``'s keys, in order, are ``seq``'s; its values written to ``out`` (room
// for the row's size) on the way, so the dict is walked once.
bool matches(PyObject* row, const RowsSequence& seq, PyObject** out) {
    if (PyDict_GET_SIZE(row) != static_cast<Py_ssize_t>(seq.keys.size())) return false;
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    while (PyDict_Next(row, &pos, &key, &value)) {
        PyObject* want = seq.keys[static_cast<std::size_t>(i)];
        if (key != want && !(PyUnicode_CheckExact(key) && same_key(key, want))) return false;
        out[i++] = value;
    }
    return true;
}

// The index of ``key`` among ``names``, or -1.
Py_ssize_t find_name(const std::vector<PyObject*>& names, PyObject* key) {
    for (std::size_t j = 0; j < names.size(); ++j) {
        if (same_key(names[j], key)) return static_cast<Py_ssize_t>(j);
    }
    return -1;
}

}  // namespace

PyObject* row_columns(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "row_columns(rows) takes one argument");
        return nullptr;
    }
    PyObject* rows = args[0];
    if (!PyList_CheckExact(rows) && !PyTuple_CheckExact(rows)) return declined();
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    PyObject** items = PySequence_Fast_ITEMS(rows);
    try {
        // pass 1: each row's key sequence and values, and the names in the order they first
        // appear
        std::vector<RowsSequence> seqs;
        std::vector<PyObject*> names;  // borrowed from the rows
        std::vector<std::uint32_t> row_seq(static_cast<std::size_t>(n));
        std::vector<PyObject*> flat;  // every row's values in its order (borrowed)
        if (n > 0 && PyDict_CheckExact(items[0])) {
            flat.reserve(static_cast<std::size_t>(n * PyDict_GET_SIZE(items[0])));
        }
        std::size_t last = 0;
        for (Py_ssize_t r = 0; r < n; ++r) {
            PyObject* row = items[r];
            if (!PyDict_CheckExact(row)) return declined();
            const std::size_t base = flat.size();
            flat.resize(base + static_cast<std::size_t>(PyDict_GET_SIZE(row)));
            PyObject** out = flat.data() + base;
            std::size_t s = seqs.size();
            if (!seqs.empty() && matches(row, seqs[last], out)) {
                s = last;
            } else {
                for (std::size_t k = 0; k < seqs.size(); ++k) {
                    if (k != last && matches(row, seqs[k], out)) {
                        s = k;
                        break;
                    }
                }
            }
            if (s == seqs.size()) {  // a new key sequence
                if (seqs.size() == kMaxSequences) return declined();
                RowsSequence seq;
                Py_ssize_t pos = 0;
                PyObject *key, *value;
                while (PyDict_Next(row, &pos, &key, &value)) {
                    if (!PyUnicode_CheckExact(key)) return declined();
                    Py_ssize_t j = find_name(names, key);
                    if (j < 0) {
                        j = static_cast<Py_ssize_t>(names.size());
                        names.push_back(key);
                    }
                    out[seq.keys.size()] = value;
                    seq.keys.push_back(key);
                    seq.column.push_back(j);
                }
                seqs.push_back(std::move(seq));
            }
            row_seq[static_cast<std::size_t>(r)] = static_cast<std::uint32_t>(s);
            last = s;
        }
        const std::size_t m = names.size();
        Ref name_list(PyList_New(static_cast<Py_ssize_t>(m)));
        if (name_list.p == nullptr) return nullptr;
        for (std::size_t j = 0; j < m; ++j) {
            Py_INCREF(names[j]);
            PyList_SET_ITEM(name_list.p, static_cast<Py_ssize_t>(j), names[j]);
        }
        // each sequence's lacking names: None when it has them all (its keys are distinct)
        for (RowsSequence& seq : seqs) {
            if (seq.keys.size() == m) {
                Py_INCREF(Py_None);
                seq.lacks.p = Py_None;
                continue;
            }
            std::vector<char> has(m, 0);
            for (Py_ssize_t j : seq.column) has[static_cast<std::size_t>(j)] = 1;
            for (std::size_t j = 0; j < m; ++j) {
                if (!has[j]) seq.lacking.push_back(static_cast<Py_ssize_t>(j));
            }
            seq.lacks.p = PyList_New(static_cast<Py_ssize_t>(seq.lacking.size()));
            if (seq.lacks.p == nullptr) return nullptr;
            for (std::size_t i = 0; i < seq.lacking.size(); ++i) {
                PyObject* name = names[static_cast<std::size_t>(seq.lacking[i])];
                Py_INCREF(name);
                PyList_SET_ITEM(seq.lacks.p, static_cast<Py_ssize_t>(i), name);
            }
        }
        // pass 2: the cells, from the values in row order
        Ref columns(PyList_New(static_cast<Py_ssize_t>(m)));
        if (columns.p == nullptr) return nullptr;
        std::vector<PyObject**> cells(m);
        for (std::size_t j = 0; j < m; ++j) {
            PyObject* col = PyList_New(n);
            if (col == nullptr) return nullptr;
            PyList_SET_ITEM(columns.p, static_cast<Py_ssize_t>(j), col);
            cells[j] = reinterpret_cast<PyListObject*>(col)->ob_item;
        }
        Ref lacks(PyList_New(n));
        if (lacks.p == nullptr) return nullptr;
        PyObject* const* value = flat.data();
        for (Py_ssize_t r = 0; r < n; ++r) {
            const RowsSequence& seq = seqs[row_seq[static_cast<std::size_t>(r)]];
            for (Py_ssize_t j : seq.column) {
                Py_INCREF(*value);
                cells[static_cast<std::size_t>(j)][r] = *value++;
            }
            for (Py_ssize_t j : seq.lacking) {
                Py_INCREF(Py_None);
                cells[static_cast<std::size_t>(j)][r] = Py_None;
            }
            Py_INCREF(seq.lacks.p);
            PyList_SET_ITEM(lacks.p, r, seq.lacks.p);
        }
        return PyTuple_Pack(3, name_list.p, columns.p, lacks.p);
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
}

namespace {

int kind_of_all(PyObject* const* items, Py_ssize_t n) {
    PyTypeObject* type = nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* v = items[i];
        if (v == Py_None) continue;
        if (type == nullptr) {
            type = Py_TYPE(v);
        } else if (Py_TYPE(v) != type) {
            return -1;
        }
    }
    if (type == nullptr) return 0;
    for (Py_ssize_t i = 0; i < n; ++i) {
        if (items[i] != Py_None) return kind_of(items[i]);
    }
    return 0;  // not reached
}

}  // namespace

PyObject* plain_kind(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "plain_kind(values) takes one argument");
        return nullptr;
    }
    PyObject* values = args[0];
    if (!PyList_CheckExact(values) && !PyTuple_CheckExact(values)) return declined();
    return PyLong_FromLong(
        kind_of_all(PySequence_Fast_ITEMS(values), PySequence_Fast_GET_SIZE(values)));
}

PyObject* column_buffers(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "column_buffers(values, kind) takes two arguments");
        return nullptr;
    }
    PyObject* values = args[0];
    const long kind = PyLong_AsLong(args[1]);
    if (kind == -1 && PyErr_Occurred()) return nullptr;
    if (kind < 1 || kind > 4) return declined();
    if (!PyList_CheckExact(values) && !PyTuple_CheckExact(values)) return declined();
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(values);
    PyObject* const* items = PySequence_Fast_ITEMS(values);
    try {
        ArrowColumn column(static_cast<int>(kind));  // (arrow_column.hpp: shared with part_rows.cpp)
        column.reserve(static_cast<std::size_t>(n));
        for (Py_ssize_t i = 0; i < n; ++i) {
            if (!column.add(static_cast<std::size_t>(i), items[i])) return declined();
        }
        return column.buffers(static_cast<std::size_t>(n));
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
}

}  // namespace replay_audit::core
