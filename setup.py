"""The build of ``replay_audit._core``, the compiled core (C++ in ``src/core``, pybind11).

Everything else about the package is in ``pyproject.toml``; this file only declares the
extension, because setuptools takes extensions from ``setup.py``.  ``pip install .``
and ``pip install -e .`` compile it (an editable install builds it in place, next to
the Python modules: run ``pip install -e .`` again after changing a ``.cpp`` file).

Without a working C++ compiler the install stops with a message saying what to
install.  ``REPLAY_AUDIT_PURE_PYTHON=1`` installs the package without the core on
purpose: the pure-Python implementation gives the same results, more slowly, and
``import replay_audit`` then warns unless that variable is also set at run time.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

PURE_PYTHON = "REPLAY_AUDIT_PURE_PYTHON"
BUILD_JOBS = "REPLAY_AUDIT_BUILD_JOBS"
SOURCES = sorted(str(p.as_posix()) for p in Path("src/core").glob("*.cpp"))
HEADERS = sorted(str(p.as_posix()) for p in Path("src/core").glob("*.hpp"))


def sources_digest() -> str:
    """A digest of the core's sources, compiled in as ``_core.SOURCES_DIGEST``, so a test
    can tell an editable build older than its sources (tests/test_core_wall.py)."""
    digest = hashlib.sha256()
    for path in sorted(Path("src/core").glob("*.[ch]pp")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


NO_COMPILER = f"""
replay_audit: the compiled core (replay_audit._core, C++) could not be built:
    {{error}}
It needs a C++17 compiler and the Python headers, e.g. on Debian or Ubuntu:
    apt-get install g++ python3-dev
then run the install again.  To install without the core instead (the pure-Python
implementation: the same results, more slowly), set {PURE_PYTHON}=1:
    {PURE_PYTHON}=1 pip install .
"""


class BuildCore(build_ext):
    """``build_ext`` that turns a compiler failure into one clear message."""

    def build_extension(self, ext: object) -> None:
        try:
            super().build_extension(ext)  # type: ignore[arg-type]
        except (CCompilerError, ExecError, PlatformError, OSError) as exc:
            raise SystemExit(NO_COMPILER.format(error=exc)) from exc


def extensions() -> list[object]:
    if os.environ.get(PURE_PYTHON) == "1":
        return []
    try:
        from pybind11.setup_helpers import ParallelCompile, Pybind11Extension
    except ImportError as exc:  # only without build isolation (pip --no-build-isolation)
        raise SystemExit(NO_COMPILER.format(error=f"pybind11 is not installed ({exc})")) from exc
    # The core's ~26 files compile one at a time by default (setuptools), most of the
    # install's time; one compiler per CPU instead (REPLAY_AUDIT_BUILD_JOBS=N to say how
    # many, e.g. 1 on a machine short of memory: a pybind11 file takes ~0.5 GB).
    ParallelCompile(BUILD_JOBS, default=0).install()
    return [
        Pybind11Extension(
            "replay_audit._core",
            SOURCES,
            include_dirs=["src/core"],
            depends=HEADERS,  # a changed header rebuilds too (setuptools compares times)
            define_macros=[("REPLAY_AUDIT_CORE_SOURCES", f'"{sources_digest()}"')],
            cxx_std=17,
        )
    ]


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildCore})
