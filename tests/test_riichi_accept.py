"""The riichi stick is placed as the riichi discard passes: REACH step 2 comes right
after the declarer's discard, before any draw or call (all 20,224 of the corpus's
XML step-2 tags do).

A sweep over single edits of real logs found the audit accepting a step 2 moved one
move later (after the next draw) or earlier (before the riichi discard, where that
discard is the drawn tile).  Both paths find it: the core's ``play_moves`` leaves
such a step to ``riichi._riichi_accept``, the reference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from tests.conftest import replay_by
from tests.logedit import edited

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
STEP2 = '<REACH who="1" ten="250,240,250,250" step="2"/>'

CASES = [
    # one move later: after the next seat's draw
    ("<E117/>" + STEP2 + "<V113/>", "<E117/><V113/>" + STEP2),
    # one move earlier: before the riichi discard (the drawn tile, so the hand is the same)
    ('<REACH who="1" step="1"/><E117/>' + STEP2, '<REACH who="1" step="1"/>' + STEP2 + "<E117/>"),
]


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
@pytest.mark.parametrize(("old", "new"), CASES, ids=["later", "earlier"])
def test_a_riichi_stick_out_of_place_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: bool, old: str, new: str
) -> None:
    replay_by(core, monkeypatch)
    source = next(FIXTURES.glob("4p_riichi_double_ron.*"))
    assert audit_file(source).findings == []
    fa = audit_file(edited(source, old, new, tmp_path))
    found = [(f["category"], f["field"], f["hand"], f["seat"]) for f in fa.findings]
    assert found == [("replay", "riichi_accept_misplaced", "E1-1", 1)]
    assert fa.status == "mismatch"
