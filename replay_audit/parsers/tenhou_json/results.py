"""A JSON hand's results: wins and draws from their strings and score changes.

Owns ``parse_point_string`` (``30符1飜1000点``, limits, ``∀`` all-pay), the yaku
strings, and ``_results`` (a hand's ``RecordedWin``/``RecordedDraw`` values).

Must not: simulate moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from replay_audit.model.errors import (
    InvalidValueError,
)
from replay_audit.model.events import (
    Event,
    Move,
    RecordedDraw,
    RecordedWin,
)
from replay_audit.model.tiles import Tile
from replay_audit.parsers.tenhou_json.calls import _Hand, _State
from replay_audit.parsers.tenhou_json.names import LIMIT_NAMES, _is_int, _yaku_id

# ---------------------------------------------------------------------- results

_POINT_RE: Final = re.compile(
    r"^(?:(?P<fu>\d+)符(?P<han>\d+)飜|(?P<limit>満貫|跳満|倍満|三倍満|数え役満|役満))?"
    r"(?P<a>\d+)(?:-(?P<b>\d+))?点(?P<all>∀)?(?:(?P<chips>\d+)枚∀?)?$"
)
_YAKU_RE: Final = re.compile(r"^(?P<name>.+?)\((?:(?P<han>\d+)飜)?(?P<ym>役満)?(?:\d+枚)?\)$")


@dataclass(frozen=True, slots=True)
class PointString:
    fu: int | None
    han: int | None
    limit: int
    points: int
    """Total of the hand's payments, without honba (the XML ``ten[1]``)."""


def parse_point_string(text: str, tsumo: bool, dealer: bool, players: int = 4) -> PointString:
    """Read ``30符4飜7700点`` / ``満貫2000-4000点`` / ``4000点∀`` into fu, han, limit
    and the total points; ``ValueError`` for anything else.

    >>> parse_point_string("30符1飜300-500点", True, False)
    PointString(fu=30, han=1, limit=0, points=1100)
    >>> parse_point_string("役満16000点∀", True, True, 3).points
    32000
    """
    m = _POINT_RE.match(text)
    if not m:
        raise ValueError(f"unreadable point string {text!r}")
    fu = int(m["fu"]) if m["fu"] else None
    han = int(m["han"]) if m["han"] else None
    limit = LIMIT_NAMES[m["limit"]] if m["limit"] else 0
    a = int(m["a"])
    if m["b"]:
        ko, oya = a, int(m["b"])
        points = ko * (players - 2) + oya
    elif m["all"] or (tsumo and dealer):
        points = a * (players - 1)
    else:
        points = a
    return PointString(fu=fu, han=han, limit=limit, points=points)


def _results(
    raw: list[Any],
    kind_: str,
    h: _Hand,
    st: _State,
    moves: list[Move],
    dora: list[Tile],
    ura: list[Tile],
    warnings: list[str],
    index: int,
) -> list[Event]:
    # A JSON result records its deltas only: the honba, sticks and scores at the
    # result are not in the file (the hand header has the start's, kept on the
    # HandLog), so they stay unset here rather than be built from the header,
    # which would make the auditor compare the header with itself.
    seq = len(moves)
    revealed = tuple(dora[: st.dora_used + 1])
    if kind_ != "win":
        deltas = _deltas(raw[1] if len(raw) > 1 else None)
        if len(raw) > 2:
            raise InvalidValueError(f"draw result with extra elements: {raw!r}")
        return [
            RecordedDraw(
                seq=seq,
                kind=kind_,
                deltas=deltas,
                shown=None,
                status_string=raw[0],
            )
        ]
    out: list[Event] = []
    for j in range(1, len(raw), 2):
        deltas = _deltas(raw[j])
        detail = raw[j + 1]
        who, frm, pao = (int(v) for v in detail[:3])
        tsumo = who == frm
        ps: PointString | None = None
        point_string = detail[3] if len(detail) > 3 else None
        if point_string is not None:
            if not isinstance(point_string, str):
                raise InvalidValueError(f"point string {point_string!r} is not a string")
            try:
                ps = parse_point_string(point_string, tsumo, who == h.dealer, h.players)
            except ValueError as exc:
                raise InvalidValueError(str(exc)) from None
        yaku: list[tuple[int, int]] = []
        yakuman: list[int] = []
        names = []
        for y in detail[4:]:
            if not isinstance(y, str):
                raise InvalidValueError(f"yaku {y!r} is not a string")
            names.append(y)
            ym = _YAKU_RE.match(y)
            yid = _yaku_id(ym["name"]) if ym else None
            if ym is None or yid is None:
                warnings.append(f"hand {index}: unknown yaku string {y!r}")
                continue
            if ym["ym"]:
                yakuman.append(yid)
            elif ym["han"] is not None:
                yaku.append((yid, int(ym["han"])))
        out.append(
            RecordedWin(
                seq=seq + len(out),
                seat=who,
                from_seat=frm,
                fu=ps.fu if ps else None,
                points=ps.points if ps else None,
                limit=ps.limit if ps else None,
                yaku=tuple(yaku),
                yakuman=tuple(yakuman),
                dora=revealed,
                ura=tuple(ura) if st.accepted[who] else (),
                deltas=deltas,
                pao_seat=pao if pao != who else None,
                point_string=point_string,
                yaku_names=tuple(names),
            )
        )
    return out


def _deltas(raw: object) -> tuple[int, ...]:
    if raw is None:
        return (0, 0, 0, 0)
    if not isinstance(raw, list) or len(raw) not in (3, 4) or not all(_is_int(v) for v in raw):
        raise InvalidValueError(f"bad deltas {raw!r}")
    return tuple(int(v) for v in raw) + (0,) * (4 - len(raw))
