"""The dice INIT writes are checked against those the wall's seed rolled.

Tenhou's generator rolls each hand's two dice with its tiles (``replay_audit.wall``:
the two words after the shuffle), and INIT's ``seed`` writes them less one; every
hand of the corpus with a wall writes its wall's dice (28,211 hands, three-player and
2009 walls among them).  A log whose dice are not its seed's is a finding
(``replay.table._dice_findings``), whichever way the walls were rebuilt: the core's
records, the Python reader of them, or ``replay_audit.wall`` without the core.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replay_audit import native
from replay_audit.auditing.auditor import audit_file
from replay_audit.replay import walls
from tests.logedit import edited, problems

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SEEDED = [
    # (fixture, INIT seed as written, with a die changed, the hand)
    ("4p_wall_from_seed_all_last_draw.*", 'seed="7,0,0,5,5,16"', 'seed="7,0,0,4,5,16"', "S4-0"),
    ("3p_three_kita_to_exhaustive_draw.*", 'seed="6,0,0,0,1,3"', 'seed="6,0,0,0,2,3"', "S3-0"),
]
WAYS = ["core", "python walls", "no core stream"]


def _way(way: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walls rebuilt the ``way`` asked for."""
    if way == "core":
        if walls.CORE_HAND_WALLS is None:
            pytest.skip("no compiled core")
        return
    monkeypatch.setattr(walls, "CORE_HAND_WALLS", None)
    monkeypatch.setattr(walls, "CORE_HAND_WALL", None)
    if way == "no core stream":
        monkeypatch.setattr(native, "_core_stream", lambda seed, players: None)


def _problems(fa: Any) -> list[tuple[str, str, str, str, str]]:
    """The file's findings but its notes (an excerpt's first hand, say)."""
    keys = ("category", "field", "hand", "recorded", "computed")
    return [tuple(f[k] for k in keys) for f in problems(fa)]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(("pattern", "old", "new", "hand"), SEEDED)
def test_dice_not_the_seeds_are_a_finding(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    way: str,
    pattern: str,
    old: str,
    new: str,
    hand: str,
) -> None:
    _way(way, monkeypatch)
    source = next(FIXTURES.glob(pattern))
    assert _problems(audit_file(source)) == []  # as written: the seed's dice
    fa = audit_file(edited(source, old, new, tmp_path))
    rolled = ",".join(str(int(d) + 1) for d in old.split(",")[3:5])
    written = ",".join(str(int(d) + 1) for d in new.split(",")[3:5])
    assert _problems(fa) == [("replay", "dice", hand, written, rolled)]
    assert fa.status == "mismatch"
