// A part's rows of one table taken file by file (replay_audit.report.part_rows): the runner
// hands each file's rows over as soon as the file is audited, while they are still in the
// cache, and the file's dicts are freed then, not a chunk later.  Holding a chunk's rows
// (a few hundred thousand dicts) until its parts were written cost the runner more than
// building the parts: new memory for every file, and all of it walked again, cold, to be
// taken apart and to be freed.
//
// _core.PartRows(tables): the rows of ``tables`` tables (at most 64).
//   add(rows_per_table, source) -> int: one file's rows of each table (a list or tuple of
//     one row container per table) appended, ``source`` (an exact str) being the file;
//     the tables that declined their rows, as bits (1 << table): nothing of them is taken
//     (not an exact list or tuple of exact dicts with exact str keys, more than 64 key
//     sequences), and a table that declined once takes no more rows.
//   finish(table) -> (names, columns, lacks, sources): what codec.rows_to_table takes
//     apart, as codec._columns and codec._array would: the names in the order they first
//     appear; per column 0 (every value None), (kind, validity, null count, data, offsets)
//     as _core.column_buffers gives them after its kind, or the list of its values where
//     the codec's Python path must store it (a mix of types, an int beyond 64 bits, a str
//     UTF-8 cannot encode); per row the keys it lacks (rows with the same keys share one
//     list); the sources as (source, number of rows) in order.
//   rows(table) -> (rows, sources): the table's rows added so far, rebuilt (same keys in
//     the same order, equal values of the same types: the values are not kept, a column's
//     Arrow buffers give them back), for the codec's Python path after a decline.
//   mark(table) -> (rows, key sequences, names): the table's size so far;
//   rollback(table, mark): the table back to ``mark``, what was added since dropped as if
//     it had never come (the runner's facts of a file that failed part-way).
// The core's own row writers (file_facts.cpp: the facts of the runner's files) append rows
// cell by cell through the functions below, without a dict per row: a row of a key
// sequence (the tuple of its keys) and its values is taken as add() takes a dict of those
// keys and values, so the table is the same either way.
// The cells go straight into their column's Arrow buffers (arrow_column.hpp, the code of
// _core.column_buffers too); a column that meets a value they cannot hold takes its
// earlier rows back from them and keeps the values themselves from then on.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>

namespace replay_audit::core {

void def_part_rows(pybind11::module_& m);

// One table of a _core.PartRows.
class TableRows;

// A table's size at one moment, to roll back to.
struct TableMark {
    std::size_t rows = 0, seqs = 0, names = 0;
};

constexpr std::size_t kNoSequence = ~std::size_t{0};

// Table ``table`` of ``part_rows`` for a writer of cells; nullptr when ``part_rows`` is not
// a _core.PartRows, there is no such table, or the table declined rows (Python keeps them).
TableRows* part_table(pybind11::handle part_rows, std::size_t table);

// The table's key sequence of ``keys`` (an exact tuple of exact str, no key twice), found
// or made; kNoSequence when it cannot be (then the rows are to go as dicts).
std::size_t table_sequence(TableRows& t, PyObject* keys);

// One row of key sequence ``seq``: ``values`` (borrowed, the sequence's length) in its
// keys' order; ``source`` (an exact str) the file.
void table_add_cells(TableRows& t, std::size_t seq, PyObject* const* values, PyObject* source);

// Rows as dicts, as PartRows.add takes one table's: false, nothing taken, if it declines.
bool table_add_rows(TableRows& t, PyObject* rows, PyObject* source);

TableMark table_mark(const TableRows& t);

// Back to ``m`` (table_mark's, nothing dropped before it).
void table_truncate(TableRows& t, const TableMark& m);

}  // namespace replay_audit::core
