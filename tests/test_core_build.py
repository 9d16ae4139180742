"""The build without a compiler, and the package without its compiled core.

``pip install`` compiles ``replay_audit._core``; without a working C++ compiler it
stops with a message that says what to install and how to install without the core
(``REPLAY_AUDIT_PURE_PYTHON=1``).  Such an install runs the pure-Python code, and
``import replay_audit`` warns unless that variable is set at run time too.

The builds run ``pip wheel`` on a copy of the project without build isolation
(setuptools and pybind11 come from the test extras), so nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.differential import NO_CORE

ROOT = Path(__file__).resolve().parent.parent


def _project_copy(tmp: Path) -> Path:
    src = tmp / "project"
    src.mkdir()
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "src" / "core", src / "src" / "core")
    shutil.copytree(
        ROOT / "replay_audit",
        src / "replay_audit",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
    )
    return src


def _pip_wheel(src: Path, out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("pybind11", reason="pybind11 is in the test extras")
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    return subprocess.run(
        [*pip, "--disable-pip-version-check", "--no-cache-dir", "-w", str(out), str(src)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=src,
        check=False,
    )


@pytest.mark.parametrize("compiler", ["/bin/false", "/nonexistent/c++"])
def test_no_compiler_stops_with_a_clear_message(tmp_path: Path, compiler: str) -> None:
    src = _project_copy(tmp_path)
    env = {"CC": compiler, "CXX": compiler, "REPLAY_AUDIT_PURE_PYTHON": ""}
    proc = _pip_wheel(src, tmp_path / "out", **env)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "the compiled core (replay_audit._core, C++) could not be built" in output
    assert "apt-get install g++ python3-dev" in output
    assert "REPLAY_AUDIT_PURE_PYTHON=1 pip install ." in output
    assert not list((tmp_path / "out").glob("*.whl"))


def test_pure_python_install_on_purpose(tmp_path: Path) -> None:
    """``REPLAY_AUDIT_PURE_PYTHON=1`` builds a pure wheel, even with no compiler."""
    src = _project_copy(tmp_path)
    env = {"CC": "/bin/false", "CXX": "/bin/false", "REPLAY_AUDIT_PURE_PYTHON": "1"}
    proc = _pip_wheel(src, tmp_path / "out", **env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = (tmp_path / "out").glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "replay_audit/native.py" in names and "replay_audit/_core.pyi" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


_WITHOUT_CORE = (
    NO_CORE
    + """
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import replay_audit
    from replay_audit import native, wall

seed = wall._EXAMPLE_SEED
print(json.dumps({
    "have_core": native.HAVE_CORE,
    "warnings": [f"{w.category.__name__}: {w.message}" for w in caught],
    "same": native.walls_from_seed(seed, hands=3) == wall.walls_from_seed(seed, hands=3),
}))
"""
)


@pytest.mark.parametrize("pure", ["", "1"])
def test_import_without_the_core(pure: str) -> None:
    """Without ``_core`` the package works (pure Python) and warns, unless told not to."""
    import json

    proc = subprocess.run(
        [sys.executable, "-c", _WITHOUT_CORE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "REPLAY_AUDIT_PURE_PYTHON": pure},
        check=True,
    )
    out = json.loads(proc.stdout)
    assert out["have_core"] is False and out["same"] is True
    if pure:
        assert out["warnings"] == []
    else:
        (message,) = out["warnings"]
        assert message.startswith("CoreMissingWarning: replay_audit's compiled core")
        assert "REPLAY_AUDIT_PURE_PYTHON=1" in message


_AUDIT = """
import glob, hashlib, json, sys
{no_core}
import replay_audit
from replay_audit import native

paths = glob.glob("fixtures/**/*.xml", recursive=True) + glob.glob("fixtures/**/*.json", recursive=True)
paths = sorted(set(paths))
report = replay_audit.audit(paths)
tables = {{
    name: hashlib.sha256(getattr(report, name).to_csv(index=False).encode()).hexdigest()
    for name in ("files", "games", "hands", "findings", "hand_facts", "score_history")
}}
print(json.dumps({{"have_core": native.HAVE_CORE, "tables": tables, "files": len(report.files)}}))
"""


def test_audit_without_the_core_gives_the_same_report() -> None:
    """Every fixture (the bad ones included) audited with the compiled core and by
    the pure-Python code gives the same tables: the two paths cannot drift."""
    import json

    outs = []
    for hook in ("", NO_CORE):
        proc = subprocess.run(
            [sys.executable, "-c", _AUDIT.format(no_core=hook)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "REPLAY_AUDIT_PURE_PYTHON": "1"},
            check=True,
        )
        outs.append(json.loads(proc.stdout))
    with_core, without = outs
    assert with_core["have_core"] is True and without["have_core"] is False
    assert with_core["files"] >= 30
    assert with_core["tables"] == without["tables"]
