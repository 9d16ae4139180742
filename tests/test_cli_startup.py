"""The command line's start-up: ``main`` asks OpenBLAS for one thread before any
command imports numpy (``cli._one_blas_thread``), and a choice the caller made stays;
a command's module is imported when that command runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from replay_audit.cli import main


def test_importing_the_cli_does_not_import_numpy_nor_the_other_commands() -> None:
    """Else the setting comes too late: OpenBLAS starts its threads when numpy is
    imported (a fresh interpreter: this test process has numpy already).  The
    ``players`` and ``tools`` commands' modules are read when they run."""
    code = (
        "import sys, replay_audit.cli; "
        "print(sorted(m for m in ('numpy', 'replay_audit.cli.players', "
        "'replay_audit.cli.tools') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("given", "want"), [(None, "1"), ("3", "3")])
def test_main_asks_for_one_blas_thread_unless_told(
    monkeypatch: pytest.MonkeyPatch, given: str | None, want: str
) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", given or "")  # (undone after the test)
    if given is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert os.environ["OPENBLAS_NUM_THREADS"] == want
