// A stored table's CSV rows formatted by the core (replay_audit.report.csv_columns, whose
// Python writer through the ``csv`` module is the reference): the cells of a chunk, in the
// chunk's order, written into one UTF-8 buffer, so that the report writes a chunk in one
// call instead of a tuple and a ``csv`` call per row.
//
// _core.csv_rows(columns, kinds, order, quote_cr, errors) -> bytes: ``columns`` a list of
//   equally long lists (one per CSV column), ``kinds`` one int a column (0: every cell
//   empty; 1: the value as the csv module writes it, a float its repr, None empty, any
//   other object its str; 2: float(value)'s repr, None and NaN empty), ``order`` the rows'
//   order (a list of ints) or None for the stored order, ``quote_cr`` whether a ``\r``
//   makes the csv module quote a field (it does from some Python versions on), ``errors``
//   the UTF-8 encoder's error handler for a str that strict UTF-8 cannot encode.  A field
//   is quoted (its quotes doubled) where QUOTE_MINIMAL quotes it: it holds a comma, a
//   quote or a newline; a row of one empty field is written ``""``, as the csv module
//   writes it.  Rows end in "\n".
// _core.column_class(values) -> (bits, low, high) | None: what csv_columns.ColumnClass.add
//   (its reference) learns of a list of values in one call: the exact types it holds as bits
//   (1 None, 2 bool, 4 int, 8 float, 16 str) and its ints' least and greatest (0 and 0
//   without an int); None (the Python pass answers) for a value of any other type, an int
//   past 64 bits, or anything but a list.
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

void def_csv_rows(pybind11::module_& m);

}  // namespace replay_audit::core
