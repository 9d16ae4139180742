"""The games the tests of the core's replay share (``test_core_replay*.py``,
``test_core_dealt_seen.py``, ``test_core_named_contexts.py``): one reader of each
instead of a copy of the same loading code in every file.

The whole corpus comes from ``conftest.corpus_games`` (read once per process);
here are the first Phoenix game, which the planted-difference tests change copies
of, and the XML fixtures the comparisons also run on.
"""

from __future__ import annotations

import functools
import gzip

from replay_audit.model.events import Game
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from tests.conftest import CORPUS, FIXTURES, need


@functools.cache
def first_phoenix_game() -> Game:
    """The first Phoenix game of the shared corpus (skips without it).  Read once per
    process: a Game is frozen, and the tests change copies of it
    (``dataclasses.replace``), never the one kept here."""
    path = sorted(need(CORPUS / "tenhou-xml" / "phoenix-2024").glob("*.xml.gz"))[0]
    return parse_tenhou_xml(gzip.decompress(path.read_bytes()), str(path))


def fixture_xml_games() -> list[Game]:
    """The mjlog fixtures the replay comparisons run on besides the corpus: the plain
    ones, ``replay/`` and ``damaged/`` (broken on purpose, so the core meets what it
    must decline)."""
    paths = sorted(FIXTURES.glob("*.xml")) + sorted((FIXTURES / "replay").glob("*.xml"))
    paths += sorted((FIXTURES / "damaged").glob("*.xml"))
    assert len(paths) > 10
    return [parse_tenhou_xml(p.read_bytes(), str(p)) for p in paths]
