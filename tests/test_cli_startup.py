"""The command line's start-up: ``main`` asks OpenBLAS for one thread before any
command imports numpy (``cli._one_blas_thread``), and a choice the caller made stays;
a command's module is imported when that command runs."""

from __future__ import annotations

import os
import pathlib
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


def test_players_of_a_stored_run_imports_no_audit(tmp_path: pathlib.Path) -> None:
    """``replay-audit players REPORT_FOLDER`` reads the stored facts: the audit itself
    (the auditor, the replay's table and rooms) is not imported, only the statistics
    (0.17 s of CPU less a call).  A run of logs, by contrast, imports it."""
    from tests.conftest import FIXTURES

    log = FIXTURES / "4p_riichi_double_ron.2024050112gm-00a9-0000-d0b1e2f3.xml"
    audit_modules = ("replay_audit.auditing.auditor", "replay_audit.replay.table")
    code = (
        "import sys; from replay_audit.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {audit_modules!r} if m in sys.modules))"
    )
    found = []
    for args in (
        ["audit", str(log), "--out", str(tmp_path / "run"), "--quiet"],
        ["players", str(tmp_path / "run"), "--out", str(tmp_path / "players.csv")],
    ):
        out = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
        )
        found.append(out.stdout.strip().splitlines()[-1])
    assert (tmp_path / "players.csv").is_file()
    assert found == [repr(sorted(audit_modules)), "[]"]


def test_the_replay_names_resolve_when_asked_for() -> None:
    """``replay_audit.replay`` imports its modules on first use of a name."""
    import replay_audit.replay as replay
    from replay_audit.replay import table, values, waits

    assert replay.replay_game is table.replay_game and replay.replay_hand is table.replay_hand
    assert replay.HandReplay is values.HandReplay and replay.wait_mask is waits.wait_mask
    assert all(getattr(replay, name) is not None for name in replay.__all__)
    with pytest.raises(AttributeError, match="no_such_name"):
        replay.no_such_name  # noqa: B018
