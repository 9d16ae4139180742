// Shanten (how many tiles a hand is from tenpai) over the 34 kinds:
// replay_audit/scoring/shanten.py's ``shanten`` and stats/identity.py's ``start_shanten``,
// with the same answers.  The statistics ask it for every dealt hand of every audit
// (~113,000 on the shared corpus), which the Python spent seconds on.
//
// The Python module stays the definition and the reference: this is the same algorithm
// (each suit split into its best (groups, partials, head, flags) options, memoized by the
// suit's pattern, then the formula over every combination), including the module's two
// paths (no kind held four times, or some) and its three corrections for tiles held four
// times; tests/test_core_shanten.py holds the two equal on the corpus's dealt hands, on
// every one-suit pattern and on random hands.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace replay_audit::core {

// scoring.shanten.shanten of 34 counts, each 0-4: the minimum of the regular shape and,
// for 13 tiles or more, seven pairs and thirteen orphans; -1 for a complete hand.
int hand_shanten(const std::uint8_t* counts);

// _core.shanten(counts): hand_shanten of a list or tuple of 34 ints 0-4; None for anything
// else (the Python then answers or raises as it always did).
PyObject* shanten_of_counts(PyObject* module, PyObject* const* args, Py_ssize_t nargs) noexcept;

// _core.start_shanten(dealt): stats.identity.start_shanten of a hex str, bytes, or a list
// or tuple of tile ids; None where the Python gives None (not 13 tiles) and wherever the
// core declines (text that is not 26 hex digits, an id outside 0-135, a kind dealt more
// than four times, another type): the caller then asks the Python.
PyObject* start_shanten_of_dealt(PyObject* module, PyObject* const* args,
                                 Py_ssize_t nargs) noexcept;

// Adds shanten and start_shanten to the module (module.cpp's one line).
void def_shanten(pybind11::module_& m);

}  // namespace replay_audit::core
