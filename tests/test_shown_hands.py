"""The hands a draw shows are checked against the hands replayed from the moves.

An exhaustive draw (and nagashi mangan) shows the tenpai seats' hands, a kyuushu draw
the declarer's fourteen tiles, a four-riichi draw the riichi hands; the replay knows
each seat's concealed tiles with their copy numbers, so a shown hand that is not the
seat's own is the log contradicting itself (``replay.results._check_shown``; in the
corpus all 7,489 shown hands are their seats' hands).  Both paths find it: the
core's draw rooms (``replay_rooms.cpp``) leave such a draw to the Python room.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from tests.conftest import replay_by
from tests.logedit import edited

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

CASES = [
    # an exhaustive draw: seat 0's 2m copy 0 shown as copy 1, which no one holds
    (
        "4p_east_tsumo_ron_draw.*",
        'sc="223,30,257,-10,277,-10,243,-10" hai0="4,',
        'sc="223,30,257,-10,277,-10,243,-10" hai0="5,',
        "E3-0",
        "4, 8, 12, 53",
    ),
    # a kyuushu draw: seat 0's shown 1m copy 3 written as copy 2
    ("4p_riichi_double_ron.*", 'hai0="3,5,35', 'hai0="2,5,35', "E1-0", "3, 5, 35"),
]


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
@pytest.mark.parametrize(("pattern", "old", "new", "hand", "held"), CASES)
def test_a_shown_hand_not_held_is_a_finding(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    core: bool,
    pattern: str,
    old: str,
    new: str,
    hand: str,
    held: str,
) -> None:
    replay_by(core, monkeypatch)
    source = next(FIXTURES.glob(pattern))
    assert audit_file(source).findings == []
    fa = audit_file(edited(source, old, new, tmp_path))
    found = [(f["category"], f["field"], f["hand"], f["seat"]) for f in fa.findings]
    assert found == [("draw", "shown_hand", hand, 0)]
    assert fa.findings[0]["computed"].startswith(f"({held}")
    assert fa.status == "mismatch"
