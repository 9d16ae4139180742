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
// The cells go straight into their column's Arrow buffers (arrow_column.hpp, the code of
// _core.column_buffers too); a column that meets a value they cannot hold takes its
// earlier rows back from them and keeps the values themselves from then on.
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

void def_part_rows(pybind11::module_& m);

}  // namespace replay_audit::core
