"""False alarms on genuine logs (``../shared/cases``), each with a fixture forged from
the rules that shows its class: a chankan that keeps ippatsu, a sanma hand with three
kita run to its exhaustive draw, a seed cut short (``tests/test_wall.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from replay_audit.auditing.auditor import audit_file
from tests.conftest import CASES, FIXTURES, need

CHANKAN = FIXTURES / "4p_chankan_keeps_ippatsu.2024070112gm-00a9-0000-c4a4ca01.xml"
SANMA_KITA = FIXTURES / "3p_three_kita_to_exhaustive_draw.2024070112gm-00b9-0000-3a3a3a03.xml"


def _problems(path: Path) -> list[dict]:
    return [f for f in audit_file(path).findings if f["category"] != "info"]


def test_a_robbed_kakan_keeps_the_robbers_ippatsu() -> None:
    """Seat 2's riichi is accepted; in the go-around after it seat 1 adds the fourth
    3m to its pon and seat 2 robs it: riichi, ippatsu and chankan (3 han 40 fu,
    5,200), paid by seat 1, who busts."""
    fa = audit_file(CHANKAN)
    assert _problems(CHANKAN) == []
    (row,) = fa.hands
    assert (row["result"], row["winner"], row["from_seat"]) == ("ron", 2, 1)
    assert row["comp_yaku"] == "1,1,2,1,3,1" and row["comp_points"] == 5200
    assert row["comp_deltas"] == row["rec_deltas"] == "0,-5200,6200,0"


def test_a_sanma_hand_with_three_kita_runs_to_its_exhaustive_draw() -> None:
    """Every draw follows the wall of the log's seed: 52 live draws and three kita
    replacements (55 less one per kita), then the exhaustive draw."""
    fa = audit_file(SANMA_KITA)
    assert _problems(SANMA_KITA) == []
    text = SANMA_KITA.read_text()
    assert text.count('<N who="') == 3
    assert len(re.findall(r"<[TUV]\d+/>", text)) == 55
    assert fa.hands[0]["result"] == "exhaustive"


def test_the_real_sanma_case_audits_clean() -> None:
    case = need(CASES / "sanma_three_kita_exhaustive_draw.xml.gz", "../shared/cases")
    assert _problems(case) == []
