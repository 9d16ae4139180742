"""Tenhou mjlog XML (``<mjloggm ver="2.3">``) -> ``replay_audit.model.events.Game``.

The decoder walks the root's children once, in document order, and turns
every tag of formats.md §3.3 into the normalized events: draws and discards
(tsumogiri inferred from ids), calls (via ``meld_code``), riichi, new dora,
disconnects and reconnects, and the results exactly as recorded.  It scores
nothing and checks only what a value's *domain* says (tile ids, seats, hand
sizes, copies); whether the moves are legal is the replayer's business.

Safety: the document comes from strangers, so the lxml parser never resolves
entities, loads a DTD or touches the network; a DOCTYPE or ENTITY declaration
is refused before parsing (no billion laughs, no XXE), and the element count,
attribute length, nesting and text content are capped or refused.

Speed: the hot path is the draw/discard tag (~90% of elements).  Those tags
are looked up in a prebuilt ``{tag: (action, seat, tile)}`` table, which both
decodes and validates them in one dict lookup; only the rare tags go through
attribute parsing.

Strict vs lenient (``strict=False``, the batch default upstream):

* a bad element inside a hand (unknown tag, bad value, missing attribute)
  drops that whole hand, records the error in ``Game.errors`` and resumes at
  the next ``INIT`` (each INIT restates scores, sticks and honba, so later hands
  stand on their own);
* a truncated document keeps every complete hand before the cut, drops the
  incomplete last hand and records a ``TruncatedLogError``;
* problems before the first INIT (GO, UN, SHUFFLE, TAIKYOKU) and documents that
  are not mjlog XML at all always raise: nothing trustworthy can be built.

Unknown *attributes* never fail: their raw values are kept (``GameMeta.extra``,
``Player.extra`` or ``HandLog.extra`` as ``("TAG.attr", value)``) and a warning
names them in ``Game.warnings``.

The package: ``document`` (``parse_tenhou_xml``) <- ``builder`` (the walk) <-
``game_state`` (per-game state, attribute readers, header tags) and ``hand``
<- ``results`` <- ``hand_base`` (one hand's tags); ``tags``, ``limits`` and
``values`` hold the tables, the limits and the pure value readers.  The old
module's names are re-exported here.

Must not: score, replay or audit; the parser only reads what the log says.
"""

from __future__ import annotations

from replay_audit.parsers.tenhou_xml.document import parse_tenhou_xml
from replay_audit.parsers.tenhou_xml.limits import MAX_ATTRIBUTE_LENGTH, MAX_ELEMENTS
from replay_audit.parsers.tenhou_xml.tags import _VALID_IDS as _VALID_IDS
from replay_audit.parsers.tenhou_xml.tags import (
    DISCARD_TAGS,
    DRAW_KINDS,
    DRAW_TAGS,
    TOUTENKOU,
    TOUTENKOU_MISSING_KINDS,
)
from replay_audit.parsers.tenhou_xml.values import _valid_deal as _valid_deal
from replay_audit.parsers.tenhou_xml.values import log_id_from_name

__all__ = [
    "DISCARD_TAGS",
    "DRAW_KINDS",
    "DRAW_TAGS",
    "MAX_ATTRIBUTE_LENGTH",
    "MAX_ELEMENTS",
    "TOUTENKOU",
    "TOUTENKOU_MISSING_KINDS",
    "log_id_from_name",
    "parse_tenhou_xml",
]
