"""What the scorer is given and what it returns.

``WinContext`` is built by the replayer from the moves alone; ``WinValue`` is
the scorer's verdict.  Both are plain frozen values so scoring stays a pure
function ``score_win(ctx, rules) -> WinValue`` that can be cached, pickled to
workers and tested without any log.

Must not: compute anything; these are the values passed in and out.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay_audit.model.meld import Meld
from replay_audit.model.tiles import Tile


@dataclass(frozen=True, slots=True)
class WinContext:
    tiles: tuple[Tile, ...]
    """Concealed tiles including the winning tile (14 - 3 per meld; kita not counted)."""
    melds: tuple[Meld, ...]
    """Calls in calling order, including ankan and kita."""
    win_tile: Tile
    tsumo: bool
    seat: int
    dealer: int
    round_wind: int = 0
    """0 East, 1 South, 2 West, 3 North."""
    players: int = 4
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    """Only for a riichi winner (empty otherwise)."""
    honba: int = 0
    """Used only by point systems that score honba inside the hand (Toutenkou)."""
    gari_seen: bool = True
    """Toutenkou karasu: False when the winner never had a gari tile."""

    @property
    def seat_wind(self) -> int:
        """0 East ... 3 North, relative to the dealer."""
        return (self.seat - self.dealer) % self.players

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def kita(self) -> int:
        return sum(1 for m in self.melds if m.kind == "kita")

    @property
    def closed(self) -> bool:
        return not any(m.opened for m in self.melds)


@dataclass(frozen=True, slots=True)
class WinValue:
    """The scored value of one win, before honba, sticks and pao.

    ``yaku`` lists ``(tenhou_id, han)`` with dora (52), aka (54) and ura (53)
    following Tenhou's conventions (dora and aka only when non-zero, ura as
    ``(53, 0)`` for every riichi win), so it compares directly with a log.
    ``yakuman`` lists Tenhou yakuman ids; ``yakuman_count`` is their value in
    single yakuman under the rules' convention.  ``points`` is what the log's
    ``ten[1]`` holds: the ron payment, or the tsumo total after tsumo loss.
    ``error`` is set (and the value zero) when the hand is not a legal win:
    ``"not_complete"``, ``"no_yaku"``.
    """

    han: int
    fu: int
    points: int
    limit: int
    """0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman (kazoe too)."""
    yaku: tuple[tuple[int, int], ...] = ()
    yakuman: tuple[int, ...] = ()
    yakuman_count: int = 0
    base: int = 0
    ron_payment: int = 0
    """What the discarder pays on ron (0 for tsumo)."""
    tsumo_dealer_payment: int = 0
    """Tsumo: what the dealer pays (non-dealer win) or each payer pays (dealer win)."""
    tsumo_other_payment: int = 0
    """Tsumo by a non-dealer: what each other non-dealer pays."""
    fu_items: tuple[tuple[str, int], ...] = ()
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True, slots=True)
class DrawContext:
    """What the replayer knows at an exhaustive draw, from the moves alone."""

    tenpai: tuple[bool, ...]
    """Per seat (placeholder seat False)."""
    nagashi: tuple[bool, ...]
    """Per seat: eligible for nagashi mangan."""
    dealer: int
    players: int = 4
