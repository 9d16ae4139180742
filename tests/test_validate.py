"""`replay-audit validate`: parse and replay only, the findings the audit reports
for the moves, one line per problem file, and an exit status a script can use."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file, validate_file
from replay_audit.cli import main
from replay_audit.run.api import run_audit

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
KEYS = ("category", "field", "file", "hand", "seq", "seat", "message")


def _rows(findings: list[dict]) -> list[tuple]:
    return [tuple(f[k] for k in KEYS) for f in findings]


@pytest.mark.parametrize(
    "path", sorted([*FIXTURES.glob("*.xml"), *FIXTURES.glob("*.json"), *FIXTURES.glob("*/*.xml")])
)
def test_validate_reports_the_audits_parse_and_replay_findings(path: Path) -> None:
    """Validation finds what the audit finds before scoring: its findings are the
    audit's own, in the audit's order, and nothing of scoring or payments."""
    checked, audited = validate_file(path), audit_file(path)
    got = _rows(checked.findings)
    assert got == [r for r in _rows(audited.findings) if r in got]
    assert {f["category"] for f in checked.findings} <= {"parse", "replay", "draw", "rules"}
    # the replay's own categories: every move rule, and the tenpai shown at a draw
    replayish = [
        r
        for r in _rows(audited.findings)
        if r[0] in ("parse", "replay") or (r[0], r[1]) == ("draw", "tenpai")
    ]
    assert got == replayish
    assert checked.hands == [] and checked.hand_facts == []
    assert (checked.status == "ok") == (not got)


def test_cli_exit_status_and_one_line_per_problem_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    clean = [str(p) for p in sorted(FIXTURES.glob("*.xml"))]
    assert main(["validate", *clean, "-q"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and f"{len(clean)} files" in err and "0 with problems" in err

    replay = sorted(FIXTURES.glob("replay/*.xml"))
    assert main(["validate", str(FIXTURES / "replay"), "-q", "--out", str(tmp_path / "v")]) == 1
    lines = capsys.readouterr().out.splitlines()
    flagged = {line.split(": ", 1)[0] for line in lines}
    want = {str(p) for p in replay if validate_file(p).findings}
    assert flagged == want and len(lines) == len(want) > 0
    assert (tmp_path / "v" / "findings.csv").is_file()

    assert main(["validate", str(FIXTURES / "bad"), "-q"]) == 2  # unreadable files
    assert capsys.readouterr().out.count("\n") >= 10


def test_validation_rows_are_never_resumed_as_an_audit(tmp_path: Path) -> None:
    """The resume key names the worker: an audit into a folder a validation wrote
    audits every file again (and has its hands rows)."""
    logs = [str(p) for p in sorted(FIXTURES.glob("*.xml"))]
    out = tmp_path / "o"
    checked = run_audit(logs, jobs=1, out=out, worker=validate_file)
    assert len(checked.hands) == 0
    audited = run_audit(logs, jobs=1, out=out)
    assert audited.run_stats["skipped"] == 0 and len(audited.hands) > 0
    again = run_audit(logs, jobs=1, out=out)
    assert again.run_stats["skipped"] == len(logs)
