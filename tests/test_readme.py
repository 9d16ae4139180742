"""The README a new user reads: it starts with the two commands, CI runs the same
test command, and the examples it shows print exactly that."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from replay_audit.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
INSTALL = (
    "pip install . && replay-audit audit fixtures/*.xml fixtures/*.json "
    "--out reports/fixtures --format csv,html"
)
TESTS = "pip install -e '.[test]' && python -m pytest"


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second() -> None:
    assert README.startswith(f"# replay_audit\n\n```bash\n{INSTALL}\n{TESTS}\n```\n")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert (
        "-m pip install --quiet --disable-pip-version-check -e '.[test]' && python3 -m pytest" in ci
    )


def examples() -> list[tuple[str, str]]:
    """Every ``$ replay-audit explain|score ...`` block with the output it shows."""
    out = []
    for block in re.findall(r"```\n(\$ replay-audit (?:explain|score) .*?)```", README, re.S):
        command, _, shown = block.partition("\n")
        out.append((command.removeprefix("$ "), shown))
    return out


def test_the_readme_shows_examples() -> None:
    assert {c.split()[1] for c, _ in examples()} == {"explain", "score"}


@pytest.mark.parametrize(("command", "shown"), examples())
def test_readme_example_prints_what_it_shows(
    command: str, shown: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out.strip() == shown.strip()


def test_readme_has_no_internal_notes() -> None:
    """Written for players and data people: a glossary, no status report."""
    assert "## Glossary" in README
    for word in ("pao", "kiriage", "GO type"):
        assert re.search(rf"^\| {word}", README, re.M | re.I), word
    for note in ("**missed**", "target", "seed document", "this project's machine kind"):
        assert note not in README, note
    assert re.search(r"about \d+ minutes", README.split("## Tests")[1])
