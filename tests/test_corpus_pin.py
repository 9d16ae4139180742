"""The audit of the whole shared corpus, pinned: exactly the findings the README
names, every other file clean, and the notes each kind of file carries.

The corpus is Tenhou's own output (plus a few third-party excerpts), so any
finding not listed here is a bug of the auditor, and any listed one that
disappears is a check that stopped working.  The run itself is the session's
shared ``corpus_audit`` (one audit of the corpus for the whole suite).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from tests.conftest import CORPUS, ROOT

pytestmark = pytest.mark.corpus

PROBLEMS = {
    # mjai-reviewer's hand-made test data: a ron of +1,600 while seat 2's accepted
    # riichi stick was on the table (Tenhou pays +2,600)
    ("tenhou-json/excerpts/confusing_nakis_1.json", "payment", "delta", "E2-2", 0),
    # synthetic: the named winner's tiles do not form a hand (its deltas pay seat 2)
    ("tenhou-json/excerpts/confusing_nakis_2.json", "hand_value", "win", "E1-0", 1),
    ("tenhou-json/excerpts/confusing_nakis_2.json", "replay", "ron_furiten", "E1-0", 1),
    ("tenhou-json/excerpts/confusing_nakis_2.json", "replay", "win_incomplete", "E1-0", 1),
}
"""(file, category, field, hand, seat) of every problem finding on the corpus."""

NOTES = Counter(
    {
        # JSON editor exports (tenhou.net/6 "title" files): no final scores
        "no_final_scores": 16,
        # excerpts that start after the first hand of their game
        "first_hand": 13,
        # undated logs (no log id in the name) whose rounding the log cannot tell
        "final_reading": 4,
        # confusing_nakis_2.json: the tiles contradict its own aka rule
        "parse_warning": 1,
        # confusing_nakis_2.json: its win cannot be computed
        "payments_unknown": 1,
        # the two chip games (chip.xml, ratio1.xml): what their chip audit rests on
        "chips": 2,
        # newattr2023.xml, a private lobby: its csrule read, and what it sets that
        # the audit does not apply
        "lobby_rules": 1,
        "csrule_unmodelled": 1,
    }
)
"""How many notes (``info`` rows) of each field the corpus gives."""


def _rel(path: Any) -> str:
    return str(path).replace("\\", "/").split("/shared/corpus/", 1)[-1]


def test_the_corpus_gives_exactly_the_pinned_findings(corpus_audit: Any) -> None:
    f = corpus_audit.findings
    problems = f[f["category"] != "info"]
    found = {
        (_rel(r.file), r.category, r.field, r.hand, None if r.seat != r.seat else int(r.seat))
        for r in problems.itertuples()
    }
    assert found == PROBLEMS
    assert len(problems) == len(PROBLEMS)


def test_every_other_file_is_clean(corpus_audit: Any) -> None:
    files = corpus_audit.files
    flagged = {_rel(p) for p in files.loc[files["status"] != "ok", "file"]}
    assert flagged == {p[0] for p in PROBLEMS}
    manifest = (CORPUS / "manifest.tsv").read_text(encoding="utf-8").splitlines()[1:]
    assert len(files) == len(manifest)
    assert int(corpus_audit.games["hands"].sum()) == sum(int(r.split("\t")[4]) for r in manifest)


def test_the_corpus_notes_are_pinned(corpus_audit: Any) -> None:
    f = corpus_audit.findings
    assert Counter(f.loc[f["category"] == "info", "field"]) == NOTES


def test_the_readme_shows_this_run(corpus_audit: Any) -> None:
    """The README's corpus example is this run's summary, and names each flagged file."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(
        r"\$ replay-audit audit \.\./shared/corpus[^\n]*\n(.*?)\nreport:", readme, re.S
    )
    assert block, "the README has no corpus run"
    assert block.group(1).strip() == corpus_audit.summary_text().strip()
    for name in {p[0].rsplit("/", 1)[-1] for p in PROBLEMS}:
        assert name in readme
