"""A hand's results as recorded: AGARI and RYUUKYOKU.

Owns ``_HandResults``: a win's hand, melds, wait, fu, han, yaku, dora, ura, points
and score changes, and a draw's kind, shown hands and score changes, exactly as
the log records them.

Must not: check or compute any of them (the replayer and the scorer do).
"""

from __future__ import annotations

from replay_audit.model.errors import (
    InvalidValueError,
)
from replay_audit.model.events import (
    Owari,
    RecordedDraw,
    RecordedWin,
)
from replay_audit.parsers.meld_code import decode_meld
from replay_audit.parsers.tenhou_xml.hand_base import _HandBase
from replay_audit.parsers.tenhou_xml.tags import DRAW_KINDS
from replay_audit.parsers.tenhou_xml.values import _owari, _pair, _sc


class _HandResults(_HandBase):
    """A hand's AGARI and RYUUKYOKU tags, as recorded."""

    __slots__ = ()

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
