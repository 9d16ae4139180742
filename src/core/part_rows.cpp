// A part's rows of one table taken file by file (part_rows.hpp).  Plain CPython API under a
// pybind11 class: keys must be exact str, so comparing them runs no Python code, and the
// value of each cell is looked at once, as its row is taken apart, and packed into its
// column's Arrow buffers (arrow_column.hpp, the same code as codec.cpp's column_buffers).
#include "part_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "arrow_column.hpp"
#include "codec.hpp"  // kMaxSequences, same_key: the row codec's too
#include "py_errors.hpp"

namespace py = pybind11;

namespace replay_audit::core {

// The parts of a table (TableRows' fields): named, not anonymous, since a class of the
// namespace may not hold types of the file's own (GCC's -Wsubobject-linkage, where this
// file is included in a unity build); hidden, as facts_scan.hpp says why.
namespace part_rows_detail __attribute__((visibility("hidden"))) {

// One key sequence of a table's rows: its keys in order and each key's column.
struct TableSequence {
    std::vector<py::object> keys;
    std::vector<std::size_t> column;
};

// One column of a table: its Arrow buffers (arrow_column.hpp), grown as the rows come,
// until a value they cannot hold; from then on the values themselves, for Python's path
// (the earlier rows' values given back by the buffers, equal and of the same type).
struct Column {
    ArrowColumn buffers;
    bool python = false;
    std::size_t python_since = 0;  // the row that turned it to Python's path
    std::vector<py::object> objects;  // Python's path: row r's value (null: None)

    __attribute__((always_inline)) void add(std::size_t r, PyObject* v) {
        if (!python) {
            if (buffers.add(r, v)) return;
            to_python(r);
        }
        if (objects.size() <= r) objects.resize(std::max<std::size_t>(2 * (r + 1), 64));
        objects[r] = py::reinterpret_borrow<py::object>(v);
    }

    // Row ``r``'s value (a new reference).
    PyObject* value(std::size_t r) const {
        if (!python) return buffers.value(r);
        PyObject* v = r < objects.size() && objects[r] ? objects[r].ptr() : Py_None;
        Py_INCREF(v);
        return v;
    }

    // The column as finish() gives it for ``n`` rows: 0 (every value None), (kind, the
    // buffers), or the list of its values for Python's path.
    py::object result(std::size_t n) {
        if (!python && buffers.kind() == 0) return py::int_(0);
        if (!python) {
            py::tuple four = py::reinterpret_steal<py::tuple>(own(buffers.buffers(n)).release());
            return py::make_tuple(buffers.kind(), four[0], four[1], four[2], four[3]);
        }
        py::list out(n);
        for (std::size_t r = 0; r < n; ++r) {
            PyObject* v = r < objects.size() && objects[r] ? objects[r].ptr() : Py_None;
            Py_INCREF(v);
            PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(r), v);
        }
        return std::move(out);
    }

    // The rows from ``n`` on dropped (a file's rows rolled back): a column that turned to
    // Python's path at one of them goes back to its buffers, refilled with the earlier
    // rows' values (which they held before), so it is as if those rows never came.
    void truncate(std::size_t n) {
        if (!python) {
            buffers.truncate(n);
            return;
        }
        for (std::size_t r = n; r < objects.size(); ++r) objects[r] = py::object();
        if (python_since < n) return;
        ArrowColumn refilled;
        for (std::size_t r = 0; r < n; ++r) {
            if (!refilled.add(r, objects[r] ? objects[r].ptr() : Py_None)) return;  // (not reached)
        }
        buffers = std::move(refilled);
        objects.clear();
        python = false;
    }

private:
    // The rows before ``r`` taken back from the buffers (which are freed): the column is
    // Python's now.
    void to_python(std::size_t r) {
        objects.resize(std::max<std::size_t>(2 * (r + 1), 64));
        if (buffers.kind() != 0) {
            for (std::size_t i = 0; i < r; ++i) objects[i] = own(buffers.value(i));
        }
        buffers = ArrowColumn();
        python = true;
        python_since = r;
    }
};

}  // namespace part_rows_detail

// One table's rows.  Its cells are typed and packed as the file's rows come (the values
// are not kept: a file's values are freed with its rows, and only a column that gives up
// keeps its own from then on).
class TableRows {
    using TableSequence = part_rows_detail::TableSequence;
    using Column = part_rows_detail::Column;

public:
    // A key sequence for rows written cell by cell (add_cells): ``keys``, a tuple of exact
    // str, found among the table's or made; kNoSequence if a key is not an exact str or
    // the table has its 64 sequences.
    std::size_t sequence(PyObject* keys) {
        if (!PyTuple_CheckExact(keys)) return kNoSequence;
        const std::size_t size = static_cast<std::size_t>(PyTuple_GET_SIZE(keys));
        for (std::size_t s = 0; s < seqs_.size(); ++s) {
            const TableSequence& seq = seqs_[s];
            if (seq.keys.size() != size) continue;
            std::size_t i = 0;
            while (i < size && same_key(seq.keys[i].ptr(), PyTuple_GET_ITEM(keys, i))) ++i;
            if (i == size) return s;
        }
        if (seqs_.size() == kMaxSequences) return kNoSequence;
        for (std::size_t i = 0; i < size; ++i) {
            PyObject* key = PyTuple_GET_ITEM(keys, i);
            if (!PyUnicode_CheckExact(key)) return kNoSequence;
            for (std::size_t j = 0; j < i; ++j) {  // a key twice: no dict has it
                if (same_key(PyTuple_GET_ITEM(keys, j), key)) return kNoSequence;
            }
        }
        TableSequence seq;
        for (std::size_t i = 0; i < size; ++i) {
            PyObject* key = PyTuple_GET_ITEM(keys, i);
            std::size_t j = 0;
            while (j < names_.size() && !same_key(names_[j].ptr(), key)) ++j;
            if (j == names_.size()) names_.push_back(py::reinterpret_borrow<py::object>(key));
            seq.keys.push_back(py::reinterpret_borrow<py::object>(key));
            seq.column.push_back(j);
        }
        seqs_.push_back(std::move(seq));
        return seqs_.size() - 1;
    }

    // One row of sequence ``seq``, its values (borrowed) in the sequence's order: what
    // add() makes of a dict with those keys and values, without the dict.
    void add_cells(std::size_t seq, PyObject* const* values, PyObject* source) {
        const std::size_t r = row_seq_.size();
        if (columns_.size() < names_.size()) columns_.resize(names_.size());
        const TableSequence& s = seqs_[seq];
        row_seq_.push_back(static_cast<std::uint32_t>(seq));
        Column* columns = columns_.data();
        for (std::size_t i = 0; i < s.column.size(); ++i) columns[s.column[i]].add(r, values[i]);
        if (!sources_.empty() && sources_.back().first.ptr() == source) {
            ++sources_.back().second;
        } else {
            sources_.emplace_back(py::reinterpret_borrow<py::object>(source), 1);
        }
    }

    TableMark mark() const { return {row_seq_.size(), seqs_.size(), names_.size()}; }

    // Back to ``m``: the rows, key sequences and names added since dropped, as if they
    // had never come (a file whose rows failed part-way: part_rows.hpp).
    void truncate(const TableMark& m) {
        if (m.rows > row_seq_.size() || m.seqs > seqs_.size() || m.names > names_.size()) {
            throw py::value_error("PartRows.rollback: not a mark of this table");
        }
        const std::size_t drop = row_seq_.size() - m.rows;
        for (std::size_t left = drop; left > 0;) {
            auto& [source, count] = sources_.back();
            const std::size_t k = std::min(left, count);
            count -= k;
            left -= k;
            if (count == 0) sources_.pop_back();
        }
        row_seq_.resize(m.rows);
        seqs_.resize(m.seqs);
        names_.resize(m.names);
        if (columns_.size() > m.names) columns_.resize(m.names);
        for (Column& c : columns_) c.truncate(m.rows);
        last_ = 0;
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
        // every row matched to its key sequence first, so a decline takes nothing; the
        // file's values (borrowed: the caller holds the rows) gathered on the way
        const std::size_t seqs0 = seqs_.size(), names0 = names_.size(), rows0 = row_seq_.size();
        file_values_.clear();
        file_values_.reserve(cells);
        for (Py_ssize_t i = 0; i < k; ++i) {
            const std::size_t s = match(items[i]);
            if (s == kDeclined) {
                seqs_.resize(seqs0);
                names_.resize(names0);
                row_seq_.resize(rows0);
                last_ = 0;
                return false;
            }
            row_seq_.push_back(static_cast<std::uint32_t>(s));
        }
        // then put in their columns
        if (columns_.size() < names_.size()) columns_.resize(names_.size());
        Column* columns = columns_.data();
        PyObject* const* value = file_values_.data();
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
            columns[j] = columns_[j].result(n);
            columns_[j] = Column();  // its buffers are copied: free them now
        }
        // per sequence the names it lacks (None when it has them all), shared by its rows
        std::vector<py::object> lacking;
        for (const TableSequence& seq : seqs_) {
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
        for (std::size_t r = 0; r < row_seq_.size(); ++r) {
            const TableSequence& seq = seqs_[row_seq_[r]];
            py::dict row;
            for (std::size_t i = 0; i < seq.keys.size(); ++i) {
                row[seq.keys[i]] = own(columns_[seq.column[i]].value(r));
            }
            out[r] = std::move(row);
        }
        for (const auto& [source, count] : sources_) {
            for (std::size_t i = 0; i < count; ++i) sources.append(source);
        }
        return py::make_tuple(out, sources);
    }

private:
    static constexpr std::size_t kDeclined = kNoSequence;

    // The row's sequence (a new one if need be), its values appended to file_values_;
    // kDeclined for a key not an exact str or one sequence too many.
    std::size_t match(PyObject* row) {
        const std::size_t base = file_values_.size();
        file_values_.resize(base + static_cast<std::size_t>(PyDict_GET_SIZE(row)));
        PyObject** out = file_values_.data() + base;
        if (!seqs_.empty() && matches(row, seqs_[last_], out)) return last_;
        for (std::size_t s = 0; s < seqs_.size(); ++s) {
            if (s != last_ && matches(row, seqs_[s], out)) return last_ = s;
        }
        if (seqs_.size() == kMaxSequences) return kDeclined;
        TableSequence seq;
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
    static bool matches(PyObject* row, const TableSequence& seq, PyObject** out) {
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

    std::vector<TableSequence> seqs_;
    std::vector<py::object> names_;
    std::vector<std::uint32_t> row_seq_;
    std::vector<PyObject*> file_values_;  // the current file's values in row order (borrowed)
    std::vector<std::pair<py::object, std::size_t>> sources_;
    std::vector<Column> columns_;
    std::size_t last_ = 0;
};

namespace {

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

    // Table ``t`` for a writer of cells, or nullptr once it declined (Python keeps its rows).
    TableRows* writable(std::size_t t) {
        return t < tables_.size() && !declined_[t] ? &tables_[t] : nullptr;
    }

    py::tuple mark(std::size_t t) {
        const TableMark m = table(t).mark();
        return py::make_tuple(m.rows, m.seqs, m.names);
    }

    void rollback(std::size_t t, const std::tuple<std::size_t, std::size_t, std::size_t>& m) {
        if (declined_.at(t)) throw py::value_error("PartRows.rollback: the table declined");
        table(t).truncate({std::get<0>(m), std::get<1>(m), std::get<2>(m)});
    }

private:
    TableRows& table(std::size_t t) {
        if (t >= tables_.size()) throw py::index_error("no such table");
        return tables_[t];
    }

    std::vector<TableRows> tables_;
    std::vector<bool> declined_;
};

}  // namespace

TableRows* part_table(py::handle part_rows, std::size_t table) {
    if (!py::isinstance<PartRows>(part_rows)) return nullptr;
    return part_rows.cast<PartRows&>().writable(table);
}

std::size_t table_sequence(TableRows& t, PyObject* keys) { return t.sequence(keys); }

void table_add_cells(TableRows& t, std::size_t seq, PyObject* const* values, PyObject* source) {
    t.add_cells(seq, values, source);
}

bool table_add_rows(TableRows& t, PyObject* rows, PyObject* source) {
    return t.add(rows, source);
}

TableMark table_mark(const TableRows& t) { return t.mark(); }

void table_truncate(TableRows& t, const TableMark& m) { t.truncate(m); }

void def_part_rows(py::module_& m) {
    py::class_<PartRows>(m, "PartRows",
                         "Every table's rows of a part, taken file by file (part_rows.hpp).")
        .def(py::init<std::size_t>(), py::arg("tables"))
        .def("add", &PartRows::add,
             "Append one file's rows of every table; the tables that declined them, as bits.")
        .def("finish", &PartRows::finish,
             "(names, columns, lacks, sources) of one table's rows (part_rows.hpp).")
        .def("rows", &PartRows::rows, "One table's (rows, sources) so far, for Python's path.")
        .def("mark", &PartRows::mark, "One table's mark: (rows, key sequences, names) so far.")
        .def("rollback", &PartRows::rollback,
             "One table back to a mark: what was added since dropped (part_rows.hpp).");
}

}  // namespace replay_audit::core
