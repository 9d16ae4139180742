// A part's rows of one table taken file by file (part_rows.hpp).  Plain CPython API under a
// pybind11 class: keys must be exact str, so comparing them runs no Python code, and the
// value of each cell is looked at once, as its row is taken apart.
#include "part_rows.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "codec.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {

constexpr std::size_t kMaxSequences = 64;  // more distinct key sequences: Python does it

// Two exact str keys equal (the identity test first: rows built from one template share
// their key objects).
bool same_key(PyObject* a, PyObject* b) {
    if (a == b) return true;
    return PyUnicode_GET_LENGTH(a) == PyUnicode_GET_LENGTH(b) && PyUnicode_Compare(a, b) == 0;
}

// One key sequence of the rows: its keys in order and each key's column.
struct Sequence {
    std::vector<py::object> keys;
    std::vector<std::size_t> column;
};

// One column's Arrow buffers, grown row by row.  It gives up (``kind`` -1) at the first
// value not of the column's one plain kind, or that column_buffers would decline; the
// values are then gathered again for Python.
struct Column {
    int kind = 0;  // 0: only None so far, 1-4: the plain kind, -1: Python's path
    std::size_t values = 0;  // not None
    std::size_t filled = 0;  // string offsets written up to this row
    std::vector<unsigned char> valid;
    std::vector<unsigned char> bits;  // bool
    std::vector<std::uint64_t> words;  // int64 or float64
    std::vector<std::int32_t> offsets;  // str
    std::string text;

    void add(std::size_t r, PyObject* v) {
        if (v == Py_None || kind < 0) return;
        const int k = kind_of(v);
        if (kind == 0) {
            kind = k;
            if (k < 0) return;
        } else if (k != kind) {
            give_up();
            return;
        }
        const std::size_t byte = r >> 3;
        const auto bit = static_cast<unsigned char>(1 << (r & 7));
        if (k == 1) {
            if (bits.size() <= byte) grow(bits, byte);
            if (v == Py_True) bits[byte] |= bit;
        } else if (k == 2) {
            int overflow = 0;
            const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow != 0) {  // beyond 64 bits: Python stores it as JSON
                give_up();
                return;
            }
            if (words.size() <= r) grow(words, r);
            words[r] = static_cast<std::uint64_t>(x);
        } else if (k == 3) {
            const double x = PyFloat_AS_DOUBLE(v);
            if (words.size() <= r) grow(words, r);
            std::memcpy(&words[r], &x, sizeof x);
        } else {
            Py_ssize_t len = 0;
            const char* s = PyUnicode_AsUTF8AndSize(v, &len);
            if (s == nullptr) {  // a lone surrogate: pyarrow decides what happens
                PyErr_Clear();
                give_up();
                return;
            }
            fill_offsets(r);
            text.append(s, static_cast<std::size_t>(len));
            if (text.size() > INT32_MAX) {
                give_up();
                return;
            }
        }
        if (valid.size() <= byte) grow(valid, byte);
        valid[byte] |= bit;
        ++values;
    }

    // Offsets of the rows up to ``r`` written: a row without a string ends where the
    // last string ended.
    void fill_offsets(std::size_t r) {
        if (offsets.size() <= r) grow(offsets, r);
        const auto end = static_cast<std::int32_t>(text.size());
        for (; filled <= r; ++filled) offsets[filled] = end;
    }

    void give_up() {  // its buffers freed: the column is Python's now
        *this = Column();
        kind = -1;
    }

    // Room for index ``i`` and as many again (zeros): a vector grown one row at a time
    // would call into the library for every row.  result() cuts it to the rows' size.
    template <class T>
    static void grow(std::vector<T>& v, std::size_t i) {
        v.resize(std::max<std::size_t>(2 * (i + 1), 64));
    }

    // The column as finish() gives it for ``n`` rows; None for Python's path.
    py::object result(std::size_t n) {
        if (kind == 0) return py::int_(0);
        if (kind < 0) return py::none();
        const std::size_t bitmap = (n + 7) / 8;
        py::object validity = py::none(), data, offs = py::none();
        if (values < n) {
            valid.resize(bitmap);
            validity = bytes(valid.data(), bitmap);
        }
        if (kind == 1) {
            bits.resize(bitmap);
            data = bytes(bits.data(), bitmap);
        } else if (kind == 2 || kind == 3) {
            words.resize(n);
            data = bytes(words.data(), n * 8);
        } else {
            fill_offsets(n);
            data = bytes(text.data(), text.size());
            offs = bytes(offsets.data(), (n + 1) * 4);
        }
        return py::make_tuple(kind, validity, n - values, data, offs);
    }

    static py::bytes bytes(const void* p, std::size_t size) {
        return {static_cast<const char*>(p), size};
    }
};

// One table's rows.
class TableRows {
public:
    TableRows() = default;
    TableRows(const TableRows&) = delete;
    TableRows& operator=(const TableRows&) = delete;
    ~TableRows() {
        for (PyObject* v : values_) Py_DECREF(v);
    }

    bool add(PyObject* rows, py::handle source) {
        if (!PyList_CheckExact(rows) && !PyTuple_CheckExact(rows)) return false;
        const Py_ssize_t k = PySequence_Fast_GET_SIZE(rows);
        PyObject** items = PySequence_Fast_ITEMS(rows);
        std::size_t cells = 0;
        for (Py_ssize_t i = 0; i < k; ++i) {
            if (!PyDict_CheckExact(items[i])) return false;
            cells += static_cast<std::size_t>(PyDict_GET_SIZE(items[i]));
        }
        if (values_.capacity() < values_.size() + cells) {  // room for the file's cells at once
            values_.reserve(std::max(2 * values_.capacity(), values_.size() + cells));
        }
        // every row matched to its key sequence first, so a decline takes nothing
        const std::size_t seqs0 = seqs_.size(), names0 = names_.size();
        const std::size_t values0 = values_.size(), rows0 = row_seq_.size();
        for (Py_ssize_t i = 0; i < k; ++i) {
            const std::size_t s = match(items[i]);
            if (s == kDeclined) {
                seqs_.resize(seqs0);
                names_.resize(names0);
                values_.resize(values0);
                row_seq_.resize(rows0);
                last_ = 0;
                return false;
            }
            row_seq_.push_back(static_cast<std::uint32_t>(s));
        }
        // then the values taken (owned: a column's values go back to Python if it gives
        // up) and put in their columns
        for (std::size_t i = values0; i < values_.size(); ++i) Py_INCREF(values_[i]);
        if (columns_.size() < names_.size()) columns_.resize(names_.size());
        Column* columns = columns_.data();
        PyObject* const* value = values_.data() + values0;
        for (std::size_t r = rows0; r < row_seq_.size(); ++r) {
            for (std::size_t j : seqs_[row_seq_[r]].column) columns[j].add(r, *value++);
        }
        if (k > 0) sources_.emplace_back(py::reinterpret_borrow<py::object>(source), k);
        return true;
    }

    py::tuple finish() {
        const std::size_t n = row_seq_.size(), m = names_.size();
        py::list names(m), columns(m), lacks(n), sources(sources_.size());
        for (std::size_t j = 0; j < m; ++j) names[j] = names_[j];
        columns_.resize(m);
        for (std::size_t j = 0; j < m; ++j) {
            py::object col = columns_[j].result(n);
            columns_[j] = Column();  // its buffers are copied: free them now
            columns[j] = col.is_none() ? values_of(j) : col;
        }
        // per sequence the names it lacks (None when it has them all), shared by its rows
        std::vector<py::object> lacking;
        for (const Sequence& seq : seqs_) {
            if (seq.keys.size() == m) {
                lacking.push_back(py::none());
                continue;
            }
            std::vector<char> has(m, 0);
            for (std::size_t j : seq.column) has[j] = 1;
            py::list names_lacked;
            for (std::size_t j = 0; j < m; ++j) {
                if (!has[j]) names_lacked.append(names_[j]);
            }
            lacking.push_back(std::move(names_lacked));
        }
        for (std::size_t r = 0; r < n; ++r) lacks[r] = lacking[row_seq_[r]];
        for (std::size_t i = 0; i < sources_.size(); ++i) {
            sources[i] = py::make_tuple(sources_[i].first, sources_[i].second);
        }
        return py::make_tuple(names, columns, lacks, sources);
    }

    py::tuple rows() const {
        py::list out(row_seq_.size());
        py::list sources;
        PyObject* const* value = values_.data();
        for (std::size_t r = 0; r < row_seq_.size(); ++r) {
            const Sequence& seq = seqs_[row_seq_[r]];
            py::dict row;
            for (const py::object& key : seq.keys) row[key] = py::reinterpret_borrow<py::object>(*value++);
            out[r] = std::move(row);
        }
        for (const auto& [source, count] : sources_) {
            for (std::size_t i = 0; i < count; ++i) sources.append(source);
        }
        return py::make_tuple(out, sources);
    }

private:
    static constexpr std::size_t kDeclined = ~std::size_t{0};

    // The row's sequence (a new one if need be), its values appended to values_ (not
    // owned yet); kDeclined for a key not an exact str or one sequence too many.
    std::size_t match(PyObject* row) {
        const std::size_t base = values_.size();
        values_.resize(base + static_cast<std::size_t>(PyDict_GET_SIZE(row)));
        PyObject** out = values_.data() + base;
        if (!seqs_.empty() && matches(row, seqs_[last_], out)) return last_;
        for (std::size_t s = 0; s < seqs_.size(); ++s) {
            if (s != last_ && matches(row, seqs_[s], out)) return last_ = s;
        }
        if (seqs_.size() == kMaxSequences) return kDeclined;
        Sequence seq;
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(row, &pos, &key, &value)) {
            if (!PyUnicode_CheckExact(key)) return kDeclined;
            std::size_t j = 0;
            while (j < names_.size() && !same_key(names_[j].ptr(), key)) ++j;
            if (j == names_.size()) names_.push_back(py::reinterpret_borrow<py::object>(key));
            out[seq.keys.size()] = value;
            seq.keys.push_back(py::reinterpret_borrow<py::object>(key));
            seq.column.push_back(j);
        }
        seqs_.push_back(std::move(seq));
        return last_ = seqs_.size() - 1;
    }

    // Whether ``row``'s keys, in order, are ``seq``'s; its values written to ``out``.
    static bool matches(PyObject* row, const Sequence& seq, PyObject** out) {
        if (PyDict_GET_SIZE(row) != static_cast<Py_ssize_t>(seq.keys.size())) return false;
        Py_ssize_t pos = 0, i = 0;
        PyObject *key, *value;
        while (PyDict_Next(row, &pos, &key, &value)) {
            PyObject* want = seq.keys[static_cast<std::size_t>(i)].ptr();
            if (key != want && !(PyUnicode_CheckExact(key) && same_key(key, want))) return false;
            out[i++] = value;
        }
        return true;
    }

    // Column ``j``'s values (None where a row lacks it), for Python's path.
    py::list values_of(std::size_t j) const {
        py::list out(row_seq_.size());
        std::size_t start = 0;
        for (std::size_t r = 0; r < row_seq_.size(); ++r) {
            const Sequence& seq = seqs_[row_seq_[r]];
            PyObject* v = Py_None;
            for (std::size_t i = 0; i < seq.column.size(); ++i) {
                if (seq.column[i] == j) v = values_[start + i];
            }
            out[r] = py::reinterpret_borrow<py::object>(v);
            start += seq.keys.size();
        }
        return out;
    }

    std::vector<Sequence> seqs_;
    std::vector<py::object> names_;
    std::vector<std::uint32_t> row_seq_;
    std::vector<PyObject*> values_;  // every row's values in its order, owned once added
    std::vector<std::pair<py::object, std::size_t>> sources_;
    std::vector<Column> columns_;
    std::size_t last_ = 0;
};

// Every table's rows of a part: one call per file (a call through pybind11 costs about
// a microsecond and a half, six tables a file).
class PartRows {
public:
    explicit PartRows(std::size_t tables) : tables_(tables), declined_(tables, false) {
        if (tables > 64) throw py::value_error("PartRows: at most 64 tables");
    }

    // The file's rows of each table (a list or tuple with one row container per table);
    // the tables that declined them, as bits (1 << table).  A table that declined once
    // is left to Python: it takes nothing more.
    std::uint64_t add(py::handle per_table, py::handle source) {
        PyObject* all = per_table.ptr();
        const std::size_t n = tables_.size();
        if ((!PyList_CheckExact(all) && !PyTuple_CheckExact(all)) ||
            PySequence_Fast_GET_SIZE(all) != static_cast<Py_ssize_t>(n) ||
            !PyUnicode_CheckExact(source.ptr())) {
            throw py::type_error("PartRows.add(rows per table, source: str)");
        }
        PyObject** items = PySequence_Fast_ITEMS(all);
        std::uint64_t declined = 0;
        for (std::size_t t = 0; t < n; ++t) {
            if (declined_[t]) continue;
            if (!tables_[t].add(items[t], source)) {
                declined_[t] = true;
                declined |= std::uint64_t{1} << t;
            }
        }
        return declined;
    }

    py::tuple finish(std::size_t t) { return table(t).finish(); }
    py::tuple rows(std::size_t t) { return table(t).rows(); }

private:
    TableRows& table(std::size_t t) {
        if (t >= tables_.size()) throw py::index_error("no such table");
        return tables_[t];
    }

    std::vector<TableRows> tables_;
    std::vector<bool> declined_;
};

}  // namespace

void def_part_rows(py::module_& m) {
    py::class_<PartRows>(m, "PartRows",
                         "Every table's rows of a part, taken file by file (part_rows.hpp).")
        .def(py::init<std::size_t>(), py::arg("tables"))
        .def("add", &PartRows::add,
             "Append one file's rows of every table; the tables that declined them, as bits.")
        .def("finish", &PartRows::finish,
             "(names, columns, lacks, sources) of one table's rows (part_rows.hpp).")
        .def("rows", &PartRows::rows, "One table's (rows, sources) so far, for Python's path.");
}

}  // namespace replay_audit::core
