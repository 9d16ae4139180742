"""Choosing the compiled tool: one hot kernel, the wall from the seed, built five ways.

Issue 19 asks for the tool to be chosen by measurement.  The kernel is
``replay_audit/wall.py``: MT19937 ``init_by_array`` once per game, then per hand 288
words, nine SHA-512 digests and a Fisher-Yates pass over 136 ids read backwards.
Over the same games, in one process, this script times the walls of every hand with:

* ``python``        -- ``replay_audit.wall`` as it is (the C parts: CPython's MT19937,
                       hashlib's SHA-512, struct);
* ``cython``        -- the same file compiled by Cython in pure-Python mode, unchanged;
* ``cython+hints``  -- the same plus a few C types, given in an augmenting ``.pxd``
                       (``@cython.locals`` on the loops), the ``.py`` unchanged;
* ``mypyc``         -- the same file compiled by mypyc (it passes ``mypy --strict``);
* ``c++ pybind11``  -- ``replay_audit._core.walls`` (``src/core``): raw records, and
                       through ``replay_audit.native`` (``Wall`` objects, as the
                       Python variants return);
* ``c++ cython``    -- the same C++ behind a Cython ``cdef extern`` wrapper.

and, as the reference, a bare lxml parse of the same files (gunzip + ``fromstring`` +
iterate), in the same run.  The seeds, player counts and hand counts are read before
any clock starts.  Each figure is the best of ``--repeat`` rounds, the variants taking
turns within a round (the machine is shared).  Then the per-call overhead of the two
C++ bindings: a call that does nothing with the same arguments (str, int, int), and
one file's walls (10 hands).

The Cython, mypyc and binding variants are compiled into a temporary folder with this
interpreter's tools: ``pip install -e '.[bench]'`` (Cython, pybind11; mypyc comes with
mypy).  ``replay_audit._core`` comes from the package's own build.

    python benchmarks/bench_wall_tools.py [folder] [--limit N] [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import gzip
import importlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"

_SEED = re.compile(rb'<SHUFFLE seed="([^"]+)"')
_GO = re.compile(rb'<GO type="(\d+)"')

# A few C types for the Cython build, as an augmenting .pxd (the .py stays as it is).
_HINTS = """
import cython

@cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t, wall=list)
cpdef tuple shuffle_tiles(rnd, tiles)
"""

# The two bindings of the same C++ (src/core): both take the seed's UTF-8 buffer
# without a copy, call seed_walls and return a list of bytes, one per hand.
_PYBIND = r"""
#include <pybind11/pybind11.h>
#include <string_view>
#include <vector>
#include "wall.hpp"
namespace py = pybind11;
namespace core = replay_audit::core;

PYBIND11_MODULE(bind_pybind11, m) {
    m.def("noop", [](std::string_view seed, int players, long hands) {
        (void)seed; (void)players; (void)hands;
        return py::none();
    });
    m.def("walls", [](std::string_view seed, int players, long hands) {
        const int size = core::wall_record_bytes(players);
        if (size == 0 || hands < 0) throw py::value_error("bad arguments");
        std::vector<std::uint8_t> out(static_cast<std::size_t>(size) * hands);
        bool flipped = false;
        if (core::seed_walls(seed, players, hands, out.data(), &flipped) != core::kOk)
            throw py::value_error("declined");
        py::list result(hands);
        for (long h = 0; h < hands; ++h)
            result[h] = py::bytes(reinterpret_cast<const char*>(out.data() + size * h), size);
        return result;
    });
}
"""

_CYTHON = """
# distutils: language = c++
# cython: language_level=3
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.stdint cimport uint8_t
from libcpp cimport bool as cbool
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector

cdef extern from "wall.hpp" namespace "replay_audit::core":
    int wall_record_bytes(int players)
    int seed_walls(string_view seed, int players, long hands, uint8_t* out, cbool* flipped)

def noop(str seed, int players, long hands):
    cdef Py_ssize_t n
    PyUnicode_AsUTF8AndSize(seed, &n)
    return None

def walls(str seed, int players, long hands):
    cdef Py_ssize_t n
    cdef const char* text = PyUnicode_AsUTF8AndSize(seed, &n)
    cdef int size = wall_record_bytes(players)
    if size == 0 or hands < 0:
        raise ValueError("bad arguments")
    cdef vector[uint8_t] out
    out.resize(size * hands)
    cdef cbool flipped = False
    if seed_walls(string_view(text, n), players, hands, out.data(), &flipped) != 0:
        raise ValueError("declined")
    cdef list result = []
    cdef long h
    for h in range(hands):
        result.append(PyBytes_FromStringAndSize(<char*>out.data() + size * h, size))
    return result
"""

_SETUP = """
from Cython.Build import cythonize
from pybind11.setup_helpers import Pybind11Extension
from setuptools import Extension, setup

core = {core!r}
sources = [core + "/sha512.cpp", core + "/wall.cpp"]
modules = cythonize(
    ["wall_cython.py", "wall_cython_hints.py",
     Extension("bind_cython", ["bind_cython.pyx", *sources], include_dirs=[core],
               language="c++", extra_compile_args=["-std=c++17"])],
    language_level=3, quiet=True,
)
modules.append(Pybind11Extension("bind_pybind11", ["bind_pybind11.cpp", *sources],
                                 include_dirs=[core], cxx_std=17))
setup(name="bench_wall_tools", ext_modules=modules, script_args=["build_ext", "--inplace", "-q"])
"""


def build(folder: Path) -> dict[str, Any]:
    """Compile the variants into ``folder``; return the modules by variant name."""
    wall_py = ROOT / "replay_audit" / "wall.py"
    for name in ("wall_cython", "wall_cython_hints", "wall_mypyc"):
        shutil.copy(wall_py, folder / f"{name}.py")
    (folder / "wall_cython_hints.pxd").write_text(_HINTS)
    (folder / "bind_pybind11.cpp").write_text(_PYBIND)
    (folder / "bind_cython.pyx").write_text(_CYTHON)
    (folder / "setup_tools.py").write_text(_SETUP.format(core=str(ROOT / "src" / "core")))
    subprocess.run(
        [sys.executable, "setup_tools.py"], cwd=folder, check=True, stdout=subprocess.DEVNULL
    )
    subprocess.run(
        [sys.executable, "-m", "mypyc", "wall_mypyc.py"],
        cwd=folder,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    sys.path.insert(0, str(folder))
    mods = {
        name: importlib.import_module(name)
        for name in ("wall_cython", "wall_cython_hints", "wall_mypyc", "bind_pybind11")
    }
    mods["bind_cython"] = importlib.import_module("bind_cython")
    for name in ("wall_cython", "wall_cython_hints", "wall_mypyc"):
        assert mods[name].__file__.endswith(".so"), f"{name} is not compiled"
    return mods


Game = tuple[str, int, int]
"""(seed, players, hands) of one file."""


def read_games(paths: list[Path]) -> tuple[list[bytes], list[Game]]:
    blobs = [p.read_bytes() for p in paths]
    games: list[Game] = []
    for blob in blobs:
        data = gzip.decompress(blob)
        m = _SEED.search(data)
        if m is None:
            continue
        go = _GO.search(data)
        players = 3 if go and int(go.group(1)) & 0x10 else 4
        games.append((m.group(1).decode(), players, data.count(b"<INIT ")))
    return blobs, games


def run_lxml(blobs: list[bytes]) -> int:
    n = 0
    for blob in blobs:
        for _ in etree.fromstring(gzip.decompress(blob)).iter():
            n += 1
    return n


def python_walls(mod: Any) -> Callable[[list[Game]], int]:
    def run(games: list[Game]) -> int:
        fn = mod.walls_from_seed
        walls = 0
        for seed, players, hands in games:
            walls += len(fn(seed, players, hands=hands))
        return walls

    return run


def raw_walls(fn: Callable[[str, int, int], list[bytes]]) -> Callable[[list[Game]], int]:
    def run(games: list[Game]) -> int:
        walls = 0
        for seed, players, hands in games:
            walls += len(fn(seed, players, hands))
        return walls

    return run


def per_call(fn: Callable[..., Any], args: tuple[Any, ...], calls: int, repeat: int) -> float:
    """Best seconds per call over ``repeat`` loops of ``calls`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=None, help="only the first N files")
    ap.add_argument("--repeat", type=int, default=5, help="best of N rounds (default 5)")
    ap.add_argument("--build-dir", type=Path, default=None, help="keep the builds here")
    args = ap.parse_args()

    from replay_audit import _core, native, wall

    folder = args.build_dir or Path(tempfile.mkdtemp(prefix="bench_wall_tools_"))
    folder.mkdir(parents=True, exist_ok=True)
    mods = build(folder)

    paths = sorted(args.folder.glob("*.xml.gz"))[: args.limit]
    blobs, games = read_games(paths)
    hands = sum(g[2] for g in games)

    # the same walls from every variant, before anything is timed
    seed, players, n = games[0]
    reference = wall.walls_from_seed(seed, players, hands=n)
    for name in ("wall_cython", "wall_cython_hints", "wall_mypyc"):
        got = mods[name].walls_from_seed(seed, players, hands=n)
        assert [(w.tiles, w.dice) for w in got] == [(w.tiles, w.dice) for w in reference], name
    assert native.walls_from_seed(seed, players, hands=n) == reference
    raw = _core.walls(seed, players, n)
    assert mods["bind_pybind11"].walls(seed, players, n) == raw
    assert mods["bind_cython"].walls(seed, players, n) == raw

    variants: dict[str, Callable[[], int]] = {
        "bare lxml parse": lambda: run_lxml(blobs),
        "python (replay_audit.wall)": lambda: python_walls(wall)(games),
        "cython, pure-Python mode": lambda: python_walls(mods["wall_cython"])(games),
        "cython + a few hints (.pxd)": lambda: python_walls(mods["wall_cython_hints"])(games),
        "mypyc": lambda: python_walls(mods["wall_mypyc"])(games),
        "c++ pybind11, Wall objects": lambda: python_walls(native)(games),
        "c++ pybind11 (_core), records": lambda: raw_walls(_core.walls)(games),
        "c++ cython cdef extern, records": lambda: raw_walls(mods["bind_cython"].walls)(games),
    }
    best = dict.fromkeys(variants, float("inf"))
    gc.disable()  # as the auditor does while it works on a file
    for _ in range(args.repeat):
        for name, run in variants.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    gc.enable()

    lx = best["bare lxml parse"]
    py = best["python (replay_audit.wall)"]
    print(f"{len(paths)} files, {len(games)} seeded games, {hands} walls; best of {args.repeat}")
    print(f"{'':34} {'seconds':>8} {'/ lxml':>7} {'python /':>9} {'us/wall':>8}")
    for name, seconds in best.items():
        print(
            f"{name:34} {seconds:8.3f} {seconds / lx:6.2f}x {py / seconds:8.1f}x"
            f" {1e6 * seconds / hands:8.2f}"
        )

    seed, players, _ = games[0]
    calls, rounds = 200_000, max(3, args.repeat)
    print(f"\nper call (best of {rounds} x {calls:,} calls; a file is one call)")
    for label, fn, call_args in [
        ("python function, same arguments", lambda s, p, h: None, (seed, players, 10)),
        ("pybind11: noop(str, int, int)", mods["bind_pybind11"].noop, (seed, players, 10)),
        ("cython:   noop(str, int, int)", mods["bind_cython"].noop, (seed, players, 10)),
        ("pybind11: walls(seed, 4, 0)", mods["bind_pybind11"].walls, (seed, players, 0)),
        ("cython:   walls(seed, 4, 0)", mods["bind_cython"].walls, (seed, players, 0)),
    ]:
        print(f"  {label:36} {1e9 * per_call(fn, call_args, calls, rounds):8.0f} ns")
    for label, fn in [
        ("pybind11: walls(seed, 4, 10)", mods["bind_pybind11"].walls),
        ("cython:   walls(seed, 4, 10)", mods["bind_cython"].walls),
    ]:
        us = 1e6 * per_call(fn, (seed, players, 10), calls // 100, rounds)
        print(f"  {label:36} {us:8.2f} us")
    print(f"\nbuilds in {folder}")


if __name__ == "__main__":
    main()
