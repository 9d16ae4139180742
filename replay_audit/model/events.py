"""The normalized, immutable event model every log format decodes into.

A parser stores what the log says and nothing more: moves (draws, discards,
calls, riichi, dora reveals, reconnects) and the results exactly as recorded
(``RecordedWin``, ``RecordedDraw``).  The replayer and the scorer compute
their own values from the moves; the auditor holds the two accounts against
each other.  Because both XML and JSON decode into these types, everything
downstream is format-blind.

Units: scores and points are whole points (the XML's hundreds are multiplied
out); seats are absolute (0 = East in East 1); tiles are 136-ids
(``replay_audit.model.tiles``).  Every event carries ``seq``, its index in the
source (the XML element index, or the JSON move number) so findings can name
their place.

Must not: parse a format or compute anything from the events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from replay_audit.model.meld import Meld
from replay_audit.model.tiles import Tile

LogFormat = Literal["tenhou-xml", "tenhou-json"]


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Draw:
    seq: int
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Discard:
    seq: int
    seat: int
    tile: Tile
    tsumogiri: bool
    """The discarded tile is the one just drawn (XML: inferred from ids, exact)."""


@dataclass(frozen=True, slots=True)
class Call:
    """Chi, pon, daiminkan, kakan, ankan or kita (``meld.kind`` says which)."""

    seq: int
    seat: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class RiichiDeclare:
    """REACH step 1: comes right before the riichi discard."""

    seq: int
    seat: int


@dataclass(frozen=True, slots=True)
class RiichiAccept:
    """REACH step 2: the 1000-point stick is placed (``scores`` as the log shows them
    after the payment, when it shows them).  2006 logs have one REACH tag with no
    step; parsers emit it as a declare and, after the discard if not ronned, an
    accept with ``legacy=True``."""

    seq: int
    seat: int
    scores: tuple[int, ...] | None = None
    legacy: bool = False


@dataclass(frozen=True, slots=True)
class NewDora:
    seq: int
    indicator: Tile


@dataclass(frozen=True, slots=True)
class Disconnect:
    seq: int
    seat: int


@dataclass(frozen=True, slots=True)
class Reconnect:
    seq: int
    seat: int
    name: str = ""


# ------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Owari:
    """The game's final line: raw scores (points) and final values (uma/oka)."""

    scores: tuple[int, ...]
    points: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class RecordedWin:
    """One AGARI tag (or one winner of a JSON 和了 entry), exactly as recorded.

    ``fu``/``han``/``points``/``limit`` follow the XML ``ten`` attribute: points
    exclude honba and sticks; for tsumo they are the total of all payments.
    ``yaku`` keeps Tenhou's own order of ``(id, han)`` pairs (ura ``(53, 0)``
    included when the log writes it).  ``melds`` are in calling order (the XML
    lists them reversed; the parser turns them back).  ``scores_before`` and
    ``deltas`` have one entry per seat (4, with a 0 placeholder in 3-player).
    ``pao_seat`` and ``from_seat`` are moves, the replayer may use them.
    """

    seq: int
    seat: int
    from_seat: int
    hand: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    win_tile: Tile | None = None
    fu: int | None = None
    points: int | None = None
    limit: int | None = None
    yaku: tuple[tuple[int, int], ...] = ()
    yakuman: tuple[int, ...] = ()
    dora: tuple[Tile, ...] = ()
    ura: tuple[Tile, ...] = ()
    honba: int | None = None
    sticks: int | None = None
    scores_before: tuple[int, ...] = ()
    deltas: tuple[int, ...] = ()
    pao_seat: int | None = None
    chips_before: tuple[int, ...] | None = None
    chip_deltas: tuple[int, ...] | None = None
    chip: tuple[tuple[int, int], ...] | None = None
    ratio: str | None = None
    owari: Owari | None = None
    point_string: str | None = None
    """JSON only: the rank/amount string, e.g. ``30符4飜7700点``."""
    yaku_names: tuple[str, ...] = ()
    """JSON only: the yaku strings as written."""

    @property
    def tsumo(self) -> bool:
        return self.seat == self.from_seat

    @property
    def han(self) -> int | None:
        """Recorded han: the yaku han sum (13 per yakuman id)."""
        if self.yakuman:
            return 13 * len(self.yakuman)
        if not self.yaku:
            return None
        return sum(h for _, h in self.yaku)


DrawKind = Literal["exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4"]
ABORTIVE_KINDS: tuple[str, ...] = ("yao9", "reach4", "ron3", "kan4", "kaze4")


@dataclass(frozen=True, slots=True)
class RecordedDraw:
    """One RYUUKYOKU tag (or JSON draw entry).

    ``kind`` is ``"exhaustive"`` for an ordinary exhaustive draw (no XML
    ``type``), ``"nm"`` for nagashi mangan, else the abortive type.  ``shown``
    holds the hands the log reveals, as ``(seat, tiles)`` pairs.  JSON logs
    carry no hands: ``shown`` is then ``None`` and ``tenpai_seats`` may say who
    was tenpai where the format tells.
    """

    seq: int
    kind: str
    honba: int | None = None
    sticks: int | None = None
    scores_before: tuple[int, ...] = ()
    deltas: tuple[int, ...] = ()
    shown: tuple[tuple[int, tuple[Tile, ...]], ...] | None = ()
    chips_before: tuple[int, ...] | None = None
    chip_deltas: tuple[int, ...] | None = None
    ratio: str | None = None
    owari: Owari | None = None
    status_string: str | None = None
    """JSON only: the draw string as written (``流局``, ``九種九牌`` ...)."""

    @property
    def is_abortive(self) -> bool:
        return self.kind in ABORTIVE_KINDS

    @property
    def shown_seats(self) -> tuple[int, ...]:
        return tuple([s for s, _ in self.shown or ()])  # (a list: no generator's frame)


Move = Draw | Discard | Call | RiichiDeclare | RiichiAccept | NewDora | Disconnect | Reconnect
Result = RecordedWin | RecordedDraw
Event = Move | RecordedWin | RecordedDraw


# ----------------------------------------------------------------------- structure


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    dan: int | None = None
    """Rank index 0-20 (0 新人, 10 初段 ... 20 天鳳位); None if the log has none."""
    rate: float | None = None
    sex: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    """Other per-player values the log carries (``gold``, ``rc`` ...), raw."""


@dataclass(frozen=True, slots=True)
class GameMeta:
    """What a game is and where it came from.  Rule flags come from the GO type
    (XML) or ``rule`` (JSON); ``replay_audit.model.rules`` maps them to a RuleSet."""

    source: str
    log_id: str | None
    format: LogFormat
    players: int
    go_type: int | None = None
    lobby: int | None = None
    rule_disp: str | None = None
    aka: bool = True
    kuitan: bool = True
    hanchan: bool = True
    seed: str | None = None
    """The SHUFFLE seed (wall RNG), when the log has one."""
    stepless_reach: bool = False
    """The log writes riichi as one REACH tag without ``step`` (the 2006 format,
    formats.md §6.12; its AGARI ``ba`` carries no sticks)."""
    extra: tuple[tuple[str, str], ...] = ()
    """Attributes the parser kept but does not model (GO ``csrule``, JSON ``title`` ...)."""

    @property
    def date(self) -> str | None:
        """``YYYYMMDDHH`` (or ``YYYYMMDD`` in 2006 ids) from the log id, when it has one."""
        log_id = self.log_id
        if not log_id:
            return None
        head = log_id[:10]
        if head.isascii() and head.isdigit():  # the usual id: its first ten all digits
            return head if len(head) >= 8 else None
        digits = log_id[: len(log_id) - len(log_id.lstrip("0123456789"))]
        return digits[:10] if len(digits) >= 8 else None


@dataclass(frozen=True, slots=True)
class HandLog:
    """One hand: the INIT state, its moves in order, and its results."""

    index: int
    """0-based position of the hand in the game."""
    seq: int
    round_index: int
    """INIT seed[0]: 0-3 East 1-4, 4-7 South, 8-11 West (3-player too)."""
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, ...]
    haipai: tuple[tuple[Tile, ...], ...]
    """The 13 starting tiles of each seat (empty for a 3-player placeholder seat)."""
    dora_indicator: Tile
    dice: tuple[int, int] = (0, 0)
    events: tuple[Event, ...] = ()
    """Moves and results in log order (results last)."""
    chips: tuple[int, ...] | None = None
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def round_wind(self) -> int:
        return self.round_index // 4

    @property
    def label(self) -> str:
        """``E1-0``: round wind, hand number, honba."""
        return hand_label(self.round_index, self.honba)

    @property
    def results(self) -> tuple[Result, ...]:
        return tuple(e for e in self.events if isinstance(e, (RecordedWin, RecordedDraw)))

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(e for e in self.events if not isinstance(e, (RecordedWin, RecordedDraw)))


def hand_label(round_index: int, honba: int) -> str:
    return f"{'ESWN'[round_index // 4 % 4]}{round_index % 4 + 1}-{honba}"


@dataclass(frozen=True, slots=True)
class Game:
    meta: GameMeta
    players: tuple[Player, ...]
    hands: tuple[HandLog, ...]
    owari: Owari | None = None
    pre_game: tuple[Event, ...] = ()
    """Disconnects and reconnects that come before the first hand."""
    warnings: tuple[str, ...] = ()
    """Things the parser kept but did not understand (unknown attributes ...)."""
    errors: tuple[object, ...] = field(default=())
    """Lenient parsing: ``LogFormatError``s for hands that could not be read; the
    hands before them are kept."""

    @property
    def num_results(self) -> int:
        return sum(len(h.results) for h in self.hands)
