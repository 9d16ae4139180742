"""Kuikae: right after a chi or pon, the called kind (and, for a chi called at a run's
end, the kind past its other end) may not be discarded (scoring-rules.md §3).

A sweep over single edits of real logs found the audit accepting such a discard: a
discard changed to another tile the seat held, one the call forbids.  No discard of
the corpus is one (``moves.kuikae_mask``); both paths find it: the core plays no
such discard (``replay.cpp``'s ``kuikae_suspect``) and leaves it to the Python's
``_moves``, the reference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.model.meld import Meld, MeldKind
from replay_audit.replay.moves import kuikae_mask
from tests.conftest import CORPUS, need, replay_by
from tests.logedit import XmlLog, audit, problems

PAO = CORPUS / "tenhou-xml" / "special" / "pao.xml.gz"


def _kinds(mask: int) -> list[int]:
    return [k for k in range(34) if mask >> k & 1]


@pytest.mark.parametrize(
    ("meld", "kinds"),
    [
        # 4m called with 5m6m: 4m and 7m (suji)
        (Meld(MeldKind.CHI, (12, 16, 20), called=12, from_seat=3), [3, 6]),
        # 6m called with 4m5m: 6m and 3m
        (Meld(MeldKind.CHI, (12, 16, 20), called=20, from_seat=3), [2, 5]),
        # 5m called with 4m6m (the middle): 5m alone
        (Meld(MeldKind.CHI, (12, 16, 20), called=16, from_seat=3), [4]),
        # 7p called with 8p9p: nothing past 9p, 7p alone
        (Meld(MeldKind.CHI, (60, 64, 68), called=60, from_seat=3), [15]),
        # 3s called with 1s2s: nothing before 1s, 3s alone
        (Meld(MeldKind.CHI, (72, 76, 80), called=80, from_seat=3), [20]),
        # a pon of East: East
        (Meld(MeldKind.PON, (108, 109, 110), called=109, from_seat=2), [27]),
    ],
)
def test_the_kinds_a_call_forbids(meld: Meld, kinds: list[int]) -> None:
    assert _kinds(kuikae_mask(meld)) == kinds


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
def test_a_kuikae_discard_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: bool
) -> None:
    replay_by(core, monkeypatch)
    log = XmlLog(need(PAO))
    assert problems(audit(PAO)) == []
    els = log.elements
    # seat 0 chis 4p (called) with 2p3p, then discards West (117); the edit discards
    # 1p (36) instead, a tile seat 0 holds and the chi forbids (suji kuikae)
    (j,) = [j for j, e in enumerate(els) if e.tag == "N" and e.get("m") == "26823"]
    assert els[j + 1].tag == "D117"
    els[j + 1].tag = "D36"
    fa = audit(log.write(tmp_path / "pao.xml"))
    found = [
        (f["category"], f["field"], f["hand_index"], f["seat"], f["recorded"]) for f in problems(fa)
    ]
    assert found == [("replay", "kuikae", log.hand_of(els[j + 1]), 0, "36")]
