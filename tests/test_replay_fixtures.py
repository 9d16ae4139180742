"""Hand-written mjlog fixtures under ``fixtures/replay/``: each breaks exactly one
legality rule, named by the file (``clean_ron.xml`` breaks none).  They go
through the real XML parser, so the rule is caught from a log, not only from
hand-built events."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.replay.table import replay_game

tenhou_xml = pytest.importorskip("replay_audit.parsers.tenhou_xml")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replay"
FILES = sorted(FIXTURES.glob("*.xml"))


def test_fixtures_exist() -> None:
    assert len(FILES) >= 7


ALSO = {"call_after_riichi": ["draw_mid_turn"]}
"""What a fixture cannot help breaking besides its rule: a pon in riichi leaves the
caller to discard, and any discard after a call breaks riichi too (riichi_hand_changed),
so that hand ends at once, mid-turn (README.md)."""


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fixture_breaks_exactly_its_rule(path: Path) -> None:
    game = tenhou_xml.parse_tenhou_xml(path.read_bytes(), str(path))
    rep = replay_game(game, rules_for_go_type(game.meta.go_type))
    expected = [] if path.stem.startswith("clean") else [path.stem, *ALSO.get(path.stem, [])]
    assert [f.field for f in rep.findings] == expected
    for f in rep.findings:
        assert f.category == "replay" and f.file == str(path) and f.hand == "E1-0"
        assert f.seq is not None and f.seat is not None
