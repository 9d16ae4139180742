"""The code passes ruff (lint and format), so CI's one test command checks style too."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args: list[str]) -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    proc = subprocess.run([ruff, *args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
