"""A kakan's meld code is its pon's with the kan bit: the same discarder and called tile.

Tenhou writes a kakan as the code of the pon it extends with bit 4 set in place of
bit 3, so its discarder (bits 0-1) and called tile are the pon's; every one of the
corpus's 921 kakan is.  A kakan code that names another discarder or called tile is
a finding (``replay.calls._kakan``), on both paths: the core's kan room
(``replay_rooms.cpp``) leaves such a kakan to the Python.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from tests.conftest import replay_by
from tests.logedit import edited, problems

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CHANKAN = next(FIXTURES.glob("4p_chankan_keeps_ippatsu.*"))


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
@pytest.mark.parametrize(
    ("code", "recorded"),
    [("4210", "(3, 10)"), ("4209", "(2, 10)")],  # from toimen or shimocha: not the pon's
)
def test_a_kakan_not_of_its_pon_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: bool, code: str, recorded: str
) -> None:
    replay_by(core, monkeypatch)
    # the kakan of the pon m="4203"
    fa = audit_file(edited(CHANKAN, '<N who="1" m="4211"/>', f'<N who="1" m="{code}"/>', tmp_path))
    # (its notes aside: the fixture is an excerpt, with a first-hand note)
    found = [(f["field"], f["seat"], f["recorded"], f["computed"]) for f in problems(fa)]
    assert found == [("kakan_not_its_pon", 1, recorded, "(0, 10)")]  # the pon from seat 0
    assert fa.status == "mismatch"
