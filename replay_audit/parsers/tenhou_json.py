"""tenhou.net/6 JSON logs -> the normalized event model.

The JSON keeps no timeline: each seat has a column of takes (draws and calls on
other players' discards) and a column of discards (including kans and kita).
This module re-simulates the table to merge the columns back into one global
move order (formats.md §4.7), so a game read from JSON yields the same events
as the same game read from mjlog XML, compared by tile kind and redness.

Tile copies: JSON codes name a kind (and redness), not one of the four copies.
Every wall tile (haipai, dora and ura indicators, drawn tiles) gets a copy
number up front, deterministically, from a per-hand pool: red fives take copy 0
when the game plays aka, plain fives never take copy 0 in aka games, and no id
repeats inside a hand.  The simulation then moves those ids between hands,
rivers and melds, so a discard or call always names a tile the seat really
holds and the replayer can work with ids.

The "confusing nakis" ambiguity (a seat discards the same tile twice before the
caller draws, and the JSON cannot say which one was called) is resolved by
backtracking: every alternative that later runs into an impossibility (a
discard of a tile not held, a column left unused, a result that does not fit
the last move) is abandoned.

>>> import json
>>> hand = [[0, 0, 0], [25000] * 4, [21], [],
...     [11, 11, 11, 12, 13, 14, 15, 16, 17, 18, 19, 19, 19], [45], [],
...     [21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34], [], [],
...     [21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34], [], [],
...     [35, 36, 37, 38, 39, 41, 41, 42, 42, 43, 43, 44, 44], [], [],
...     ["九種九牌"]]
>>> game = parse_tenhou_json(json.dumps({"log": [hand]}).encode())
>>> [type(e).__name__ for e in game.hands[0].events]
['Draw', 'RecordedDraw']
>>> game.hands[0].results[0].kind
'yao9'
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from replay_audit.model.errors import (
    InvalidValueError,
    LimitExceededError,
    LogFormatError,
    NotALogError,
    TruncatedLogError,
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
    Move,
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
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.majsoul import is_tonpuu, room_of
from replay_audit.model.tiles import KIND_NAMES, RED_FIVES, Tile, is_red, kind, tenhou6_kind

MAX_INPUT_BYTES: Final = 32 * 1024 * 1024
"""Largest document accepted (a full hanchan is about 30 kB)."""
MAX_DEPTH: Final = 64
"""Deepest array/object nesting accepted (a real log needs 5)."""
MAX_SIM_STEPS: Final = 200_000
"""Cap on the backtracking work for one hand (a real hand needs a few hundred)."""

TSUMOGIRI: Final = 60
KAN_PLACEHOLDER: Final = 0

DRAW_KINDS: Final[dict[str, str]] = {
    "流局": "exhaustive",
    "全員聴牌": "exhaustive",
    "全員不聴": "exhaustive",
    "流し満貫": "nm",
    "九種九牌": "yao9",
    "四家立直": "reach4",
    "三家和了": "ron3",
    "三家和": "ron3",  # tensoul
    "四槓散了": "kan4",
    "四開槓": "kan4",  # tensoul
    "四風連打": "kaze4",
}
"""Every draw string of §4.8 -> ``RecordedDraw.kind``."""
WIN_STRING: Final = "和了"

LIMIT_NAMES: Final[dict[str, int]] = {
    "満貫": 1,
    "跳満": 2,
    "倍満": 3,
    "三倍満": 4,
    "役満": 5,
    "数え役満": 5,  # tensoul's kazoe
}

_YAKU_FALLBACK: Final[dict[str, int]] = {
    "門前清自摸和": 0, "立直": 1, "一発": 2, "槍槓": 3, "嶺上開花": 4, "海底摸月": 5,
    "河底撈魚": 6, "平和": 7, "断幺九": 8, "一盃口": 9, "自風 東": 10, "自風 南": 11,
    "自風 西": 12, "自風 北": 13, "場風 東": 14, "場風 南": 15, "場風 西": 16,
    "場風 北": 17, "役牌 白": 18, "役牌 發": 19, "役牌 中": 20, "両立直": 21,
    "七対子": 22, "混全帯幺九": 23, "一気通貫": 24, "三色同順": 25, "三色同刻": 26,
    "三槓子": 27, "対々和": 28, "三暗刻": 29, "小三元": 30, "混老頭": 31, "二盃口": 32,
    "純全帯幺九": 33, "混一色": 34, "清一色": 35, "人和": 36, "天和": 37, "地和": 38,
    "大三元": 39, "四暗刻": 40, "四暗刻単騎": 41, "字一色": 42, "緑一色": 43,
    "清老頭": 44, "九蓮宝燈": 45, "純正九蓮宝燈": 46, "国士無双": 47,
    "国士無双１３面": 48, "大四喜": 49, "小四喜": 50, "四槓子": 51, "ドラ": 52,
    "裏ドラ": 53, "赤ドラ": 54,
    # third-party English names (tensoul), the ones needed to keep han sums right
    "Riichi": 1, "Ippatsu": 2, "Dora": 52, "Ura Dora": 53, "Red Five": 54,
    "Aka Dora": 54, "All Simples": 8, "Pinfu": 7,
}  # fmt: skip
"""Yaku string -> Tenhou id (formats.md §3.6), used where the shared yaku table
has no entry."""


def _yaku_id(name: str) -> int | None:
    try:
        from replay_audit.scoring.yaku import by_name_ja
    except ImportError:  # pragma: no cover - the yaku table is another layer
        return _YAKU_FALLBACK.get(name)
    found = by_name_ja(name)
    return found if found is not None else _YAKU_FALLBACK.get(name)


_DAN_DIGITS: Final = "０１２３４５６７８９"
_KANJI_NUM: Final = {"初": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}  # fmt: skip


def dan_index(name: object) -> int | None:
    """Rank index 0-20 from a JSON rank name (``新人``, ``９級``, ``初段``, ``十段``,
    ``天鳳``); ``None`` for anything else.

    >>> [dan_index(n) for n in ("新人", "９級", "1級", "初段", "七段", "十段", "天鳳位")]
    [0, 1, 9, 10, 16, 19, 20]
    """
    if isinstance(name, int) and 0 <= name <= 20:
        return name
    if not isinstance(name, str) or not name:
        return None
    if name == "新人":
        return 0
    if name.startswith("天鳳"):
        return 20
    stem, unit = name[:-1], name[-1]
    digits = "".join(str(_DAN_DIGITS.index(c)) if c in _DAN_DIGITS else c for c in stem)
    if digits.isdigit():
        n: int | None = int(digits)
    else:
        n = _KANJI_NUM.get(stem)
    if n is None:
        return None
    if unit == "級" and 1 <= n <= 9:
        return 10 - n
    if unit == "段" and 1 <= n <= 10:
        return 9 + n
    return None


# ----------------------------------------------------------------------- document


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Reject nesting deeper than ``limit`` before ``json.loads`` sees it (the C
    decoder recurses, and a hostile file could exhaust the stack).  Strings are
    blanked out first so brackets inside names do not count."""
    stripped = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    depth = 0
    for m in re.finditer(r"[\[\]{}]", stripped):
        if m.group() in "[{":
            depth += 1
            if depth > limit:
                raise LimitExceededError(f"JSON nested deeper than {limit} levels")
        else:
            depth -= 1


def load_document(data: bytes, source: str = "<bytes>") -> dict[str, Any]:
    """Decode, size- and depth-check and ``json.loads`` a tenhou.net/6 document."""
    if len(data) > MAX_INPUT_BYTES:
        raise LimitExceededError(
            f"input is {len(data)} bytes, over the {MAX_INPUT_BYTES}-byte limit", source=source
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotALogError(f"not UTF-8 text: {exc}", source=source) from exc
    if not text.strip():
        raise NotALogError("empty document", source=source)
    try:
        check_depth(text)
    except LimitExceededError as exc:
        raise exc.located(source=source) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        cls = TruncatedLogError if exc.pos >= len(text.rstrip()) else NotALogError
        raise cls(
            f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=source
        ) from exc
    except RecursionError as exc:  # pragma: no cover - check_depth comes first
        raise LimitExceededError("JSON nested too deeply", source=source) from exc
    except ValueError as exc:  # an integer over Python's 4,300-digit limit
        raise LimitExceededError(f"JSON number too long: {exc}", source=source) from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        raise NotALogError("not a tenhou.net/6 log: no top-level 'log' array", source=source)
    return doc


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
            hand = _parse_hand(raw, i, meta, names, connections.get(i, ()), warnings)
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


def _nm(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else ""


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


def is_chip_room(disp: str | None) -> bool:
    """A 祝儀 (chip) room by its ``rule.disp``: a 祝 mark or one of the chip room
    names 若 銀 琥 孔 (formats.md §3.3 GO bits 0x600).

    >>> is_chip_room("琥南喰赤祝５"), is_chip_room("鳳南喰赤"), is_chip_room("銀の間東喰赤")
    (True, False, False)
    """
    if not disp or room_of(disp) is not None:  # Mahjong Soul's 銀の間 is no chip room
        return False
    room = disp[1:2] if disp.startswith("三") else disp[:1]
    return "祝" in disp or room in ("若", "銀", "琥", "孔")


def _declared_aka(doc: dict[str, Any]) -> bool:
    """Red fives as the ``rule`` object says: any non-zero ``aka``/``aka5x`` flag
    (mjai-reviewer reads them the same way); on when the file has no flags."""
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    assert isinstance(rule, dict)
    keys = [k for k in rule if isinstance(k, str) and k.startswith("aka")]
    return any(_truthy(rule[k]) for k in keys) if keys else True


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


# --------------------------------------------------------------------- one hand


class _Dead(Exception):
    """This branch of the merge cannot be what happened (backtracking signal)."""

    def __init__(self, message: str, depth: int) -> None:
        super().__init__(message)
        self.message = message
        self.depth = depth


@dataclass(frozen=True, slots=True)
class _CallStr:
    letter: str
    pos: int
    codes: tuple[int, ...]
    text: str

    @property
    def key_index(self) -> int:
        """Index in ``codes`` of the tile right after the letter."""
        return self.pos // 2


def parse_call_string(text: str) -> _CallStr:
    """Split a call string into letter, letter position and tile codes, checking
    the shape of §4.5/§4.6; ``ValueError`` when impossible.

    >>> c = parse_call_string("35k353553")
    >>> c.letter, c.pos, c.codes
    ('k', 2, (35, 35, 35, 53))
    """
    letters = [i for i, ch in enumerate(text) if not ch.isdigit()]
    if len(letters) != 1:
        raise ValueError(f"call string {text!r} needs exactly one letter")
    pos = letters[0]
    letter = text[pos]
    digits = text[:pos] + text[pos + 1 :]
    if pos % 2 or len(digits) % 2 or not digits:
        raise ValueError(f"call string {text!r} is not made of 2-digit tiles")
    codes = tuple(int(digits[i : i + 2]) for i in range(0, len(digits), 2))
    kinds = []
    for c in codes:
        try:
            kinds.append(tenhou6_kind(c)[0])
        except ValueError as exc:
            raise ValueError(f"call string {text!r}: {exc}") from None
    shape = {"c": (3, (0,)), "p": (3, (0, 2, 4)), "m": (4, (0, 2, 6)), "k": (4, (0, 2, 4)),
             "a": (4, (6,)), "f": (1, (0,))}  # fmt: skip
    if letter not in shape:
        raise ValueError(f"call string {text!r}: unknown letter {letter!r}")
    n, positions = shape[letter]
    if len(codes) != n or pos not in positions:
        raise ValueError(f"call string {text!r}: wrong length or letter position")
    if letter == "c":
        ks = sorted(kinds)
        if ks[0] >= 27 or ks[0] // 9 != ks[2] // 9 or ks != [ks[0], ks[0] + 1, ks[0] + 2]:
            raise ValueError(f"chi {text!r} is not a run in one suit")
    elif letter == "f":
        if kinds[0] != 30:
            raise ValueError(f"kita {text!r} is not a North")
    elif len(set(kinds)) != 1:
        raise ValueError(f"{text!r}: tiles of a pon/kan must be of one kind")
    return _CallStr(letter, pos, codes, text)


def source_seat(who: int, pos: int, letter: str, players: int) -> int:
    """Absolute seat a called tile came from, from the letter position (0 kamicha,
    2 toimen, 4 or 6 shimocha).  Three-player: kamicha/shimocha among seats 0-2;
    a toimen letter is read with four-seat arithmetic (unverified convention)."""
    shimocha_pos = 6 if letter == "m" else 4
    if players == 3:
        if pos == 0:
            return (who + 2) % 3
        if pos == shimocha_pos:
            return (who + 1) % 3
        seat = (who + 2) % 4
        if seat == 3:
            raise ValueError("toimen call in a three-player game from the empty seat")
        return seat
    if pos == 0:
        return (who + 3) % 4
    if pos == 2:
        return (who + 2) % 4
    return (who + 1) % 4


class _Pool:
    """Per-hand copy numbers for wall tiles (see module doc)."""

    def __init__(self, aka: bool) -> None:
        self.aka = aka
        self.used: set[int] = set()

    def take(self, code: int) -> Tile:
        k, red = tenhou6_kind(code)
        red = red and self.aka
        if red:
            order: tuple[int, ...] = (0,)
        elif k < 27 and k % 9 == 4:
            order = (1, 2, 3) if self.aka else (1, 2, 3, 0)
        else:
            order = (0, 1, 2, 3)
        for c in order:
            t = 4 * k + c
            if t not in self.used:
                self.used.add(t)
                return t
        raise ValueError(f"more copies of tile code {code} than the set has")


def _key(code: int, aka: bool) -> tuple[int, bool]:
    k, red = tenhou6_kind(code)
    return k, red and aka


def _tkey(tile: Tile, aka: bool) -> tuple[int, bool]:
    return kind(tile), is_red(tile, aka)


@dataclass(slots=True)
class _State:
    """Mutable merge state; copied whole at each choice point."""

    ti: list[int]
    di: list[int]
    hands: list[list[Tile]]
    melds: list[list[Meld]]
    drawn: list[Tile | None]
    events: list[Move]
    pending_dora: int = 0
    """Kan dora owed by a daiminkan/kakan, shown before the kanner's next discard."""
    due_on_draw: int = 0
    """Kan dora owed by an earlier kan when a kakan came first: shown at the rinshan
    draw, i.e. only if the kakan is not robbed (chankan)."""
    dora_used: int = 0
    riichi_wait: int | None = None
    accepted: list[bool] = field(default_factory=lambda: [False] * 4)
    last_discard: tuple[int, Tile] | None = None

    def copy(self) -> _State:
        return _State(
            ti=list(self.ti),
            di=list(self.di),
            hands=[list(h) for h in self.hands],
            melds=[list(m) for m in self.melds],
            drawn=list(self.drawn),
            events=list(self.events),
            pending_dora=self.pending_dora,
            due_on_draw=self.due_on_draw,
            dora_used=self.dora_used,
            riichi_wait=self.riichi_wait,
            accepted=list(self.accepted),
            last_discard=self.last_discard,
        )


@dataclass(slots=True)
class _Hand:
    """The immutable inputs of one hand's merge."""

    players: int
    aka: bool
    dealer: int
    takes: list[list[int | _CallStr | Tile]]
    """Per seat: wall tile ids (ints) or parsed call strings."""
    discards: list[list[int | str | _CallStr]]
    """Per seat: codes (ints incl. 60 and 0), ``"rNN"`` riichi strings or parsed calls."""
    dora: list[Tile]
    result_kind: str
    wins: list[tuple[int, int]]
    """(winner, from) pairs."""
    kan_dora_at_once: bool = False
    """Chip rooms show every kan's dora right after the kan (observed once, on a
    kakan in a GO 553 log); elsewhere only the ankan's."""
    steps: int = 0


def _parse_hand(
    raw: object,
    index: int,
    meta: GameMeta,
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
    aka = meta.aka
    dealer = round_index % 4
    if dealer >= players:
        raise InvalidValueError(f"round {round_index} has no dealer in a {players}-player game")
    pool = _Pool(aka)
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
    hand = _Hand(players, aka, dealer, takes, discards, dora, result_kind, wins)
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


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _take_item(x: object, pool: _Pool) -> int | _CallStr:
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
        if x not in (TSUMOGIRI, KAN_PLACEHOLDER):
            tenhou6_kind(x)
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


# --------------------------------------------------------------------- the merge


def _next_seat(seat: int, players: int) -> int:
    return (seat + 1) % players


def _flush(st: _State) -> None:
    """Before a draw or call: place a waiting riichi stick (REACH step 2 comes
    right after the discard unless that discard is ronned)."""
    if st.riichi_wait is not None:
        st.events.append(RiichiAccept(seq=len(st.events), seat=st.riichi_wait))
        st.accepted[st.riichi_wait] = True
        st.riichi_wait = None


def _reveal(h: _Hand, st: _State, depth: int) -> None:
    if st.dora_used + 1 >= len(h.dora):
        raise _Dead("a kan reveals more dora than the dora list holds", depth)
    st.dora_used += 1
    st.events.append(NewDora(seq=len(st.events), indicator=h.dora[st.dora_used]))


def _pick(
    st: _State, seat: int, key: tuple[int, bool], aka: bool, depth: int, avoid: Tile | None = None
) -> Tile:
    """Remove and return a tile of that kind/redness from the seat's hand, another
    copy than ``avoid`` (the drawn tile) when there is one."""
    k, red = key
    cands = [t for t in st.hands[seat] if t >> 2 == k and (aka and t in RED_FIVES) == red]
    if not cands:
        raise _Dead(f"seat {seat} does not hold a {_code_name(key)}", depth)
    others = [t for t in cands if t != avoid]
    t = min(others) if others else min(cands)
    st.hands[seat].remove(t)
    return t


def _code_name(key: tuple[int, bool]) -> str:
    return KIND_NAMES[key[0]] + (" (red)" if key[1] else "")


def _run(h: _Hand, st: _State, actor: int, phase: str, depth: int) -> _State:
    """Play the hand forward from ``actor`` in ``phase`` (``take`` or
    ``discard``) to its end, branching at ambiguous calls."""
    aka = h.aka
    item: int | str | _CallStr  # a take-column or a discard-column item (no code runs)
    while True:
        h.steps += 1
        if h.steps > MAX_SIM_STEPS:
            raise LimitExceededError("merging the columns took too many steps")
        depth += 1
        if phase == "take":
            if st.ti[actor] >= len(h.takes[actor]):
                _finish(h, st, depth)
                return st
            item = h.takes[actor][st.ti[actor]]
            if isinstance(item, _CallStr):
                raise _Dead(f"seat {actor} must draw but its next take is {item.text!r}", depth)
            st.ti[actor] += 1
            if st.due_on_draw:
                for _ in range(st.due_on_draw):
                    _reveal(h, st, depth)
                st.due_on_draw = 0
            st.hands[actor].append(item)
            st.drawn[actor] = item
            _flush(st)
            st.events.append(Draw(seq=len(st.events), seat=actor, tile=item))
            if st.di[actor] >= len(h.discards[actor]):
                _finish(h, st, depth)
                return st
            phase = "discard"
            continue
        # discard phase: the actor's next discard-column item
        if st.di[actor] >= len(h.discards[actor]):
            raise _Dead(f"seat {actor} must discard but its column is used up", depth)
        item = h.discards[actor][st.di[actor]]
        st.di[actor] += 1
        if isinstance(item, _CallStr):
            _self_call(h, st, actor, item, depth)
            st.drawn[actor] = None
            phase = "take"
            if st.ti[actor] >= len(h.takes[actor]):
                _finish(h, st, depth)  # chankan / ron on kita / hand ends on the kan
                return st
            continue
        if item == KAN_PLACEHOLDER:
            raise _Dead(f"seat {actor} has a kan placeholder where a discard belongs", depth)
        riichi = isinstance(item, str)
        code = int(item[1:]) if isinstance(item, str) else item
        drawn = st.drawn[actor]
        if code == TSUMOGIRI:
            if drawn is None or drawn not in st.hands[actor]:
                raise _Dead(f"seat {actor} discards the drawn tile but drew none", depth)
            tile = drawn
            st.hands[actor].remove(tile)
        else:
            tile = _pick(st, actor, _key(code, aka), aka, depth, avoid=drawn)
        if st.pending_dora:
            for _ in range(st.pending_dora):
                _reveal(h, st, depth)
            st.pending_dora = 0
        if riichi:
            st.events.append(RiichiDeclare(seq=len(st.events), seat=actor))
        st.events.append(
            Discard(seq=len(st.events), seat=actor, tile=tile, tsumogiri=code == TSUMOGIRI)
        )
        if riichi:
            st.riichi_wait = actor
        st.drawn[actor] = None
        st.last_discard = (actor, tile)
        options = _callers(h, st, actor, tile)
        nxt = _next_seat(actor, h.players)
        if not options:
            actor, phase = nxt, "take"
            continue
        options.append(None)
        best: _Dead | None = None
        for opt in options:
            branch = st.copy() if opt is not options[-1] else st
            try:
                if opt is None:
                    return _run(h, branch, nxt, "take", depth)
                _open_call(h, branch, opt, actor, tile, depth)
                after = "take" if opt[1].letter == "m" else "discard"
                return _run(h, branch, opt[0], after, depth)
            except _Dead as dead:
                if best is None or dead.depth >= best.depth:
                    best = dead
        assert best is not None
        raise best


def _callers(h: _Hand, st: _State, discarder: int, tile: Tile) -> list[tuple[int, _CallStr] | None]:
    """Seats whose next take is a call on exactly this tile from this seat; pon and
    daiminkan before chi (§4.7).  Never ``None`` here: the caller appends that
    option itself (nobody calls)."""
    key = _tkey(tile, h.aka)
    pons: list[tuple[int, _CallStr]] = []
    chis: list[tuple[int, _CallStr]] = []
    for seat in range(h.players):
        if seat == discarder or st.ti[seat] >= len(h.takes[seat]):
            continue
        item = h.takes[seat][st.ti[seat]]
        if not isinstance(item, _CallStr):
            continue
        if _key(item.codes[item.key_index], h.aka) != key:
            continue
        try:
            src = source_seat(seat, item.pos, item.letter, h.players)
        except ValueError:
            continue
        if src != discarder:
            continue
        (chis if item.letter == "c" else pons).append((seat, item))
    return [*pons, *chis]


def _open_call(
    h: _Hand, st: _State, opt: tuple[int, _CallStr], discarder: int, tile: Tile, depth: int
) -> None:
    seat, c = opt
    own_codes = [x for i, x in enumerate(c.codes) if i != c.key_index]
    own = [_pick(st, seat, _key(x, h.aka), h.aka, depth) for x in own_codes]
    kind_ = {"c": MeldKind.CHI, "p": MeldKind.PON, "m": MeldKind.DAIMINKAN}[c.letter]
    meld = Meld(kind=kind_, tiles=tuple(sorted([tile, *own])), called=tile, from_seat=discarder)
    st.ti[seat] += 1
    st.melds[seat].append(meld)
    st.drawn[seat] = None
    st.last_discard = None
    _flush(st)
    st.events.append(Call(seq=len(st.events), seat=seat, meld=meld))
    if kind_ is MeldKind.DAIMINKAN:
        if st.pending_dora:  # a second kan reveals the first one's dora
            for _ in range(st.pending_dora):
                _reveal(h, st, depth)
            st.pending_dora = 0
        if h.kan_dora_at_once:
            _reveal(h, st, depth)
        else:
            st.pending_dora = 1
        # the take slot is used; its discard slot holds the placeholder 0,
        # which the official JSON drops when it would be the column's last item
        if st.di[seat] < len(h.discards[seat]):
            if h.discards[seat][st.di[seat]] != KAN_PLACEHOLDER:
                raise _Dead(f"seat {seat}: daiminkan without its 0 placeholder", depth)
            st.di[seat] += 1


def _self_call(h: _Hand, st: _State, actor: int, c: _CallStr, depth: int) -> None:
    aka = h.aka
    if c.letter == "f":
        t = _pick(st, actor, (30, False), aka, depth)
        meld = Meld(kind=MeldKind.KITA, tiles=(t,))
        st.melds[actor].append(meld)
        _flush(st)
        st.events.append(Call(seq=len(st.events), seat=actor, meld=meld))
        return
    if c.letter == "a":
        tiles = [_pick(st, actor, _key(x, aka), aka, depth) for x in c.codes]
        meld = Meld(kind=MeldKind.ANKAN, tiles=tuple(sorted(tiles)))
        st.melds[actor].append(meld)
        _flush(st)
        st.events.append(Call(seq=len(st.events), seat=actor, meld=meld))
        for _ in range(st.pending_dora):
            _reveal(h, st, depth)
        st.pending_dora = 0
        _reveal(h, st, depth)
        return
    # kakan: extends the seat's pon of that kind
    added_key = _key(c.codes[c.key_index], aka)
    pon_i = next(
        (
            i
            for i, m in enumerate(st.melds[actor])
            if m.kind is MeldKind.PON and m.kind34 == added_key[0]
        ),
        None,
    )
    if pon_i is None:
        raise _Dead(f"seat {actor}: kakan {c.text!r} without a pon to extend", depth)
    pon = st.melds[actor][pon_i]
    try:
        src = source_seat(actor, c.pos, "p", h.players)
    except ValueError as exc:
        raise _Dead(str(exc), depth) from None
    if src != pon.from_seat:
        raise _Dead(f"seat {actor}: kakan {c.text!r} names another source than its pon", depth)
    added = _pick(st, actor, added_key, aka, depth)
    meld = Meld(
        kind=MeldKind.KAKAN,
        tiles=tuple(sorted((*pon.tiles, added))),
        called=pon.called,
        from_seat=pon.from_seat,
        added=added,
    )
    st.melds[actor][pon_i] = meld
    _flush(st)
    st.events.append(Call(seq=len(st.events), seat=actor, meld=meld))
    if h.kan_dora_at_once:
        _reveal(h, st, depth)
        return
    st.due_on_draw += st.pending_dora
    st.pending_dora = 1


def _finish(h: _Hand, st: _State, depth: int) -> None:
    """The hand has stopped: every column must be used up and the result must fit
    the last move, else this branch is not what happened."""
    for seat in range(h.players):
        if st.ti[seat] < len(h.takes[seat]):
            raise _Dead(f"seat {seat} has takes left after the hand ended", depth)
        if st.di[seat] < len(h.discards[seat]):
            raise _Dead(f"seat {seat} has discards left after the hand ended", depth)
    if st.dora_used + 1 != len(h.dora):
        raise _Dead(
            f"{len(h.dora)} dora indicators listed but {st.dora_used + 1} revealed by the moves",
            depth,
        )
    last = st.events[-1] if st.events else None
    if h.result_kind == "win":
        for who, frm in h.wins:
            if who == frm:
                ok = isinstance(last, Draw) and last.seat == who and len(h.wins) == 1
            else:
                ok = (
                    isinstance(last, Discard)
                    or (
                        isinstance(last, Call)
                        and last.meld.kind in (MeldKind.KAKAN, MeldKind.KITA, MeldKind.ANKAN)
                    )
                ) and last.seat == frm
            if not ok:
                raise _Dead(
                    f"the win of seat {who} from seat {frm} does not fit the last move", depth
                )
    elif h.result_kind == "yao9" and not isinstance(last, Draw):
        raise _Dead("九種九牌 must follow a draw", depth)
    if st.riichi_wait is not None:
        ronned = h.result_kind == "ron3" or any(
            frm == st.riichi_wait and who != frm for who, frm in h.wins
        )
        if not ronned:
            st.events.append(RiichiAccept(seq=len(st.events), seat=st.riichi_wait))
            st.accepted[st.riichi_wait] = True
        st.riichi_wait = None


def _reseq(m: Move, i: int) -> Move:
    return replace(m, seq=i)


def _insert_connections(
    events: list[Move], conns: Sequence[tuple[int, int, int]], names: Sequence[str]
) -> list[Move]:
    """Place BYE/reconnect events after ``step`` draw/discard/call moves, and after
    the riichi stick or kan dora that comes with the step-th move."""
    if not conns:
        return events
    counted = (Draw, Discard, Call)
    out: list[Move] = []
    n = 0
    pending = sorted(conns, key=lambda c: c[2])
    k = 0

    def flush() -> None:
        nonlocal k
        while k < len(pending) and pending[k][2] <= n:
            what, who, _ = pending[k]
            out.append(
                Disconnect(seq=0, seat=who)
                if what == 0
                else Reconnect(seq=0, seat=who, name=_nm(names, who))
            )
            k += 1

    flush()
    for i, ev in enumerate(events):
        out.append(ev)
        if isinstance(ev, counted):
            n += 1
        nxt = events[i + 1] if i + 1 < len(events) else None
        if not isinstance(nxt, (RiichiAccept, NewDora)):
            flush()
    while k < len(pending):
        n = pending[-1][2]
        flush()
    return out


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


# ------------------------------------------------------------------- comparison


def comparable(event: Event, aka: bool = True) -> tuple[object, ...]:
    """An event as a plain tuple with tiles reduced to (kind, red) and ``seq``
    left out: JSON has no copy numbers, so this is how an XML and a JSON reading
    of the same game are held against each other.  Result fields JSON does not
    carry (hand, melds, win tile, fu of limit hands, ``裏ドラ(0飜)``, the ``ba``
    honba and sticks, the scores before the result) are left out."""

    def t(tile: Tile) -> tuple[int, bool]:
        return kind(tile), is_red(tile, aka)

    def ts(tiles: Sequence[Tile]) -> tuple[tuple[int, bool], ...]:
        return tuple(t(x) for x in tiles)

    if isinstance(event, Draw):
        return ("draw", event.seat, t(event.tile))
    if isinstance(event, Discard):
        return ("discard", event.seat, t(event.tile), event.tsumogiri)
    if isinstance(event, Call):
        m = event.meld
        return (
            "call", event.seat, str(m.kind), tuple(sorted(ts(m.tiles))),
            None if m.called is None else t(m.called), m.from_seat,
            None if m.added is None else t(m.added),
        )  # fmt: skip
    if isinstance(event, RiichiDeclare):
        return ("riichi", event.seat)
    if isinstance(event, RiichiAccept):
        return ("riichi_accept", event.seat)
    if isinstance(event, NewDora):
        return ("dora", t(event.indicator))
    if isinstance(event, Disconnect):
        return ("disconnect", event.seat)
    if isinstance(event, Reconnect):
        return ("reconnect", event.seat, event.name)
    if isinstance(event, RecordedWin):
        return (
            "win", event.seat, event.from_seat, event.pao_seat, event.points, event.limit,
            tuple(y for y in event.yaku if y != (53, 0)), event.yakuman, ts(event.dora),
            ts(event.ura), event.deltas, event.owari,
        )  # fmt: skip
    return ("draw_result", event.kind, event.deltas, event.owari)
