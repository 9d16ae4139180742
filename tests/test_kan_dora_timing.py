"""An ankan's dora indicator is shown before its replacement draw (all 1,297 ankan of
the corpus's XML logs are followed at once by their DORA tag; a daiminkan's or
kakan's comes after the draw, before the discard, unless the room shows it at once).

A sweep over single edits of real logs found the audit accepting an ankan's DORA
swapped with the replacement draw after it.  Both paths find it: the core's
``play_moves`` leaves a replacement draw with a kan dora due or pending to
``moves._moves``, the reference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from tests.conftest import replay_by
from tests.logedit import edited, problems

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
def test_an_ankan_dora_after_the_replacement_draw_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: bool
) -> None:
    replay_by(core, monkeypatch)
    source = next(FIXTURES.glob("era2006_four_reds_stepless_riichi_ankan_junk_*.xml"))
    assert problems(audit_file(source)) == []
    old = '<N who="0" m="14880"/><DORA hai="116"/><T106/>'
    new = '<N who="0" m="14880"/><T106/><DORA hai="116"/>'
    fa = audit_file(edited(source, old, new, tmp_path))
    found = [(f["category"], f["field"], f["hand"], f["seat"]) for f in problems(fa)]
    assert found == [("replay", "dora_timing", "E1-1", 0)]
