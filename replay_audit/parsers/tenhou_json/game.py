"""One JSON game: its metadata, players, connections, final line and hands.

Owns ``parse_tenhou_json``, the entry point: it reads the document
(``document``), the game's metadata and players, each hand (``hand``) and the
final scores, strict or lenient.

Must not: merge a hand's columns (``merge``) or read result strings (``results``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from replay_audit.model.errors import (
    InvalidValueError,
    LogFormatError,
)
from replay_audit.model.events import (
    Disconnect,
    Event,
    Game,
    GameMeta,
    HandLog,
    Owari,
    Player,
    Reconnect,
    RecordedDraw,
    RecordedWin,
    hand_label,
)
from replay_audit.model.rules.majsoul import is_tonpuu
from replay_audit.model.rules.reds import declared_red_fives
from replay_audit.parsers.tenhou_json.document import load_document
from replay_audit.parsers.tenhou_json.hand import _parse_hand
from replay_audit.parsers.tenhou_json.names import _is_int, _nm, dan_index

# ---------------------------------------------------------------------- the parse


def parse_tenhou_json(data: bytes, source: str = "<bytes>", strict: bool = True) -> Game:
    """Read a tenhou.net/6 JSON document into a ``Game``.

    Strict mode raises the first ``LogFormatError``; lenient mode records each
    unreadable hand in ``Game.errors`` and keeps every hand it could read (JSON
    hands are self-contained, so one bad hand does not spoil the next).
    """
    doc = load_document(data, source)
    log_id = _str_or_none(doc.get("ref"))
    try:
        meta = _meta(doc, source, log_id)
        players = _players(doc, meta.players)
        reds = _red_fives(doc) if meta.aka else frozenset()
    except LogFormatError as exc:
        raise exc.located(source=source, log_id=log_id) from None
    hands: list[HandLog] = []
    errors: list[object] = []
    connections: dict[int, tuple[tuple[int, int, int], ...]] = {}
    try:
        connections = _connections(doc, source, log_id)
    except LogFormatError as exc:
        if strict:
            raise
        errors.append(exc)
    warnings: list[str] = []
    if not meta.aka and _declared_aka(doc):
        warnings.append(
            "rule says aka but the tiles include four plain copies of a five: read as no aka"
        )
    names = [p.name for p in players]
    for i, raw in enumerate(doc["log"]):
        label = _label_of(raw, i)
        try:
            hand = _parse_hand(raw, i, meta, reds, names, connections.get(i, ()), warnings)
        except LogFormatError as exc:
            exc.located(source=source, log_id=log_id, hand=label)
            if strict:
                raise
            errors.append(exc)
            continue
        hands.append(hand)
    owari = None
    try:
        owari = _owari(doc.get("sc"), source, log_id)
    except LogFormatError as exc:
        if strict:
            raise
        errors.append(exc)
    if owari is not None and hands and len(hands) == len(doc["log"]) and hands[-1].results:
        last = hands[-1]
        res = last.results[-1]
        if isinstance(res, (RecordedWin, RecordedDraw)):
            patched = _with_owari(res, owari)
            events = (*last.events[: len(last.events) - 1], patched)
            hands[-1] = _replace_events(last, events)
    pre = tuple(
        Disconnect(seq=-1, seat=who)
        if what == 0
        else Reconnect(seq=-1, seat=who, name=_nm(names, who))
        for what, who, _ in connections.get(-1, ())
    )
    return Game(
        meta=meta,
        players=players,
        hands=tuple(hands),
        owari=owari,
        pre_game=pre,
        warnings=tuple(warnings),
        errors=tuple(errors),
    )


def _str_or_none(v: object) -> str | None:
    return v if isinstance(v, str) and v else None


def _label_of(raw: object, i: int) -> str:
    try:
        head = raw[0]  # type: ignore[index]  # any JSON value: the except handles the rest
        return hand_label(int(head[0]), int(head[1]))
    except (TypeError, ValueError, IndexError, KeyError):
        return f"#{i}"


def _meta(doc: dict[str, Any], source: str, log_id: str | None) -> GameMeta:
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    assert isinstance(rule, dict)
    disp = _str_or_none(rule.get("disp"))
    aka = _declared_aka(doc)
    if aka and _four_plain_fives(doc["log"]):
        aka = False  # the file itself says there are no red fives (hand-made logs)
    players = _count_players(doc, disp)
    extra: list[tuple[str, str]] = []
    for key in ("ver", "ratingc", "title"):
        if key in doc:
            extra.append((key, json.dumps(doc[key], ensure_ascii=False)))
    extra.append(("rule", json.dumps(rule, ensure_ascii=False)))
    lobby = doc.get("lobby")
    return GameMeta(
        source=source,
        log_id=log_id,
        format="tenhou-json",
        players=players,
        lobby=lobby if isinstance(lobby, int) and not isinstance(lobby, bool) else None,
        rule_disp=disp,
        aka=aka,
        kuitan=("喰" in disp) if disp else True,
        hanchan=not is_tonpuu(disp) if disp else True,
        extra=tuple(extra),
    )


def _declared_aka(doc: dict[str, Any]) -> bool:
    """Red fives as the ``rule`` object says: any non-zero ``aka``/``aka5x`` flag
    (mjai-reviewer reads them the same way); on when the file has no flags."""
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    assert isinstance(rule, dict)
    keys = [k for k in rule if isinstance(k, str) and k.startswith("aka")]
    return any(_truthy(rule[k]) for k in keys) if keys else True


def _red_fives(doc: dict[str, Any]) -> frozenset[int]:
    """The game's red fives, as its ``rule`` flags count them (``model.rules.reds``:
    ``aka52: 2`` is two red 5p, Tenhou's 2006 set and Mahjong Soul's four-red
    rooms); every hand's tile pool and moves use this one set."""
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    assert isinstance(rule, dict)
    try:
        return frozenset(declared_red_fives(rule))
    except ValueError as exc:
        raise InvalidValueError(str(exc)) from None


def _four_plain_fives(hands: list[Any]) -> bool:
    """True when no red-five code occurs anywhere and some hand has four plain
    copies of a five: such a file only makes sense without aka."""
    four = False
    for h in hands:
        if not isinstance(h, list) or len(h) != 17:
            continue
        counts = dict.fromkeys((15, 25, 35, 51, 52, 53), 0)
        cols = [h[2], h[3]] + [h[4 + 3 * s + j] for s in range(4) for j in (0, 1)]
        for col in cols:
            for x in col if isinstance(col, list) else ():
                if _is_int(x) and x in counts:
                    counts[x] += 1
        if counts[51] or counts[52] or counts[53]:
            return False
        four = four or max(counts[15], counts[25], counts[35]) == 4
    return four


def _truthy(v: object) -> bool:
    return bool(v) and v not in ("0", "false")


def _count_players(doc: dict[str, Any], disp: str | None) -> int:
    """Three-player when the rule says 三 or every hand leaves seat 3 empty."""
    if disp and (disp.startswith("三") or "3-player" in disp.lower()):
        return 3
    hands = doc["log"]
    if hands and all(
        isinstance(h, list) and len(h) == 17 and h[13] == [] and h[14] == [] and h[15] == []
        for h in hands
    ):
        return 3
    return 4


def _list_field(doc: dict[str, Any], key: str) -> list[object]:
    """``doc[key]`` when it is a JSON array, else ``[]`` (a missing or odd field
    leaves the players unnamed rather than failing the game)."""
    value = doc.get(key)
    return value if isinstance(value, list) else []


def _players(doc: dict[str, Any], n: int) -> tuple[Player, ...]:
    names = _list_field(doc, "name")
    dans = _list_field(doc, "dan")
    rates = _list_field(doc, "rate")
    sxs = _list_field(doc, "sx")
    out = []
    for seat in range(4):
        raw_name = names[seat] if seat < len(names) else None
        name = raw_name if isinstance(raw_name, str) else ""
        dan = dan_index(dans[seat]) if seat < len(dans) else None
        rate = rates[seat] if seat < len(rates) else None
        raw_sx = sxs[seat] if seat < len(sxs) else None
        sx = raw_sx if isinstance(raw_sx, str) else None
        out.append(
            Player(
                name=name,
                dan=dan,
                rate=float(rate)
                if isinstance(rate, (int, float)) and not isinstance(rate, bool)
                else None,
                sex=sx,
            )
        )
    return tuple(out)


def _connections(
    doc: dict[str, Any], source: str, log_id: str | None
) -> dict[int, tuple[tuple[int, int, int], ...]]:
    """``connection`` entries grouped by hand index: (what, who, step)."""
    raw = doc.get("connection")
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise InvalidValueError("'connection' is not an array", source=source, log_id=log_id)
    grouped: dict[int, list[tuple[int, int, int]]] = {}
    for entry in raw:
        try:
            what, log, who, step = (int(entry[k]) for k in ("what", "log", "who", "step"))
        except (TypeError, KeyError, ValueError) as exc:
            raise InvalidValueError(
                f"bad connection entry {entry!r}", source=source, log_id=log_id
            ) from exc
        if what not in (0, 1) or not 0 <= who < 4 or step < 0:
            raise InvalidValueError(f"bad connection entry {entry!r}", source=source, log_id=log_id)
        grouped.setdefault(log if log >= 0 else -1, []).append((what, who, step))
    return {k: tuple(v) for k, v in grouped.items()}


def _owari(sc: object, source: str, log_id: str | None) -> Owari | None:
    if sc is None:
        return None
    if not isinstance(sc, list) or len(sc) not in (6, 8) or not all(_is_num(v) for v in sc):
        raise InvalidValueError(f"bad final 'sc' {sc!r}", source=source, log_id=log_id)
    scores = [int(v) for v in sc[0::2]]
    points = [float(v) for v in sc[1::2]]
    while len(scores) < 4:
        scores.append(0)
        points.append(0.0)
    return Owari(scores=tuple(scores), points=tuple(points))


def _is_num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _with_owari(res: RecordedWin | RecordedDraw, owari: Owari) -> RecordedWin | RecordedDraw:
    return replace(res, owari=owari)


def _replace_events(hand: HandLog, events: tuple[Event, ...]) -> HandLog:
    return replace(hand, events=events)
