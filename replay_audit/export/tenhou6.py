"""``Game`` -> tenhou.net/6 JSON (the layout of Tenhou's own ``mjlog2json``).

The writer walks each hand's events once and fills the per-seat columns of
formats.md §4.3: draws and open calls into the takes, discards (``60`` for
tsumogiri, ``r`` for riichi), kakan/ankan strings, ``f44`` kita and the ``0``
placeholder after a daiminkan into the discards.  Call strings follow the
red-five placement of §4.5 and results the point and yaku strings of §4.8, so a
game read from XML comes out as Tenhou's own JSON of it.

Red fives are the game's own set (``model.rules.eras.red_fives_of``): a log of
Tenhou's 2006 server, whose id 53 is a second red 5p, writes 53 as code 52 and
says so with ``aka52: 2`` in ``rule`` (``model.rules.reds``), so the JSON reads
back with the same red fives and audits the same.

>>> pon = Meld(MeldKind.PON, (97, 98, 99), called=99, from_seat=3)
>>> call_string(pon, seat=2, aka=True, players=4)
'3737p37'
>>> point_string(fu=30, han=1, limit=0, points=1100, tsumo=True, dealer=False)
'30符1飜300-500点'

Must not: parse, replay or score; it only re-spells the events of a ``Game``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any, Final

from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    Game,
    HandLog,
    NewDora,
    Owari,
    Player,
    Reconnect,
    RecordedDraw,
    RecordedWin,
    RiichiDeclare,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.eras import red_fives_of
from replay_audit.model.rules.reds import TODAYS, rule_flags
from replay_audit.model.tiles import Tile, kind
from replay_audit.model.tiles import to_tenhou6 as tile_code

DAN_NAMES: Final = (
    "新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
)  # fmt: skip
"""Rank index 0-20 -> the names Tenhou's JSON writes."""

LIMIT_STRINGS: Final = {1: "満貫", 2: "跳満", 3: "倍満", 4: "三倍満", 5: "役満"}

DRAW_STRINGS: Final = {
    "nm": "流し満貫",
    "yao9": "九種九牌",
    "reach4": "四家立直",
    "ron3": "三家和了",
    "kan4": "四槓散了",
    "kaze4": "四風連打",
}

_ROOMS: Final = "般上特鳳若銀琥孔"


def disp_for_go_type(go_type: int | None) -> str:
    """The ``rule.disp`` Tenhou writes for a GO type (鳳南喰赤 for 169, 三 prefix in
    sanma, 東天紅 for 0x800).

    >>> disp_for_go_type(169), disp_for_go_type(225), disp_for_go_type(185)
    ('鳳南喰赤', '鳳東喰赤速', '三鳳南喰赤')
    >>> disp_for_go_type(553)  # chip room; the 祝 suffix is unverified against real JSON
    '琥南喰赤祝２'
    """
    if go_type is None:
        return ""
    if go_type & 0x800:
        return "東天紅"
    level = 2 * bool(go_type & 0x20) + bool(go_type & 0x80)
    if go_type & 0x600:
        level += 4
    out = "三" if go_type & 0x10 else ""
    out += _ROOMS[level]
    out += "南" if go_type & 0x08 else "東"
    if not go_type & 0x04:
        out += "喰"
    if not go_type & 0x02:
        out += "赤"
    if go_type & 0x40:
        out += "速"
    if go_type & 0x600:
        out += {0x200: "祝２", 0x400: "祝０", 0x600: "祝５"}[go_type & 0x600]
    return out


Reds = Collection[Tile]
"""The ids a game's red fives are (empty without aka)."""


def _code(tile: Tile, reds: Reds) -> int:
    """The code of a tile: 51-53 for any of the game's red fives (both red 5p of
    the 2006 set are 52), else the plain code."""
    return 51 + tile // 36 if tile in reds else tile_code(tile, aka=False)


def _codes_plain_first(tiles: Sequence[Tile], reds: Reds) -> list[int]:
    """Hand tiles of a pon/kan: plain copies before a red five (§4.5)."""
    return [_code(t, reds) for t in sorted(tiles, key=lambda t: (t in reds, t))]


def _rel_pos(seat: int, from_seat: int, players: int, letter: str) -> int:
    """Letter position for the source seat: 0 kamicha, 2 toimen, 4/6 shimocha."""
    shimocha = 6 if letter == "m" else 4
    d = (from_seat - seat) % players
    if d == players - 1:
        return 0
    if d == 1:
        return shimocha
    return 2


def call_string(
    meld: Meld, seat: int, aka: bool, players: int = 4, reds: Reds | None = None
) -> str:
    """The take/discard string of one call (formats.md §4.5, §4.6); ``reds`` is
    the game's red-five set where it is not today's (``aka`` then says nothing).

    >>> ankan = Meld(MeldKind.ANKAN, (52, 53, 54, 55))
    >>> call_string(ankan, 0, aka=True), call_string(ankan, 0, True, reds=(16, 52, 53, 88))
    ('252525a52', '252552a52')
    """
    if reds is None:
        reds = TODAYS if aka else ()
    if meld.kind is MeldKind.KITA:
        return "f44"
    if meld.kind is MeldKind.ANKAN:
        codes = _codes_plain_first(meld.tiles, reds)
        return "".join(str(c) for c in codes[:3]) + "a" + str(codes[3])
    if meld.kind is MeldKind.CHI:
        assert meld.called is not None
        rest = sorted((t for t in meld.tiles if t != meld.called), key=kind)
        return "c" + "".join(str(_code(t, reds)) for t in (meld.called, *rest))
    assert meld.called is not None and meld.from_seat is not None
    letter = {MeldKind.PON: "p", MeldKind.DAIMINKAN: "m", MeldKind.KAKAN: "p"}[meld.kind]
    exclude = {meld.called, meld.added}
    own = _codes_plain_first([t for t in meld.tiles if t not in exclude], reds)
    pos = _rel_pos(seat, meld.from_seat, players, letter)
    parts = [str(c) for c in own]
    parts.insert(pos // 2, letter + str(_code(meld.called, reds)))
    if meld.kind is MeldKind.KAKAN:
        assert meld.added is not None
        parts[pos // 2] = "k" + str(_code(meld.added, reds)) + parts[pos // 2][1:]
    return "".join(parts)


def point_string(
    fu: int | None,
    han: int | None,
    limit: int | None,
    points: int | None,
    tsumo: bool,
    dealer: bool,
    players: int = 4,
) -> str:
    """``{fu}符{han}飜`` or a limit name, then the amount: ron ``8000点``, non-dealer
    tsumo ``{ko}-{oya}点``, dealer tsumo ``{each}点∀`` (honba never included)."""
    rank = LIMIT_STRINGS[limit] if limit else f"{fu}符{han}飜"
    total = points or 0
    if not tsumo:
        return f"{rank}{total}点"
    if dealer:
        return f"{rank}{total // (players - 1)}点∀"
    # total = ko * (players - 2) + oya with oya in [2ko - 100, 2ko]
    ko = -(-total // (100 * players)) * 100
    oya = total - ko * (players - 2)
    return f"{rank}{ko}-{oya}点"


def yaku_strings(win: RecordedWin) -> list[str]:
    """``名前(N飜)`` / ``名前(役満)`` in Tenhou's order, ``裏ドラ(0飜)`` dropped."""
    from replay_audit.scoring.yaku import YAKU

    out = []
    for yid, han in win.yaku:
        if yid == 53 and han == 0:
            continue
        out.append(f"{YAKU[yid].name_ja}({han}飜)")
    out.extend(f"{YAKU[yid].name_ja}(役満)" for yid in win.yakuman)
    return out


def _num(v: float) -> int | float:
    """Whole numbers without decimals, as Tenhou writes them."""
    return int(v) if float(v).is_integer() else v


def to_tenhou6(game: Game) -> dict[str, Any]:
    """The tenhou.net/6 document of a game, keys in Tenhou's order (ver, ref, log,
    connection?, ratingc, rule, lobby, dan, rate, sx, sc, name)."""
    meta = game.meta
    reds = frozenset(red_fives_of(game))
    players = meta.players
    kept = dict(meta.extra) if meta.format == "tenhou-json" else {}
    from_json = meta.format == "tenhou-json"
    doc: dict[str, Any] = {}
    if "ver" in kept or not from_json:
        doc["ver"] = _kept(kept, "ver", 2.3)
    if meta.log_id or not from_json:
        doc["ref"] = meta.log_id or ""
    doc["log"] = [_hand(h, reds, players) for h in game.hands]
    conns = _connections(game)
    if conns:
        doc["connection"] = conns
    if "ratingc" in kept or not from_json:
        doc["ratingc"] = _kept(kept, "ratingc", "PF3" if players == 3 else "PF4")
    if "rule" in kept:  # a JSON source: write its rule object back as it was
        doc["rule"] = json.loads(kept["rule"])
    else:
        disp = meta.rule_disp if meta.rule_disp is not None else disp_for_go_type(meta.go_type)
        doc["rule"] = {"disp": disp, **rule_flags(reds)}
    if meta.lobby is not None or meta.format != "tenhou-json":
        doc["lobby"] = meta.lobby or 0
    ps = list(game.players) + [Player(name="")] * (4 - len(game.players))
    if any(p.dan is not None for p in ps):
        doc["dan"] = [DAN_NAMES[p.dan] if p.dan is not None else "" for p in ps]
    if any(p.rate is not None for p in ps):
        doc["rate"] = [_num(p.rate) if p.rate is not None else 0 for p in ps]
    if any(p.sex is not None for p in ps):
        doc["sx"] = [p.sex or "" for p in ps]
    owari = game.owari or _last_owari(game)
    if owari is not None:
        sc: list[int | float] = []
        for s, p in zip(owari.scores, owari.points, strict=True):
            sc += [s, _num(p)]
        doc["sc"] = sc
    doc["name"] = [p.name for p in ps]
    if "title" in kept:
        doc["title"] = json.loads(kept["title"])
    return doc


def _kept(kept: dict[str, str], key: str, default: Any) -> Any:
    return json.loads(kept[key]) if key in kept else default


def _last_owari(game: Game) -> Owari | None:
    for h in reversed(game.hands):
        for r in reversed(h.results):
            if r.owari is not None:
                return r.owari
    return None


def _connections(game: Game) -> list[dict[str, int]]:
    out = []
    for ev in game.pre_game:
        if isinstance(ev, (Disconnect, Reconnect)):
            out.append(
                {"what": int(isinstance(ev, Reconnect)), "log": -1, "who": ev.seat, "step": 0}
            )
    for i, h in enumerate(game.hands):
        step = 0
        for ev in h.events:
            if isinstance(ev, (Draw, Discard, Call)):
                step += 1
            elif isinstance(ev, (Disconnect, Reconnect)):
                what = int(isinstance(ev, Reconnect))
                out.append({"what": what, "log": i, "who": ev.seat, "step": step})
    return out


def _hand(h: HandLog, reds: Reds, players: int) -> list[Any]:
    takes: list[list[Any]] = [[] for _ in range(4)]
    discards: list[list[Any]] = [[] for _ in range(4)]
    dora = [_code(h.dora_indicator, reds)]
    last_draw: list[Tile | None] = [None] * 4
    riichi_next = [False] * 4
    for ev in h.events:
        if isinstance(ev, Draw):
            takes[ev.seat].append(_code(ev.tile, reds))
            last_draw[ev.seat] = ev.tile
        elif isinstance(ev, RiichiDeclare):
            riichi_next[ev.seat] = True
        elif isinstance(ev, Discard):
            code: int | str = 60 if ev.tsumogiri else _code(ev.tile, reds)
            if riichi_next[ev.seat]:
                code = f"r{code}"
                riichi_next[ev.seat] = False
            discards[ev.seat].append(code)
        elif isinstance(ev, Call):
            s = call_string(ev.meld, ev.seat, bool(reds), players, reds)
            if ev.meld.kind in (MeldKind.CHI, MeldKind.PON):
                takes[ev.seat].append(s)
            elif ev.meld.kind is MeldKind.DAIMINKAN:
                takes[ev.seat].append(s)
                discards[ev.seat].append(0)
            else:
                discards[ev.seat].append(s)
        elif isinstance(ev, NewDora):
            dora.append(_code(ev.indicator, reds))
    for seat in range(4):
        # the placeholder is dropped when nothing follows it (rinshan tsumo win)
        if discards[seat] and discards[seat][-1] == 0:
            discards[seat].pop()
    wins = [r for r in h.results if isinstance(r, RecordedWin)]
    ura = next((list(w.ura) for w in wins if w.ura), [])
    kept_ura = dict(h.extra).get("ura")
    if not ura and kept_ura:
        ura_codes = [int(c) for c in kept_ura.split(",")]
    else:
        ura_codes = [_code(t, reds) for t in ura]
    out: list[Any] = [
        [h.round_index, h.honba, h.sticks],
        list(h.scores[:4]) + [0] * (4 - len(h.scores)),
        dora,
        ura_codes,
    ]
    for seat in range(4):
        hai = (
            sorted(h.haipai[seat], key=lambda t: (kind(t), t in reds))
            if seat < len(h.haipai)
            else []
        )
        out += [[_code(t, reds) for t in hai], takes[seat], discards[seat]]
    out.append(_result(h, players))
    return out


def _result(h: HandLog, players: int) -> list[Any]:
    results = h.results
    wins = [r for r in results if isinstance(r, RecordedWin)]
    if wins:
        res: list[Any] = ["和了"]
        for w in wins:
            res.append(list(w.deltas))
            pao = w.pao_seat if w.pao_seat is not None else w.seat
            detail: list[Any] = [w.seat, w.from_seat, pao]
            if w.point_string is not None:
                detail.append(w.point_string)
            elif w.points is not None:
                detail.append(
                    point_string(
                        w.fu, w.han, w.limit, w.points, w.tsumo, w.seat == h.dealer, players
                    )
                )
            detail += list(w.yaku_names) if w.yaku_names else yaku_strings(w)
            res.append(detail)
        return res
    draws = [r for r in results if isinstance(r, RecordedDraw)]
    if not draws:
        return []
    d = draws[0]
    deltas = list(d.deltas) if d.deltas else [0, 0, 0, 0]
    if d.status_string is not None:
        text = d.status_string
    elif d.kind == "exhaustive":
        shown = len(d.shown_seats)
        text = "流局"
        if not any(deltas):
            text = "全員聴牌" if shown == players else "全員不聴"
    else:
        text = DRAW_STRINGS[d.kind]
    return [text, deltas] if any(deltas) else [text]


def dumps_tenhou6(game: Game) -> str:
    """``to_tenhou6`` as compact JSON text with Japanese left readable."""
    return json.dumps(to_tenhou6(game), ensure_ascii=False, separators=(",", ":"))
