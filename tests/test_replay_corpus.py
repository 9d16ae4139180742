"""The replayer over every Tenhou XML file of the shared corpus.

Tenhou wrote these logs, so every move is legal and every recorded hand, meld,
machi, dora, ura and tenpai hand is right: any finding is a replayer bug.  One
pass over ~2,800 files (about 15 s)."""

from __future__ import annotations

import dataclasses
import gzip
from collections import Counter
from pathlib import Path

import pytest

from replay_audit.model.events import Draw, Game, RecordedDraw, RecordedWin
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.replay.table import replay_game

tenhou_xml = pytest.importorskip("replay_audit.parsers.tenhou_xml")


@pytest.mark.corpus
def test_every_corpus_xml_replays_cleanly(corpus_games: dict[Path, Game]) -> None:
    assert corpus_games
    counts: Counter[str] = Counter()
    findings = []
    for game in corpus_games.values():
        rep = replay_game(game, rules_for_go_type(game.meta.go_type))
        findings.extend(rep.findings)
        for hand in rep.hands:
            counts["hands"] += 1
            for res in hand.results:
                if isinstance(res.result, RecordedWin):
                    counts["agari"] += 1
                    counts["win_ctx"] += res.win is not None
                    counts["ura_" + str(hand.ura_source)] += res.win is not None and res.win.riichi
                elif isinstance(res.result, RecordedDraw) and res.result.kind in (
                    "exhaustive",
                    "nm",
                ):
                    counts["exhaustive"] += 1
                    counts["draw_ctx"] += res.draw is not None
                else:
                    counts["abort"] += 1
                    counts["abort_ok"] += res.abort_ok is True
    # Every AGARI got a context whose tiles, melds, machi, dora and ura matched
    # (a mismatch is a finding), every exhaustive draw's tenpai seats matched.
    assert findings == [], findings[:5]
    assert counts["win_ctx"] == counts["agari"] > 24_000
    assert counts["draw_ctx"] == counts["exhaustive"] > 3_000
    assert counts["abort_ok"] == counts["abort"] > 0


@pytest.mark.corpus
def test_a_changed_draw_disagrees_with_the_seeded_wall(corpus: Path) -> None:
    """The wall rebuilt from SHUFFLE checks every draw: swap the tiles of two
    draws by the same seat and the replay reports the wall (and nothing passes
    silently)."""
    path = sorted((corpus / "tenhou-xml" / "phoenix-2024").glob("*.xml.gz"))[0]
    game = tenhou_xml.parse_tenhou_xml(gzip.decompress(path.read_bytes()), str(path))
    rules = rules_for_go_type(game.meta.go_type)
    assert replay_game(game, rules).findings == ()
    hand = game.hands[0]
    draws = [i for i, e in enumerate(hand.events) if type(e) is Draw and e.seat == hand.dealer]
    i, j = draws[0], draws[1]
    events = list(hand.events)
    a, b = events[i], events[j]
    events[i] = dataclasses.replace(a, tile=b.tile)  # type: ignore[arg-type]
    events[j] = dataclasses.replace(b, tile=a.tile)  # type: ignore[arg-type]
    bad = dataclasses.replace(hand, events=tuple(events))
    game = dataclasses.replace(game, hands=(bad, *game.hands[1:]))
    fields = [f.field for f in replay_game(game, rules).findings]
    assert "wall" in fields
    assert "wall" not in [f.field for f in replay_game(game, rules, use_wall=False).findings]
