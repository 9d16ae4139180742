"""One JSON hand: its columns read into a ``HandLog``.

Owns ``_parse_hand``: the INIT values, the takes and discards columns checked
and turned into items, the merge (``merge``) run, and the results (``results``)
attached.

Must not: decide the global move order itself (``merge`` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay_audit.model.errors import (
    InvalidValueError,
    LogFormatError,
)
from replay_audit.model.events import (
    Event,
    GameMeta,
    HandLog,
    RecordedWin,
)
from replay_audit.model.tiles import Tile, tenhou6_kind
from replay_audit.parsers.tenhou_json.calls import (
    _CallStr,
    _Dead,
    _Hand,
    _Pool,
    _State,
    parse_call_string,
)
from replay_audit.parsers.tenhou_json.merge import _insert_connections, _reseq, _run
from replay_audit.parsers.tenhou_json.names import (
    DRAW_KINDS,
    KAN_PLACEHOLDER,
    TSUMOGIRI,
    WIN_STRING,
    _is_int,
    is_chip_room,
)
from replay_audit.parsers.tenhou_json.results import _results


def _parse_hand(
    raw: object,
    index: int,
    meta: GameMeta,
    reds: frozenset[Tile],
    names: Sequence[str],
    connections: Sequence[tuple[int, int, int]],
    warnings: list[str],
) -> HandLog:
    if not isinstance(raw, list) or len(raw) != 17:
        n = len(raw) if isinstance(raw, list) else type(raw).__name__
        raise InvalidValueError(f"log entry {index} has {n} elements, a hand has 17")
    head, scores_raw, dora_raw, ura_raw = raw[0], raw[1], raw[2], raw[3]
    if not (isinstance(head, list) and len(head) == 3 and all(_is_int(v) for v in head)):
        raise InvalidValueError(f"bad hand header {head!r}")
    round_index, honba, sticks = (int(v) for v in head)
    if not 0 <= round_index < 16 or honba < 0 or sticks < 0:
        raise InvalidValueError(f"bad hand header {head!r}")
    if not (isinstance(scores_raw, list) and len(scores_raw) in (3, 4)):
        raise InvalidValueError(f"bad start scores {scores_raw!r}")
    if not all(_is_int(v) for v in scores_raw):
        raise InvalidValueError(f"bad start scores {scores_raw!r}")
    scores = tuple(int(v) for v in scores_raw) + (0,) * (4 - len(scores_raw))
    players = meta.players
    dealer = round_index % 4
    if dealer >= players:
        raise InvalidValueError(f"round {round_index} has no dealer in a {players}-player game")
    pool = _Pool(reds)
    try:
        haipai: list[tuple[Tile, ...]] = []
        for seat in range(4):
            cols = raw[4 + 3 * seat : 7 + 3 * seat]
            if not all(isinstance(c, list) for c in cols):
                raise InvalidValueError(f"seat {seat}: haipai/takes/discards must be arrays")
            tiles = cols[0]
            if seat >= players:
                if tiles or cols[1] or cols[2]:
                    raise InvalidValueError(f"seat {seat} is empty in a {players}-player game")
                haipai.append(())
                continue
            if len(tiles) != 13 or not all(_is_int(t) for t in tiles):
                raise InvalidValueError(f"seat {seat}: haipai must be 13 tile codes")
            haipai.append(tuple(pool.take(int(t)) for t in tiles))
        if not isinstance(dora_raw, list) or not dora_raw or not all(_is_int(t) for t in dora_raw):
            raise InvalidValueError(f"bad dora list {dora_raw!r}")
        dora = [pool.take(int(t)) for t in dora_raw]
        takes: list[list[int | _CallStr | Tile]] = []
        discards: list[list[int | str | _CallStr]] = []
        for seat in range(4):
            takes.append([_take_item(x, pool) for x in raw[5 + 3 * seat]])
            discards.append([_discard_item(x) for x in raw[6 + 3 * seat]])
        if not isinstance(ura_raw, list) or not all(_is_int(t) for t in ura_raw):
            raise InvalidValueError(f"bad ura list {ura_raw!r}")
        ura = [pool.take(int(t)) for t in ura_raw]
    except ValueError as exc:
        if isinstance(exc, LogFormatError):
            raise
        raise InvalidValueError(str(exc)) from None

    result_raw = raw[16]
    result_kind, wins = _result_shape(result_raw, players)
    hand = _Hand(players, reds, dealer, takes, discards, dora, result_kind, wins)
    hand.kan_dora_at_once = is_chip_room(meta.rule_disp)
    state = _State(
        ti=[0] * 4,
        di=[0] * 4,
        hands=[list(h) for h in haipai],
        melds=[[] for _ in range(4)],
        drawn=[None] * 4,
        events=[],
    )
    try:
        final = _run(hand, state, dealer, "take", 0)
    except _Dead as dead:
        raise InvalidValueError(
            f"the moves cannot be merged into one game: {dead.message}"
        ) from None
    moves = final.events
    if connections:
        moves = _insert_connections(moves, connections, names)
        moves = [_reseq(m, i) for i, m in enumerate(moves)]
    results = _results(result_raw, result_kind, hand, final, moves, dora, ura, warnings, index)
    return HandLog(
        index=index,
        seq=index,
        round_index=round_index,
        honba=honba,
        sticks=sticks,
        dealer=dealer,
        scores=scores,
        haipai=tuple(haipai),
        dora_indicator=dora[0],
        events=(*moves, *results),
        extra=_unclaimed_ura(ura_raw, results),
    )


def _unclaimed_ura(ura_raw: list[Any], results: list[Event]) -> tuple[tuple[str, str], ...]:
    """The hand's ura list when no winner was in riichi to claim it (hand-made
    files): kept raw so a writer can put it back."""
    if not ura_raw or any(isinstance(r, RecordedWin) and r.ura for r in results):
        return ()
    return (("ura", ",".join(str(int(c)) for c in ura_raw)),)


def _take_item(x: object, pool: _Pool) -> int | _CallStr:
    if type(x) is int:  # the common case first: a tile code straight from ``json``
        return pool.take(x)
    if _is_int(x):
        assert isinstance(x, int)
        return pool.take(x)
    if isinstance(x, str):
        c = parse_call_string(x)
        if c.letter not in "cpm":
            raise ValueError(f"{x!r} is not a call a take column can hold")
        return c
    raise ValueError(f"bad take {x!r}")


def _discard_item(x: object) -> int | str | _CallStr:
    if _is_int(x):
        assert isinstance(x, int)
        if x not in _PLAIN_DISCARDS:
            tenhou6_kind(x)  # raises: not a tile code
        return x
    if isinstance(x, str):
        if x.startswith("r"):
            code = x[1:]
            if not code.isdigit() or (int(code) != TSUMOGIRI and not _valid_code(int(code))):
                raise ValueError(f"bad riichi discard {x!r}")
            return x
        c = parse_call_string(x)
        if c.letter not in "kaf":
            raise ValueError(f"{x!r} is not a call a discard column can hold")
        return c
    raise ValueError(f"bad discard {x!r}")


def _valid_code(code: int) -> bool:
    try:
        tenhou6_kind(code)
    except ValueError:
        return False
    return True


_PLAIN_DISCARDS = frozenset(
    [TSUMOGIRI, KAN_PLACEHOLDER, *(code for code in range(100) if _valid_code(code))]
)
"""What a discard column may hold as a number: tsumogiri, the kan placeholder and
every tile code (``tenhou6_kind``'s, asked once here rather than for each discard)."""


def _result_shape(raw: object, players: int) -> tuple[str, list[tuple[int, int]]]:
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
        raise InvalidValueError(f"bad result element {raw!r}")
    head = raw[0]
    if head == WIN_STRING:
        if len(raw) < 3 or len(raw) % 2 != 1:
            raise InvalidValueError("a 和了 result needs (deltas, detail) pairs")
        wins = []
        for j in range(2, len(raw), 2):
            detail = raw[j]
            if (
                not isinstance(detail, list)
                or len(detail) < 3
                or not all(_is_int(v) for v in detail[:3])
            ):
                raise InvalidValueError(f"bad win detail {detail!r}")
            who, frm, pao = detail[0], detail[1], detail[2]
            if not all(0 <= v < players for v in (who, frm, pao)):
                raise InvalidValueError(f"bad seats in win detail {detail!r}")
            wins.append((who, frm))
        return "win", wins
    if head not in DRAW_KINDS:
        raise InvalidValueError(f"unknown result string {head!r}")
    return DRAW_KINDS[head], []
