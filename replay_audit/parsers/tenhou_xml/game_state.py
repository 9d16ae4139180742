"""The per-game state of the walk, the readers of attribute values, and the
tags before the first INIT (SHUFFLE, GO, UN, TAIKYOKU) and between hands (BYE, UN).

Owns ``_GameState``: the game's metadata as it is read, the warnings and errors,
``_attrs`` (with the ``MAX_ATTRIBUTE_LENGTH`` cap of ``limits``), ``_seat``, ``_tiles``, unknown
attributes kept as raw text, and the header tags.

Must not: walk hands (``builder``) or read a hand's tags (``hand``).
"""

from __future__ import annotations

from urllib.parse import unquote

from lxml import etree

from replay_audit.model.errors import (
    InvalidValueError,
    LimitExceededError,
    LogFormatError,
    TruncatedLogError,
    UnknownTagError,
)
from replay_audit.model.events import (
    Disconnect,
    Event,
    HandLog,
    Owari,
    Player,
    Reconnect,
)
from replay_audit.parsers.tenhou_xml import limits
from replay_audit.parsers.tenhou_xml.tags import (
    _VALID_IDS,
    DISCARD_TAGS,
    DRAW_TAGS,
    TOUTENKOU,
)
from replay_audit.parsers.tenhou_xml.values import _split

# ----------------------------------------------------------------- the builder


class _HandError(Exception):
    """Internal: wraps a located error so lenient mode can resync."""


class _GameState:
    """Holds the per-game state while the elements are walked once."""

    def __init__(self, source: str, log_id: str | None, strict: bool, data: bytes) -> None:
        self.source = source
        self.data = data
        self.short = len(data) <= limits.MAX_ATTRIBUTE_LENGTH
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
            if not self.short and max(map(len, attrs.values())) > limits.MAX_ATTRIBUTE_LENGTH:
                key = max(attrs, key=lambda k: len(attrs[k]))
                raise LimitExceededError(
                    f"<{el.tag} {key}=...> is {len(attrs[key])} characters long "
                    f"(limit {limits.MAX_ATTRIBUTE_LENGTH})",
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
