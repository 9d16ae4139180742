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
#pragma once

#include <pybind11/pybind11.h>

namespace replay_audit::core {

void def_csv_rows(pybind11::module_& m);

}  // namespace replay_audit::core
