"""A draw ends the hand where the moves say it may, and shows the hands its rule shows.

Two edits of a real log the audit used to accept (found by a sweep over single
edits of the moves): the last discard before an exhaustive draw deleted, which
leaves a seat holding fourteen tiles when the hand is drawn (only a kyuushu ends a
turn before its discard: ``draw_mid_turn``), and the hand a kyuushu shows deleted
(a kyuushu shows the declarer's hand, four riichi every hand, four winds and four
kans none: ``hand_shown``; every one of the corpus's draws does).  Both paths find
them: the core's draw rooms (``replay_rooms.cpp``) leave such a draw to the Python
room (``replay.results``), the reference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from tests.conftest import replay_by
from tests.logedit import edited

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

CASES = [
    # seat 3's last discard before the exhaustive draw deleted: it holds 14 tiles
    (
        "4p_east_tsumo_ron_draw.*",
        '<G41/><RYUUKYOKU ba="0,0"',
        '<RYUUKYOKU ba="0,0"',
        ("replay", "draw_mid_turn", "E3-0", 3),
    ),
    # the declarer's hand taken off a kyuushu draw
    (
        "4p_riichi_double_ron.*",
        ' hai0="3,5,35,39,71,75,107,111,115,119,123,127,131,135"',
        "",
        ("draw", "hand_shown", "E1-0", 0),
    ),
]


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
@pytest.mark.parametrize(("pattern", "old", "new", "found"), CASES, ids=["mid_turn", "kyuushu"])
def test_a_draw_the_moves_do_not_allow_is_a_finding(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    core: bool,
    pattern: str,
    old: str,
    new: str,
    found: tuple[str, str, str, int],
) -> None:
    replay_by(core, monkeypatch)
    source = next(FIXTURES.glob(pattern))
    assert audit_file(source).findings == []
    fa = audit_file(edited(source, old, new, tmp_path))
    assert [(f["category"], f["field"], f["hand"], f["seat"]) for f in fa.findings] == [found]
    assert fa.status == "mismatch"
