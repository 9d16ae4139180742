"""One hand being read: its INIT values and the state its tags fill.

Owns ``_HandBase``: the slots of a hand in progress and reading its INIT (scores,
sticks, honba, dealer, deal, dora indicator; the deal checked against the tile
set).

Must not: read the moves or the results of the hand (``hand``, ``results``).
"""

from __future__ import annotations

from replay_audit.model.errors import (
    InvalidValueError,
    LogFormatError,
)
from replay_audit.model.events import (
    Event,
    hand_label,
)
from replay_audit.parsers.tenhou_xml.game_state import _GameState
from replay_audit.parsers.tenhou_xml.tags import _VALID_IDS
from replay_audit.parsers.tenhou_xml.values import _bad_value, _valid_deal


class _HandBase:
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

    def __init__(self, b: _GameState, index: int, attrs: dict[str, str]) -> None:
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

    def _extra(self, tag: str, attrs: dict[str, str], index: int) -> None:
        if attrs:
            self.extra.extend(self.b._leftovers(tag, attrs, index, self.label))
