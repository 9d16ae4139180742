"""``replay_audit.events_table``: a log's events as an Arrow table (issue 19: a
compact columnar form of the events, useful to people who build data sets).

The table must say what the ``Game`` says, event for event, and anything it cannot
read must be an error naming the file, never a short table.
"""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import pytest

import replay_audit
from replay_audit.model.errors import LogFormatError
from replay_audit.model.events import Call, Discard, Draw, NewDora, RiichiAccept, RiichiDeclare
from replay_audit.native import HAVE_CORE
from tests.conftest import CORPUS, FIXTURES, need

pytestmark = pytest.mark.skipif(not HAVE_CORE, reason="the events table is read by the core")

KINDS = {Draw: "draw", Discard: "discard", Call: "call", RiichiDeclare: "riichi_declare"}
KINDS |= {RiichiAccept: "riichi_accept", NewDora: "new_dora"}


def _kind_counts(game: replay_audit.model.events.Game) -> Counter[str]:
    counts: Counter[str] = Counter()
    for hand in game.hands:
        for ev in hand.events:
            kind = KINDS.get(type(ev))
            if kind is not None:
                counts[kind] += 1
    return counts


def _table_counts(path: Path | bytes) -> Counter[str]:
    table = replay_audit.events_table(path)
    kinds = table.column("kind").to_pylist()
    return Counter(k for k in kinds if k in KINDS.values())


def test_fixture_table_matches_the_game() -> None:
    path = FIXTURES / "4p_chankan_keeps_ippatsu.2024070112gm-00a9-0000-c4a4ca01.xml"
    game = replay_audit.read_log(path)
    assert _table_counts(path) == _kind_counts(game)
    table = replay_audit.events_table(path)
    draws = [ev for hand in game.hands for ev in hand.events if isinstance(ev, Draw)]
    rows = [r for r in table.to_pylist() if r["kind"] == "draw"]
    assert [(r["seat"], r["tile"]) for r in rows] == [(d.seat, d.tile) for d in draws]


def test_gzip_bytes_and_paths_give_the_same_table() -> None:
    path = FIXTURES / "replay" / "clean_ron.xml"
    plain = replay_audit.events_table(path)
    assert replay_audit.events_table(gzip.compress(path.read_bytes())).equals(plain)
    assert replay_audit.events_table(str(path)).equals(plain)


def test_corpus_sample_tables_match_the_games() -> None:
    need(CORPUS)
    paths = sorted((CORPUS / "tenhou-xml").rglob("*.xml.gz"))[::50]
    assert len(paths) > 50
    for path in paths:
        assert _table_counts(path) == _kind_counts(replay_audit.read_log(path)), path


def test_what_it_cannot_read_is_an_error_naming_the_file() -> None:
    json_log = next(FIXTURES.glob("*.json"))
    with pytest.raises(LogFormatError, match="reads mjlog XML") as info:
        replay_audit.events_table(json_log)
    assert str(json_log) in str(info.value)
    bad = FIXTURES / "bad" / "tile_136.xml"
    with pytest.raises(LogFormatError, match="declines this document") as info:
        replay_audit.events_table(bad)
    assert str(bad) in str(info.value)
    with pytest.raises(LogFormatError):
        replay_audit.events_table(b"", source="empty.xml")
