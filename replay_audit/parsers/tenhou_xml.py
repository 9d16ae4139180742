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
"""

from __future__ import annotations

import dataclasses
import gc
import re
from collections.abc import Callable, Iterator
from typing import Final, TypedDict, TypeVar
from urllib.parse import unquote

from lxml import etree

from replay_audit.model.errors import (
    InvalidValueError,
    LimitExceededError,
    LogFormatError,
    NotALogError,
    TruncatedLogError,
    UnknownTagError,
)
from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    Event,
    Game,
    GameMeta,
    HandLog,
    NewDora,
    Owari,
    Player,
    Reconnect,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
    RiichiDeclare,
    hand_label,
)
from replay_audit.model.tiles import SANMA_MISSING_KINDS
from replay_audit.parsers.meld_code import decode_meld

MAX_ELEMENTS: Final = 200_000
"""A full hanchan has ~1,500 elements; anything near this is not a game log."""
MAX_ATTRIBUTE_LENGTH: Final = 65_536
"""The longest real attribute is the SHUFFLE seed (~3,300 characters)."""

DRAW_TAGS: Final = "TUVW"
DISCARD_TAGS: Final = "DEFG"
DRAW_KINDS: Final = ("exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4")

_LOG_ID = re.compile(r"\d{8}(?:\d{2})?gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")
"""``YYYYMMDDHHgm-TTTT-LLLL-hhhhhhhh``: the date and hour, the GO type in hex, the
lobby and a hash.  2006 ids carry no hour (``20061028gm-0001-0000-1af63a72``,
formats.md §6.12), and a championship lobby's number has five digits
(``2021061315gm-0641-11000-f25efe24``, ``../shared/cases``)."""
_LOG_ID_LAST = re.compile(r"(?:^|[._ -])(" + _LOG_ID.pattern + r")$")
"""A log id ending a descriptive name, after a dot, underscore, dash or space."""
_SUFFIXES = (".gz", ".xml", ".mjlog", ".txt")
_TW = re.compile(r"&tw=\d+$")

_DRAW, _DISCARD = 0, 1
TOUTENKOU: Final = 112
"""Tile-set key of a Toutenkou game (its tile count; 4 and 3 key the others)."""
_TEXT_AFTER_TAG = re.compile(rb">[^<]")
_T = TypeVar("_T")


class _Place(TypedDict):
    """The error-location keywords every document-level error is raised with."""

    source: str | None
    log_id: str | None


TOUTENKOU_MISSING_KINDS: Final = SANMA_MISSING_KINDS - {4}
"""Toutenkou (GO 0x800 with 0x10) keeps 1m, 5m and 9m: 112 tiles (scoring-rules.md §15)."""

_MISSING_KINDS: Final = {
    4: frozenset[int](),
    3: SANMA_MISSING_KINDS,
    TOUTENKOU: TOUTENKOU_MISSING_KINDS,
}


def _tile_tag_table(tile_set: int) -> dict[str, tuple[int, int, int]]:
    """``{"T12": (_DRAW, 0, 12), "G135": (_DISCARD, 3, 135), ...}`` for every id
    that can exist in a game with that tile set (4, 3 or ``TOUTENKOU``)."""
    table: dict[str, tuple[int, int, int]] = {}
    missing = _MISSING_KINDS[tile_set]
    for tile in range(136):
        if tile >> 2 in missing:
            continue
        for seat in range(4):
            table[f"{DRAW_TAGS[seat]}{tile}"] = (_DRAW, seat, tile)
            table[f"{DISCARD_TAGS[seat]}{tile}"] = (_DISCARD, seat, tile)
    return table


_TILE_TAGS: Final = {key: _tile_tag_table(key) for key in _MISSING_KINDS}
_VALID_IDS: Final = {
    key: frozenset(t for t in range(136) if t >> 2 not in missing)
    for key, missing in _MISSING_KINDS.items()
}

_SAFE_PARSER_ARGS: Final = {
    "resolve_entities": False,
    "no_network": True,
    "dtd_validation": False,
    "load_dtd": False,
    "huge_tree": False,
    "remove_comments": True,
}


def _xml_parser(recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(recover=recover, **_SAFE_PARSER_ARGS)


# ------------------------------------------------------------------- public API


def log_id_from_name(name: str) -> str | None:
    """The Tenhou log id a file name carries, or None.

    >>> log_id_from_name("logs/2019021004gm-00a9-0000-e2f6516d&tw=2.mjlog")
    '2019021004gm-00a9-0000-e2f6516d'
    >>> log_id_from_name("double_ron.2024040112gm-00a9-0000-0123abcd.xml")
    '2024040112gm-00a9-0000-0123abcd'
    >>> log_id_from_name("archives/phoenix-2024.db::2024040112gm-00a9-0000-0123abcd")
    '2024040112gm-00a9-0000-0123abcd'
    >>> log_id_from_name("3p_kita_2024030112gm-00b9-0000-3a7c0f19.xml")
    '2024030112gm-00b9-0000-3a7c0f19'
    >>> log_id_from_name("era2006_20061028gm-0001-0000-1af63a72.xml.gz")
    '20061028gm-0001-0000-1af63a72'
    >>> log_id_from_name("2021061315gm-0641-11000-f25efe24.xml")
    '2021061315gm-0641-11000-f25efe24'
    >>> log_id_from_name("bye.xml.gz") is None
    True
    >>> log_id_from_name("x2024040112gm-00a9-0000-0123abcd.xml") is None  # not a word of its own
    True
    """
    # an archive member (``replay_audit.io.archive``) is named DB::LOG_ID
    base = name.replace("\\", "/").rsplit("/", 1)[-1].rsplit("::", 1)[-1]
    changed = True
    while changed:
        changed = False
        for suffix in _SUFFIXES:
            if base.lower().endswith(suffix):
                base = base[: -len(suffix)]
                changed = True
        stripped = _TW.sub("", base)
        if stripped != base:
            base, changed = stripped, True
    # a descriptive name may end in the id: "double_ron.2024...-0123abcd.xml",
    # "3p_kita_2024...-3a7c0f19.xml"
    m = _LOG_ID_LAST.search(base)
    return m.group(1) if m else None


def parse_tenhou_xml(data: bytes, source: str = "<bytes>", strict: bool = True) -> Game:
    """Decode one mjlog document (already decompressed) into a ``Game``.

    Raises ``NotALogError`` (empty, HTML, not XML, other root),
    ``TruncatedLogError`` (document or game cut short), ``UnknownTagError``,
    ``InvalidValueError``, ``LimitExceededError`` or ``LogFormatError``, each
    naming ``source``, the log id, the hand label and the element index.  With
    ``strict=False`` bad hands and truncation are recorded in ``Game.errors``
    instead (see the module docstring for what is kept).
    """
    log_id = log_id_from_name(source)
    place: _Place = {"source": source, "log_id": log_id}
    # One event object per element and no cycles among them: the cyclic GC
    # would only walk them again and again (~8% of the parse), so it waits.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        root, truncated = _parse_document(data, strict, place)
        builder = _Builder(source, log_id, strict, data)
        return builder.build(root, truncated)
    finally:
        if paused:
            gc.enable()


# ------------------------------------------------------------- document level


def _parse_document(
    data: bytes, strict: bool, place: _Place
) -> tuple[etree._Element, TruncatedLogError | None]:
    """Parse safely; return the root and, in lenient mode, the truncation error
    when the document had to be recovered."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        raise NotALogError("empty file", **place)
    if not head.startswith(b"<"):
        raise NotALogError("not XML: does not start with '<'", **place)
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        if b"<html" in head.lower() or b"<!doctype html" in head.lower():
            raise NotALogError("an HTML page, not a game log", **place)
        raise LogFormatError("DOCTYPE/ENTITY declarations are refused in game logs", **place)
    try:
        root = etree.fromstring(data, _xml_parser())
    except etree.XMLSyntaxError as exc:
        where = f"line {exc.position[0]}, column {exc.position[1]}"
        if b"<mjloggm" not in head:
            raise NotALogError(f"not an mjlog XML document ({exc.msg})", **place) from exc
        if data.rstrip().endswith(b"</mjloggm>"):
            raise LogFormatError(f"malformed XML at {where}: {exc.msg}", **place) from exc
        error = TruncatedLogError(f"document cut short at {where}: {exc.msg}", **place)
        if strict:
            raise error from exc
        root = etree.fromstring(data, _xml_parser(recover=True))
        if root is None or root.tag != "mjloggm":
            raise error from exc
        if len(root) and not data.rstrip().endswith(b">"):
            root.remove(root[-1])  # the cut element may have lost attributes
        return root, error
    if root.tag != "mjloggm":
        kind = "an HTML page" if str(root.tag).lower() == "html" else f"<{root.tag}>"
        raise NotALogError(f"root element is {kind}, not <mjloggm>", **place)
    return root, None


def _check_document(root: etree._Element, data: bytes, place: _Place) -> None:
    """Refuse what a log never has: too many elements, nesting, text, CDATA.

    Byte-level tests clear a normal (flat, text-free) file in a few
    microseconds; only a file that fails them gets the exact tree checks, so a
    pretty-printed log (whitespace between tags) is still accepted."""
    if len(root) > MAX_ELEMENTS:
        raise LimitExceededError(f"{len(root)} elements (limit {MAX_ELEMENTS})", **place)
    if (
        data.find(b"</") == data.rfind(b"</")
        and b"<![CDATA[" not in data
        and _TEXT_AFTER_TAG.search(data) is None
    ):
        return
    for index, el in enumerate(root):
        if len(el):
            raise LogFormatError(
                f"nested element <{el[0].tag}> inside <{el.tag}> (logs are flat)",
                index=index,
                **place,
            )
    text = etree.tostring(root, method="text", encoding="unicode").strip()
    if text:
        raise LogFormatError(f"text content {text[:40]!r} (logs have none)", **place)


# ----------------------------------------------------------------- the builder


class _HandError(Exception):
    """Internal: wraps a located error so lenient mode can resync."""


class _Builder:
    """Holds the per-game state while the elements are walked once."""

    def __init__(self, source: str, log_id: str | None, strict: bool, data: bytes) -> None:
        self.source = source
        self.data = data
        self.short = len(data) <= MAX_ATTRIBUTE_LENGTH
        """No attribute of a document this short can pass the length limit."""
        self.log_id = log_id
        self.strict = strict
        self.players = 4
        self.tile_set = 4
        """Which ids exist: 4, 3 or ``TOUTENKOU`` (keys ``_TILE_TAGS``/``_VALID_IDS``)."""
        self.go_type: int | None = None
        self.lobby: int | None = None
        self.seed: str | None = None
        self.stepless_reach = False
        """A REACH without ``step`` was seen: the 2006 format."""
        self.meta_extra: list[tuple[str, str]] = []
        self.player_list: tuple[Player, ...] | None = None
        self.warnings: list[str] = []
        self.errors: list[LogFormatError] = []
        self.pre_game: list[Event] = []
        self.hands: list[HandLog] = []
        self.owari: Owari | None = None
        self.attributes_read = 0  # attributes of the non-tile elements
        self.truncated: TruncatedLogError | None = None
        self._between: list[Event] = []
        """BYE/UN seen after a hand's result, waiting for the next INIT."""
        self._result_seen = False

    @property
    def gari(self) -> bool:
        """Toutenkou: 1m, 5m and 9m set aside like a North are legal meld codes."""
        return self.tile_set == TOUTENKOU

    # -- helpers -----------------------------------------------------------------

    def _warn(self, message: str, index: int, hand: str | None = None) -> None:
        where = f"hand {hand}, " if hand else ""
        self.warnings.append(f"{where}element {index}: {message}")

    def _attrs(self, el: etree._Element, index: int) -> dict[str, str]:
        attrs = dict(el.attrib)
        if attrs:
            self.attributes_read += len(attrs)
            if not self.short and max(map(len, attrs.values())) > MAX_ATTRIBUTE_LENGTH:
                key = max(attrs, key=lambda k: len(attrs[k]))
                raise LimitExceededError(
                    f"<{el.tag} {key}=...> is {len(attrs[key])} characters long "
                    f"(limit {MAX_ATTRIBUTE_LENGTH})",
                    index=index,
                )
        return attrs

    def _seat(self, value: str, what: str) -> int:
        seat = int(value)
        if not 0 <= seat < self.players:
            raise InvalidValueError(f"{what}={seat}: seats are 0-{self.players - 1}")
        return seat

    def _tiles(self, value: str, what: str) -> tuple[int, ...]:
        if not value:
            return ()
        tiles = tuple(map(int, value.split(",")))
        valid = _VALID_IDS[self.tile_set]
        if not valid.issuperset(tiles):
            bad = next(t for t in tiles if t not in valid)
            raise InvalidValueError(f"{what}: tile id {bad} does not exist in this game")
        if len(set(tiles)) != len(tiles):
            raise InvalidValueError(f"{what}: the same tile id twice (a fifth copy): {value}")
        return tiles

    def _leftovers(
        self, tag: str, attrs: dict[str, str], index: int, hand: str | None
    ) -> list[tuple[str, str]]:
        extra = [(f"{tag}.{k}", v) for k, v in attrs.items()]
        for key, _ in extra:
            self._warn(f"unknown attribute {key} kept as raw text", index, hand)
        return extra

    # -- the walk --------------------------------------------------------------------

    def build(self, root: etree._Element, truncated: TruncatedLogError | None) -> Game:
        place: _Place = {"source": self.source, "log_id": self.log_id}
        _check_document(root, self.data, place)
        self.truncated = truncated
        root_attrs = dict(root.attrib)
        self.attributes_read += len(root_attrs)
        version = root_attrs.pop("ver", "2.3")
        if version != "2.3":
            self.meta_extra.append(("mjloggm.ver", version))
        self.meta_extra.extend(self._leftovers("mjloggm", root_attrs, 0, None))
        it = enumerate(root)
        for index, el in it:  # header: everything before the first INIT
            tag = el.tag
            if tag == "INIT":
                self._walk_hands(index, el, it)
                break
            try:
                self._header(tag, el, index)
            except LogFormatError as exc:
                raise exc.located(index=index, **place) from None
            except (ValueError, KeyError, IndexError) as exc:
                raise _bad_value(tag, exc).located(index=index, **place) from exc
        self._check_tile_attributes(root)
        self.data = b""
        return self._finish(truncated)

    def _header(self, tag: object, el: etree._Element, index: int) -> None:
        if tag == "SHUFFLE":
            attrs = self._attrs(el, index)
            self.seed = attrs.pop("seed", None)
            ref = attrs.pop("ref", "")
            if ref:
                self.meta_extra.append(("SHUFFLE.ref", ref))
            self.meta_extra.extend(self._leftovers("SHUFFLE", attrs, index, None))
        elif tag == "GO":
            attrs = self._attrs(el, index)
            self.go_type = int(attrs.pop("type"))
            self.players = 3 if self.go_type & 0x10 else 4
            self.tile_set = self.players
            if self.players == 3 and self.go_type & 0x800:
                self.tile_set = TOUTENKOU
            lobby = attrs.pop("lobby", None)
            self.lobby = int(lobby) if lobby is not None else None
            for key in ("title", "rule", "ranking", "csrule"):
                if key in attrs:
                    self.meta_extra.append((key, attrs.pop(key)))
            self.meta_extra.extend(self._leftovers("GO", attrs, index, None))
        elif tag == "UN":
            event = self._un(el, index, None)
            if event is not None:
                self.pre_game.append(event)
        elif tag == "BYE":
            attrs = self._attrs(el, index)
            self.pre_game.append(Disconnect(index, self._seat(attrs.pop("who"), "who")))
            self._leftovers("BYE", attrs, index, None)
        elif tag == "TAIKYOKU":
            attrs = self._attrs(el, index)
            oya = attrs.pop("oya", None)
            if oya is not None:
                self._seat(oya, "oya")
                if oya != "0":
                    self.meta_extra.append(("TAIKYOKU.oya", oya))
            self.meta_extra.extend(self._leftovers("TAIKYOKU", attrs, index, None))
        else:
            self._unknown(tag, el, index)

    def _unknown(self, tag: object, el: etree._Element, index: int) -> None:
        if not isinstance(tag, str):
            raise LogFormatError("processing instruction (logs have none)")
        if tag[:1] in DRAW_TAGS + DISCARD_TAGS and tag[1:].isdigit():
            raise InvalidValueError(f"<{tag}/>: tile id {tag[1:]} does not exist in this game")
        raise UnknownTagError(f"unknown tag <{tag}>")

    def _un(self, el: etree._Element, index: int, hand: str | None) -> Reconnect | None:
        attrs = self._attrs(el, index)
        names = [k for k in ("n0", "n1", "n2", "n3") if k in attrs]
        if len(names) == 1:
            seat = self._seat(names[0][1], "UN seat")
            name = unquote(attrs.pop(names[0]))
            self._leftovers("UN", attrs, index, hand)
            return Reconnect(index, seat, name)
        if len(names) < 3:
            raise InvalidValueError(f"<UN> with {len(names)} names: neither a list nor a reconnect")
        if self.player_list is not None:
            self._warn("a second player list; the first one is kept", index, hand)
            return None
        raw = [unquote(attrs.pop(f"n{i}", "")) for i in range(4)]
        dan = _split(attrs.pop("dan", None), int)
        rate = _split(attrs.pop("rate", None), float)
        sx = _split(attrs.pop("sx", None), str)
        per_seat: dict[str, list[str]] = {}
        for key in ("gold", "rc"):
            if key in attrs:
                per_seat[key] = attrs.pop(key).split(",")
        unknown = self._leftovers("UN", attrs, index, hand)
        self.meta_extra.extend(unknown)
        players = []
        for i in range(4):
            extra = tuple((k, v[i]) for k, v in per_seat.items() if i < len(v))
            players.append(
                Player(
                    raw[i],
                    dan[i] if dan and i < len(dan) else None,
                    rate[i] if rate and i < len(rate) else None,
                    sx[i] if sx and i < len(sx) else None,
                    extra,
                )
            )
        self.player_list = tuple(players)
        return None

    def _walk_hands(
        self, first: int, first_el: etree._Element, it: Iterator[tuple[int, etree._Element]]
    ) -> None:
        """The hot loop: from the first INIT to the end of the document."""
        place: _Place = {"source": self.source, "log_id": self.log_id}
        get_tile = _TILE_TAGS[self.tile_set].get
        new = object.__new__
        set_seq, set_seat, set_tile = _DRAW_SETTERS
        set_dseq, set_dseat, set_dtile, set_tsumogiri = _DISCARD_SETTERS
        pending_el: tuple[int, etree._Element] | None = (first, first_el)
        obj: Draw | Discard  # a bare annotation: no code runs
        while pending_el is not None:
            index, el = pending_el
            pending_el = None
            try:
                hand = _HandState(self, index, self._attrs(el, index))
            except LogFormatError as exc:
                self._hand_failed(exc.located(index=index, **place))
                pending_el = self._resync(it)
                continue
            append = hand.events.append
            last_draw = hand.last_draw
            try:
                for index, el in it:
                    hit = get_tile(el.tag)
                    if hit is not None:
                        # Draw/Discard built in place (see ``_slot_setters``):
                        # a helper function's call costs as much as the setters.
                        action, seat, tile = hit
                        if action:
                            obj = new(Discard)
                            set_dseq(obj, index)
                            set_dseat(obj, seat)
                            set_dtile(obj, tile)
                            set_tsumogiri(obj, tile == last_draw[seat])
                            last_draw[seat] = -1
                        else:
                            obj = new(Draw)
                            set_seq(obj, index)
                            set_seat(obj, seat)
                            set_tile(obj, tile)
                            last_draw[seat] = tile
                        append(obj)
                        continue
                    tag = el.tag
                    if tag == "INIT":
                        pending_el = (index, el)
                        break
                    hand.other(tag, el, index)
            except LogFormatError as exc:
                self._hand_failed(exc.located(hand=hand.label, index=index, **place))
                pending_el = self._resync(it)
                continue
            except (ValueError, KeyError, IndexError) as exc:
                error = _bad_value(el.tag, exc).located(hand=hand.label, index=index, **place)
                self._hand_failed(error)
                pending_el = self._resync(it)
                continue
            if pending_el is None:  # end of document: trailing BYE/UN stay with the last hand
                hand.events.extend(self._between)
                self._between.clear()
            self._close_hand(hand)

    def _hand_failed(self, error: LogFormatError) -> None:
        if self.strict:
            raise error
        self.errors.append(error)

    def _resync(
        self, it: Iterator[tuple[int, etree._Element]]
    ) -> tuple[int, etree._Element] | None:
        for index, el in it:
            if el.tag == "INIT":
                return index, el
        return None

    def _close_hand(self, hand: _HandState) -> None:
        try:
            self.hands.append(hand.finish(len(self.hands)))
        except LogFormatError as exc:
            if isinstance(exc, TruncatedLogError) and self.truncated is not None:
                return  # the cut document's last hand: the document-level error says it all
            error = exc.located(hand=hand.label, source=self.source, log_id=self.log_id)
            if self.strict:
                raise error from None
            self.errors.append(error)

    def _check_tile_attributes(self, root: etree._Element) -> None:
        """Tile tags are decoded without reading their attributes (speed).  If
        the document holds more ``name="`` pairs than the other tags had, some
        tile tag carried one: only then look, and warn about each."""
        if self.data.count(b'="') + self.data.count(b"='") <= self.attributes_read:
            return
        table = _TILE_TAGS[self.tile_set]
        for index, el in enumerate(root):
            if el.tag in table and len(el.attrib):
                for key in el.attrib:
                    self._warn(f"unknown attribute {el.tag}.{key} ignored", index)

    def _finish(self, truncated: TruncatedLogError | None) -> Game:
        place: _Place = {"source": self.source, "log_id": self.log_id}
        if self.player_list is None:
            players: tuple[Player, ...] = ()
            if self.hands or self.go_type is not None:
                self.warnings.append("no player list (UN) in the log")
        else:
            players = self.player_list[: self.players]
        if truncated is not None:
            self.errors.append(truncated)
        elif self.owari is None:
            last = self.hands[-1] if self.hands else None
            if last is None or not last.results:
                error = TruncatedLogError(
                    "the game ends without a result or final scores (owari)",
                    hand=last.label if last else None,
                    **place,
                )
                if self.strict:
                    raise error
                self.errors.append(error)
            # else: a game whose last hand is whole but has no final scores; the
            # auditor reports it (``Game.owari is None``), as it does for JSON.
        meta = GameMeta(
            source=self.source,
            log_id=self.log_id,
            format="tenhou-xml",
            players=self.players,
            go_type=self.go_type,
            lobby=self.lobby,
            aka=not (self.go_type or 0) & 0x02,
            kuitan=not (self.go_type or 0) & 0x04,
            hanchan=bool((self.go_type or 0) & 0x08),
            seed=self.seed,
            stepless_reach=self.stepless_reach,
            extra=tuple(self.meta_extra),
        )
        return Game(
            meta=meta,
            players=players,
            hands=tuple(self.hands),
            owari=self.owari,
            pre_game=tuple(self.pre_game),
            warnings=tuple(self.warnings),
            errors=tuple(self.errors),
        )


class _HandState:
    """One hand being read: INIT values, its events, per-seat draw memory."""

    __slots__ = (
        "b",
        "chips",
        "dealer",
        "dice",
        "dora",
        "events",
        "extra",
        "haipai",
        "honba",
        "index",
        "label",
        "last_draw",
        "legacy",
        "round_index",
        "scores",
        "seq",
        "sticks",
        "waiting",
    )

    def __init__(self, b: _Builder, index: int, attrs: dict[str, str]) -> None:
        self.b = b
        self.seq = index
        self.label: str | None = None
        self.events: list[Event] = []
        self.last_draw = [-1, -1, -1, -1]
        self.legacy: list[int] = []
        """Element indices of 2006 single REACH tags (no step) in this hand."""
        self.waiting: list[Event] = []
        self.extra: list[tuple[str, str]] = []
        try:
            self._init(attrs, index)
        except LogFormatError as exc:
            raise exc.located(
                source=b.source, log_id=b.log_id, hand=self.label, index=index
            ) from None
        except (ValueError, KeyError, IndexError) as exc:
            raise _bad_value("INIT", exc).located(
                source=b.source, log_id=b.log_id, hand=self.label, index=index
            ) from exc

    def _init(self, attrs: dict[str, str], index: int) -> None:
        b = self.b
        seed = [int(v) for v in attrs.pop("seed").split(",")]
        if len(seed) != 6:
            raise InvalidValueError(f"INIT seed has {len(seed)} values, not 6")
        self.round_index, self.honba, self.sticks, d1, d2, dora = seed
        if self.round_index < 0 or self.honba < 0 or self.sticks < 0:
            raise InvalidValueError(f"INIT seed {seed}: negative round, honba or sticks")
        self.label = hand_label(self.round_index, self.honba)
        if not (0 <= d1 <= 5 and 0 <= d2 <= 5):
            raise InvalidValueError(f"INIT seed dice {d1 + 1},{d2 + 1} are not 1-6")
        self.dice = (d1 + 1, d2 + 1)
        ten = [100 * int(v) for v in attrs.pop("ten").split(",")]
        if len(ten) != 4:
            raise InvalidValueError(f"INIT ten has {len(ten)} values, not 4")
        self.scores = tuple(ten)
        self.dealer = b._seat(attrs.pop("oya"), "oya")
        raw = (
            attrs.pop("hai0", ""),
            attrs.pop("hai1", ""),
            attrs.pop("hai2", ""),
            attrs.pop("hai3", ""),
        )
        haipai = _valid_deal(raw, dora, b.players, _VALID_IDS[b.tile_set])
        if haipai is None:  # something is wrong: find it, in order, for the right message
            haipai = self._deal_error(raw, dora, index)
        self.haipai = haipai
        self.dora = dora
        chip = attrs.pop("chip", None)
        self.chips = tuple(int(v) for v in chip.split(",")) if chip is not None else None
        if "shuffle" in attrs:
            self.extra.append(("shuffle", attrs.pop("shuffle")))
        self.extra.extend(b._leftovers("INIT", attrs, index, self.label))
        # connection events between the previous result and this INIT belong here
        b._result_seen = False
        if b._between:
            self.events.extend(b._between)
            b._between.clear()

    def _deal_error(
        self, raw: tuple[str, ...], dora: int, index: int
    ) -> tuple[tuple[int, ...], ...]:
        """The deal checked one value at a time (``_valid_deal`` refused it):
        raises the first problem with its own message."""
        b = self.b
        hands = []
        for seat in range(4):
            tiles = b._tiles(raw[seat], f"hai{seat}")
            expected = 0 if seat >= b.players else 13
            if len(tiles) != expected:
                raise InvalidValueError(
                    f"hai{seat} has {len(tiles)} tiles, not {expected}", index=index
                )
            hands.append(tiles)
        b._tiles(str(dora), "seed dora")
        dealt = [t for h in hands for t in h]
        dealt.append(dora)
        if len(set(dealt)) != len(dealt):
            raise InvalidValueError("the deal holds the same tile id twice (a fifth copy)")
        return tuple(hands)  # unreachable while _valid_deal is right

    # -- rare tags -------------------------------------------------------------------

    def other(self, tag: object, el: etree._Element, index: int) -> None:
        b = self.b
        if tag == "N":
            attrs = b._attrs(el, index)
            who = b._seat(attrs.pop("who"), "who")
            self.events.append(Call(index, who, decode_meld(int(attrs.pop("m")), who, gari=b.gari)))
            self.last_draw[who] = -1
            self._extra("N", attrs, index)
        elif tag == "REACH":
            self._reach(b._attrs(el, index), index)
        elif tag == "DORA":
            attrs = b._attrs(el, index)
            (tile,) = b._tiles(attrs.pop("hai"), "DORA hai")
            self.events.append(NewDora(index, tile))
            self._extra("DORA", attrs, index)
        elif tag == "AGARI":
            self._between_flush()
            self.events.append(self._agari(b._attrs(el, index), index))
        elif tag == "RYUUKYOKU":
            self._between_flush()
            self.events.append(self._ryuukyoku(b._attrs(el, index), index))
        elif tag == "BYE":
            attrs = b._attrs(el, index)
            self._connection(Disconnect(index, b._seat(attrs.pop("who"), "who")))
            self._extra("BYE", attrs, index)
        elif tag == "UN":
            event = b._un(el, index, self.label)
            if event is not None:
                self._connection(event)
        else:
            b._unknown(tag, el, index)

    def _extra(self, tag: str, attrs: dict[str, str], index: int) -> None:
        if attrs:
            self.extra.extend(self.b._leftovers(tag, attrs, index, self.label))

    def _connection(self, event: Event) -> None:
        """After the hand's result a BYE/UN belongs to the gap before the next
        hand: keep it aside and give it to the next INIT (or to this hand's end
        if no hand follows)."""
        if self.b._result_seen:
            self.b._between.append(event)
        else:
            self.events.append(event)

    def _between_flush(self) -> None:
        if self.b._between:  # e.g. UN between the two AGARI of a double ron
            self.events.extend(self.b._between)
            self.b._between.clear()

    def _reach(self, attrs: dict[str, str], index: int) -> None:
        who = self.b._seat(attrs.pop("who"), "who")
        step = attrs.pop("step", None)
        ten = attrs.pop("ten", None)
        self._extra("REACH", attrs, index)
        if step == "1":
            self.events.append(RiichiDeclare(index, who))
        elif step == "2":
            scores = tuple(100 * int(v) for v in ten.split(",")) if ten else None
            if scores is not None and len(scores) != 4:
                raise InvalidValueError(f"REACH ten has {len(scores)} values, not 4")
            self.events.append(RiichiAccept(index, who, scores))
        elif step is None:  # 2006: one tag, accepted after the discard unless ronned
            self.events.append(RiichiDeclare(index, who))
            self.legacy.append(index)
            self.b.stepless_reach = True
        else:
            raise InvalidValueError(f"REACH step={step!r}: steps are 1 and 2")

    def _agari(self, attrs: dict[str, str], index: int) -> RecordedWin:
        b = self.b
        who = b._seat(attrs.pop("who"), "who")
        from_who = b._seat(attrs.pop("fromWho"), "fromWho")
        honba, sticks = _pair(attrs.pop("ba"), "ba")
        hand = b._tiles(attrs.pop("hai"), "hai")
        codes = attrs.pop("m", "")
        melds = tuple(
            decode_meld(int(m), who, gari=b.gari) for m in reversed(codes.split(",")) if m
        )
        sets = sum(1 for m in melds if m.kind != "kita")
        if len(hand) + 3 * sets != 14:
            raise InvalidValueError(
                f"AGARI hand has {len(hand)} tiles with {sets} melds (needs 14 - 3 per meld)"
            )
        machi = int(attrs.pop("machi"))
        if machi not in hand:
            raise InvalidValueError(f"AGARI machi {machi} is not in the hand")
        ten = [int(v) for v in attrs.pop("ten").split(",")]
        if len(ten) != 3:
            raise InvalidValueError(f"AGARI ten has {len(ten)} values, not 3 (fu,points,limit)")
        yaku_raw = [int(v) for v in attrs.pop("yaku", "").split(",") if v]
        if len(yaku_raw) % 2:
            raise InvalidValueError("AGARI yaku has an odd number of values")
        yaku = tuple(zip(yaku_raw[::2], yaku_raw[1::2], strict=True))
        yakuman = tuple(int(v) for v in attrs.pop("yakuman", "").split(",") if v)
        dora = b._tiles(attrs.pop("doraHai", ""), "doraHai")
        ura = b._tiles(attrs.pop("doraHaiUra", ""), "doraHaiUra")
        pao = attrs.pop("paoWho", None)
        sc = _sc(attrs.pop("sc"))
        chip_raw = attrs.pop("chip", None)
        chip = None
        if chip_raw is not None:
            values = [int(v) for v in chip_raw.split(",") if v]
            chip = tuple(zip(values[::2], values[1::2], strict=True))
        owari, ratio = self._result_tail("AGARI", attrs, index)
        return RecordedWin(
            seq=index,
            seat=who,
            from_seat=from_who,
            hand=hand,
            melds=melds,
            win_tile=machi,
            fu=ten[0],
            points=ten[1],
            limit=ten[2],
            yaku=yaku,
            yakuman=yakuman,
            dora=dora,
            ura=ura,
            honba=honba,
            sticks=sticks,
            scores_before=sc[0],
            deltas=sc[1],
            pao_seat=b._seat(pao, "paoWho") if pao is not None else None,
            chips_before=sc[2],
            chip_deltas=sc[3],
            chip=chip,
            ratio=ratio,
            owari=owari,
        )

    def _result_tail(
        self, tag: str, attrs: dict[str, str], index: int
    ) -> tuple[Owari | None, str | None]:
        """What AGARI and RYUUKYOKU share after their own attributes: ``owari``
        (chip values kept raw in the game's extras), ``ratio``, the unknown
        attributes, and the note that a result has been seen."""
        b = self.b
        owari, owari_chips = _owari(attrs.pop("owari", None))
        if owari_chips is not None:
            b.meta_extra.append(("owari.chips", owari_chips))
        ratio = attrs.pop("ratio", None)
        self._extra(tag, attrs, index)
        if owari is not None:
            b.owari = owari
        b._result_seen = True
        return owari, ratio

    def _ryuukyoku(self, attrs: dict[str, str], index: int) -> RecordedDraw:
        b = self.b
        kind = attrs.pop("type", "exhaustive")
        if kind not in DRAW_KINDS:
            b._warn(f"unknown RYUUKYOKU type {kind!r} kept as is", index, self.label)
        honba, sticks = _pair(attrs.pop("ba"), "ba")
        sc = _sc(attrs.pop("sc"))
        shown = []
        for seat in range(4):
            raw = attrs.pop(f"hai{seat}", None)
            if raw is not None:
                if seat >= b.players:
                    raise InvalidValueError(f"RYUUKYOKU shows hai{seat} in a 3-player game")
                tiles = b._tiles(raw, f"hai{seat}")
                if len(tiles) % 3 == 0 or len(tiles) > 14:
                    raise InvalidValueError(f"RYUUKYOKU hai{seat} has {len(tiles)} tiles")
                shown.append((seat, tiles))
        owari, ratio = self._result_tail("RYUUKYOKU", attrs, index)
        return RecordedDraw(
            seq=index,
            kind=kind,
            honba=honba,
            sticks=sticks,
            scores_before=sc[0],
            deltas=sc[1],
            shown=tuple(shown),
            chips_before=sc[2],
            chip_deltas=sc[3],
            ratio=ratio,
            owari=owari,
        )

    def finish(self, position: int) -> HandLog:
        if not self.b._result_seen:
            raise TruncatedLogError("the hand has no AGARI or RYUUKYOKU", index=self.seq)
        if self.legacy:
            self.events = _legacy_accepts(self.events, frozenset(self.legacy))
        return HandLog(
            index=position,
            seq=self.seq,
            round_index=self.round_index,
            honba=self.honba,
            sticks=self.sticks,
            dealer=self.dealer,
            scores=self.scores,
            haipai=self.haipai,
            dora_indicator=self.dora,
            dice=self.dice,
            events=tuple(self.events),
            chips=self.chips,
            extra=tuple(self.extra),
        )


def _valid_deal(
    raw: tuple[str, ...], dora: int, players: int, valid: frozenset[int]
) -> tuple[tuple[int, ...], ...] | None:
    """The four INIT ``hai`` values as tiles when the whole deal is right (13
    tiles a seat, none in 3-player's fourth seat, every id valid, no id twice,
    the dora indicator included), else None.

    One check over the 53 tiles instead of one per seat: a deal is checked
    on every INIT and is nearly always right, so ``_HandState._deal_error``
    redoes it seat by seat only when it is not (and raises what the first
    failing check says)."""
    try:
        hands = tuple(tuple(map(int, v.split(","))) if v else () for v in raw)
    except ValueError:
        return None
    dealt = [*hands[0], *hands[1], *hands[2], *hands[3], dora]
    if (
        len(dealt) != 13 * players + 1
        or any(len(h) != (13 if seat < players else 0) for seat, h in enumerate(hands))
        or not valid.issuperset(dealt)
        or len(set(dealt)) != len(dealt)
    ):
        return None
    return hands


def _legacy_accepts(events: list[Event], declares: frozenset[int]) -> list[Event]:
    """2006 logs write riichi as one REACH tag.  The stick is placed when the
    declarer's next discard is not ronned: insert ``RiichiAccept(legacy=True)``
    (with the discard's index) right after that discard unless an AGARI follows
    it (formats.md §6.12)."""
    out: list[Event] = []
    declared: set[int] = set()
    after: Discard | None = None
    for event in events:
        if after is not None:
            if not isinstance(event, RecordedWin):
                out.append(RiichiAccept(after.seq, after.seat, None, legacy=True))
            after = None
        out.append(event)
        if isinstance(event, RiichiDeclare) and event.seq in declares:
            declared.add(event.seat)
        elif isinstance(event, Discard) and event.seat in declared:
            declared.discard(event.seat)
            after = event
    if after is not None:
        out.append(RiichiAccept(after.seq, after.seat, None, legacy=True))
    return out


def _slot_setters(
    cls: type, names: tuple[str, ...]
) -> tuple[Callable[[object, object], None], ...]:
    """The slot setters of a frozen slotted event, in field order, so the hot
    loop can fill ``object.__new__(cls)`` without the generated ``__init__``
    (which pays one ``object.__setattr__`` lookup per field).

    Draws and discards are ~90% of all elements: building them this way, in
    the loop itself, costs about 40% less than calling the dataclass (measured
    on the corpus).  It sets the same slots the generated ``__init__`` sets;
    the field names are checked at import so a change to ``events.py`` fails
    loudly instead of leaving a slot unset.
    """
    fields = tuple(f.name for f in dataclasses.fields(cls))
    if fields != names:
        raise ImportError(f"{cls.__name__} fields changed to {fields}; update tenhou_xml")
    return tuple(getattr(cls, n).__set__ for n in names)


_DRAW_SETTERS: Final = _slot_setters(Draw, ("seq", "seat", "tile"))
_DISCARD_SETTERS: Final = _slot_setters(Discard, ("seq", "seat", "tile", "tsumogiri"))


def _bad_value(tag: object, exc: BaseException) -> InvalidValueError:
    if isinstance(exc, KeyError):
        return InvalidValueError(f"<{tag}> lacks the attribute {exc.args[0]!r}")
    return InvalidValueError(f"<{tag}>: bad value ({exc})")


def _split(value: str | None, conv: Callable[[str], _T]) -> list[_T] | None:
    if value is None:
        return None
    return [conv(v) for v in value.split(",")]


def _pair(value: str, what: str) -> tuple[int, int]:
    parts = [int(v) for v in value.split(",")]
    if len(parts) != 2 or min(parts) < 0:
        raise InvalidValueError(f"{what}={value!r}: expected 'honba,sticks'")
    return parts[0], parts[1]


_ScTuple = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None, tuple[int, ...] | None]


def _sc(value: str) -> _ScTuple:
    """``sc`` -> (scores before, deltas) in points, and chips (before, deltas)
    for the 16-value chip-room form (formats.md §6.11)."""
    v = [int(x) for x in value.split(",")]
    if len(v) == 8:
        return tuple(100 * x for x in v[0::2]), tuple(100 * x for x in v[1::2]), None, None
    if len(v) == 16:
        s, c = v[:8], v[8:]
        return (
            tuple(100 * x for x in s[0::2]),
            tuple(100 * x for x in s[1::2]),
            tuple(c[0::2]),
            tuple(c[1::2]),
        )
    raise InvalidValueError(f"sc has {len(v)} values, not 8 (or 16 in chip rooms)")


def _owari(value: str | None) -> tuple[Owari | None, str | None]:
    """``owari`` -> (final scores in points and final values, raw chip part).

    Chip rooms append 8 chip values (final chips and a second column, always 0
    in the corpus); ``Owari`` has no place for them, so they come back raw and
    end up in ``GameMeta.extra`` as ``owari.chips``."""
    if value is None:
        return None, None
    v = value.split(",")
    if len(v) not in (8, 16):
        raise InvalidValueError(f"owari has {len(v)} values, not 8 (or 16 in chip rooms)")
    chips = ",".join(v[8:]) if len(v) == 16 else None
    v = v[:8]
    return Owari(tuple(100 * int(x) for x in v[0::2]), tuple(float(x) for x in v[1::2])), chips
