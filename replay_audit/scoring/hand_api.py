"""Score one hand from its tiles and its situation: the call a player wants first.

The auditor scores wins that a replay rebuilt; a player holding a hand wants the
same answer from notation (``123m456p789s11z22z``), the way the ``mahjong``
package's ``HandCalculator`` gives it.  ``score_hand`` builds the ``WinContext``
from notation, checks that the hand can exist under the rules (14 tiles, at most
four of a kind, no 2m-8m in three-player, a situation that can happen), and then
uses the same pure scoring the audit uses (``score_win``, ``explain``,
``payments.win_deltas``): nothing is scored twice in two ways.

Invalid input raises ``HandError`` (a ``ValueError``) saying what is wrong; a
hand that is valid but not a win (no yaku, not complete) is a result whose
``error`` says so, as in the ``mahjong`` package.

>>> r = score_hand("234m345p456s22678s", win="8s", tsumo=True)
>>> r.yaku, r.han, r.fu, r.payments
((('menzen tsumo', 1), ('pinfu', 1), ('tanyao', 1)), 3, 20, (-1300, 2700, -700, -700))

Must not: hold scoring logic of its own (``scoring.hand`` scores).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from replay_audit.model.errors import ReplayAuditError
from replay_audit.model.rules.presets import load_rules
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.model.tiles import (
    RED_FIVES,
    SANMA_MISSING_KINDS,
    WIND_NAMES,
    kind,
    kind_name,
    parse_tiles,
)
from replay_audit.scoring.context import WinContext, WinValue
from replay_audit.scoring.explain import explain
from replay_audit.scoring.hand import context_from_notation, score_win
from replay_audit.scoring.payments import win_deltas
from replay_audit.scoring.points import LIMIT_NAMES
from replay_audit.scoring.toutenkou import TOUTENKOU_UNIT
from replay_audit.scoring.yaku import yaku_name

__all__ = ["HandError", "HandResult", "score_hand"]

_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3, "east": 0, "south": 1, "west": 2, "north": 3}
_TOUTENKOU_MANZU = frozenset({0, 4, 8})


class HandError(ReplayAuditError, ValueError):
    """A hand or situation that cannot exist under the rules (not merely no win)."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """One scored hand: the verdict, and the values it came from.

    ``yaku`` lists ``(name, han)`` in Tenhou's order with dora, aka and ura
    (ura only for riichi) at the end; under Toutenkou the numbers are points and
    the bonuses follow.  ``yakuman`` lists yakuman names.  ``fu_items`` lists
    ``(what, fu)`` as counted before rounding (a yakuman: none, and ``fu`` 0, as
    its fu count for nothing).  ``limit`` is ``""``, ``mangan`` …
    ``yakuman``.  ``points`` is what the hand is worth without honba and sticks
    (a tsumo: the total collected; Toutenkou: in points).  ``payments`` are the score changes per seat,
    honba and sticks included, indexed by seat wind (East first; one entry per
    player).  ``error`` is ``"no_yaku"`` or ``"not_complete"`` when the tiles are
    no win; every number is then 0.
    """

    yaku: tuple[tuple[str, int], ...]
    yakuman: tuple[str, ...]
    han: int
    fu: int
    fu_items: tuple[tuple[str, int], ...]
    limit: str
    points: int
    payments: tuple[int, ...]
    error: str | None
    context: WinContext
    value: WinValue
    rules: RuleSet
    discarder: int | None
    """Seat wind index of the discarder (ron), else ``None``."""

    @property
    def ok(self) -> bool:
        return self.error is None

    def explain(self) -> str:
        """The breakdown a player reads: yaku, han and fu, fu item by item, limit,
        who pays what (``scoring.explain``), then the payments by seat."""
        text = explain(self.context, self.value)
        if not self.ok:
            return text
        seats = ", ".join(
            f"{WIND_NAMES[s]} {d:+d}" for s, d in enumerate(self.payments) if d or s == 0
        )
        return f"{text}\npayments: {seats}"

    def as_dict(self) -> dict[str, Any]:
        """Plain values only (JSON-ready): what ``replay-audit score --json`` prints."""
        return {
            "yaku": [list(y) for y in self.yaku],
            "yakuman": list(self.yakuman),
            "han": self.han,
            "fu": self.fu,
            "fu_items": [list(f) for f in self.fu_items],
            "limit": self.limit,
            "points": self.points,
            "payments": list(self.payments),
            "error": self.error,
            "rules": self.rules.name,
        }


def _wind(value: str | int, what: str, players: int) -> int:
    if isinstance(value, int):
        w = value
    else:
        key = value.strip()
        found = _WINDS.get(key) if key in _WINDS else _WINDS.get(key.lower())
        if found is None:
            raise HandError(f"{what} {value!r}: give E, S, W or N")
        w = found
    if not 0 <= w < players:
        raise HandError(f"{what} {WIND_NAMES[w] if 0 <= w < 4 else w}: a {players}-player game")
    return w


def _tiles(text: str, what: str) -> list[int]:
    try:
        return parse_tiles(text)
    except ValueError as exc:
        raise HandError(f"{what}: {exc}") from None


def score_hand(
    hand: str,
    win: str | None = None,
    *,
    melds: Sequence[str] = (),
    tsumo: bool = False,
    riichi: bool = False,
    double_riichi: bool = False,
    ippatsu: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    renhou: bool = False,
    dora: str = "",
    ura: str = "",
    seat_wind: str | int = "S",
    round_wind: str | int = "E",
    discarder: str | int | None = None,
    honba: int = 0,
    sticks: int = 0,
    rules: RuleSet | str = "tenhou-4p",
) -> HandResult:
    """Score one winning hand.

    ``hand`` is every concealed tile, the winning tile included, in notation
    (``123m406p789s11z222z``: ``0`` a red five, ``1z``-``7z`` East South West North
    Haku Hatsu Chun); ``win`` is the winning tile (default: the last one written).
    ``melds`` are calls as ``"pon:555m"``, ``"chi:678s"``, ``"kan:9999p"``,
    ``"kakan:2222s"``, ``"ankan:1111z"``, ``"kita:4z"``.  ``dora`` and ``ura`` are
    indicator tiles in notation.  ``seat_wind`` / ``round_wind`` are ``E S W N``
    (default: South seat, East round, a non-dealer); ``discarder`` (ron) is the
    seat wind that dealt in (default: the seat before the winner).  ``honba``
    and ``sticks`` (riichi sticks on the table) change the payments only (under
    Toutenkou honba are points of the hand).  ``rules`` is a ``RuleSet`` or a
    preset name.

    Raises ``HandError`` for a hand that cannot exist: bad notation, a fifth
    copy of a tile (hand, calls and indicators counted together), a wrong
    number of tiles, tiles the rules' set lacks (2m-8m in three-player), a red
    five without aka, or a situation that cannot happen (riichi with an open
    hand, ippatsu without riichi, haitei on a ron ...).

    >>> r = score_hand("111234556789999m", win="1m", tsumo=True, riichi=True)
    Traceback (most recent call last):
    ...
    replay_audit.scoring.hand_api.HandError: hand has 15 tiles; with 0 calls it needs 14
    >>> score_hand("22345m345p345s789s", win="2m", rules="tenhou-3p")
    Traceback (most recent call last):
    ...
    replay_audit.scoring.hand_api.HandError: 2m 3m 4m 5m are not in the three-player tile set (2m-8m are removed)
    """
    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    players = rule_set.players
    seat = _wind(seat_wind, "seat wind", players)
    round_w = _wind(round_wind, "round wind", 4)
    if honba < 0 or sticks < 0:
        raise HandError("honba and sticks cannot be negative")

    concealed = _tiles(hand, "hand")
    if not concealed:
        raise HandError("the hand is empty")
    win_text = win if win is not None else None
    if win_text is not None:
        win_tiles = _tiles(win_text, "winning tile")
        if len(win_tiles) != 1:
            raise HandError(f"the winning tile is one tile, not {win_text!r}")
        want = kind(win_tiles[0]), win_tiles[0] in RED_FIVES
        held = [(kind(t), t in RED_FIVES) for t in concealed]
        if want not in held:
            raise HandError(f"the winning tile {win_text} is not in the hand {hand}")
    specs = []
    for m in melds:
        name, sep, text = m.partition(":")
        if not sep:
            raise HandError(f"a call is KIND:TILES, e.g. pon:555m, not {m!r}")
        specs.append((name.strip(), text.strip()))
    n_sets = 0
    for name, text in specs:
        n = len(_tiles(text, f"call {name}:{text}"))
        expected = {"chi": 3, "pon": 3, "kan": 4, "daiminkan": 4, "kakan": 4, "ankan": 4}
        if name == "kita":
            if not rule_set.nukidora:
                raise HandError(f"kita: the rules {rule_set.name} do not set North aside")
            aside = {30, 0, 4, 8} if rule_set.scoring == "toutenkou" else {30}
            if n != 1 or kind(_tiles(text, "kita")[0]) not in aside:
                raise HandError(f"kita sets aside one North (4z), not {text!r}")
            continue
        if name not in expected:
            raise HandError(f"unknown call kind {name!r}; known: chi, pon, kan, kakan, ankan, kita")
        if n != expected[name]:
            raise HandError(f"{name}:{text} has {n} tiles, a {name} has {expected[name]}")
        ks = sorted(kind(t) for t in _tiles(text, name))
        run = ks == list(range(ks[0], ks[0] + 3)) and ks[2] < 27 and ks[0] // 9 == ks[2] // 9
        if name == "chi" and not run:
            raise HandError(f"chi:{text} is not a run of one suit")
        if name == "chi" and not rule_set.chi:
            raise HandError(f"chi: the rules {rule_set.name} have no chi")
        if name != "chi" and len(set(ks)) != 1:
            raise HandError(f"{name}:{text} is not {n} of one tile")
        n_sets += 1
    if len(concealed) + 3 * n_sets != 14:
        raise HandError(
            f"hand has {len(concealed)} tiles; with {n_sets} calls it needs {14 - 3 * n_sets}"
        )
    dora_tiles, ura_tiles = _tiles(dora, "dora"), _tiles(ura, "ura")
    if len(dora_tiles) > 5 or len(ura_tiles) > 5:
        raise HandError("at most 5 dora indicators (1 + 4 kans) and as many ura")
    if len(ura_tiles) > max(1, len(dora_tiles)):
        raise HandError("there are never more ura indicators than dora indicators")

    # every physical tile at once: a fifth copy anywhere is an error
    everything = "".join(t for _, t in specs) + hand + dora + ura
    all_tiles = _tiles(everything, "tiles")
    if players == 3:
        missing = sorted({kind(t) for t in all_tiles} & SANMA_MISSING_KINDS)
        if missing:
            raise HandError(
                f"{' '.join(kind_name(k) for k in missing)} are not in the three-player "
                "tile set (2m-8m are removed)"
            )
    if rule_set.scoring == "toutenkou":
        odd = sorted({kind(t) for t in all_tiles if kind(t) < 9} - _TOUTENKOU_MANZU)
        if odd:
            raise HandError(
                f"{' '.join(kind_name(k) for k in odd)}: Toutenkou has only 1m 5m 9m of manzu"
            )
    if "0" in everything.replace(" ", "") and not rule_set.aka:
        # a red five is written 0; any other 0 already failed to parse
        raise HandError(f"red fives (0) are not used under the rules {rule_set.name}")

    closed = all(name in ("ankan", "kita") for name, _ in specs)
    dealer_win = seat == 0
    problems = [
        (riichi and double_riichi, "riichi and double riichi: give one"),
        ((riichi or double_riichi) and not closed, "riichi needs a closed hand"),
        (ippatsu and not (riichi or double_riichi), "ippatsu needs riichi"),
        (bool(ura_tiles) and not (riichi or double_riichi), "ura dora need riichi"),
        (haitei and not tsumo, "haitei is a tsumo on the last tile; a ron there is houtei"),
        (houtei and tsumo, "houtei is a ron on the last discard; a tsumo there is haitei"),
        (rinshan and not tsumo, "rinshan kaihou is a tsumo on a kan replacement"),
        (
            rinshan and not any(n in ("kan", "daiminkan", "kakan", "ankan") for n, _ in specs),
            "rinshan kaihou needs a kan",
        ),
        (rinshan and haitei, "a kan replacement tile is not the last tile"),
        (chankan and tsumo, "chankan is a ron on a kan"),
        ((tenhou or chiihou or renhou) and not closed, "tenhou, chiihou and renhou have no calls"),
        (tenhou and not (dealer_win and tsumo), "tenhou is the dealer's tsumo"),
        (chiihou and (dealer_win or not tsumo), "chiihou is a non-dealer's first tsumo"),
        (renhou and (dealer_win or tsumo), "renhou is a non-dealer's ron before its first draw"),
    ]
    for bad, why in problems:
        if bad:
            raise HandError(why)

    win_arg = win_text if win_text is not None else _last_tile_text(hand)
    try:
        ctx = _context(hand, win_arg, [f"{n}:{t}" for n, t in specs])
    except ValueError as exc:
        raise HandError(str(exc)) from None
    ctx = dataclasses.replace(
        ctx,
        seat=seat,
        dealer=0,
        round_wind=round_w,
        players=players,
        tsumo=tsumo,
        riichi=riichi,
        double_riichi=double_riichi,
        ippatsu=ippatsu,
        haitei=haitei,
        houtei=houtei,
        rinshan=rinshan,
        chankan=chankan,
        tenhou=tenhou,
        chiihou=chiihou,
        renhou=renhou,
        dora_indicators=tuple(_indicators(dora, ctx)),
        ura_indicators=tuple(_indicators(ura, ctx)),
        honba=honba,
    )
    from_seat = seat
    if not tsumo:
        from_seat = (
            (seat - 1) % players if discarder is None else _wind(discarder, "discarder", players)
        )
        if from_seat == seat:
            raise HandError("the discarder of a ron is another seat than the winner")
    value = score_win(ctx, rule_set)
    if not value.ok:
        payments: tuple[int, ...] = (0,) * players
    else:
        payments = win_deltas(
            value,
            winner=seat,
            from_seat=from_seat,
            dealer=0,
            players=players,
            honba=0 if rule_set.scoring == "toutenkou" else honba,
            sticks=sticks,
            first_winner=True,
            pao_seat=None,
            rules=rule_set,
        )
    points = value.points
    if rule_set.scoring == "toutenkou":  # in points, not the logs' hundreds
        points //= TOUTENKOU_UNIT
        payments = tuple(d // TOUTENKOU_UNIT for d in payments)
    counted = not value.yakuman  # a yakuman's fu count for nothing
    return HandResult(
        yaku=tuple((yaku_name(i), h) for i, h in value.yaku),
        yakuman=tuple(yaku_name(i) for i in value.yakuman),
        han=value.han,
        fu=value.fu if counted else 0,
        fu_items=value.fu_items if counted else (),
        limit=LIMIT_NAMES[value.limit] if 0 <= value.limit < len(LIMIT_NAMES) else "",
        points=points,
        payments=payments,
        error=value.error,
        context=ctx,
        value=value,
        rules=rule_set,
        discarder=None if tsumo else from_seat,
    )


def _last_tile_text(hand: str) -> str:
    """The last tile as written: ``"123m45p"`` -> ``"5p"``."""
    text = hand.replace(" ", "")
    return text[-2] + text[-1]


def _context(hand: str, win: str, melds: list[str]) -> WinContext:
    """``context_from_notation`` wants the hand without the winning tile: take one
    copy of it out (the red one when the winning tile is written ``0``)."""
    tiles = parse_tiles(hand)
    win_tile = parse_tiles(win)[0]
    want = (kind(win_tile), win_tile in RED_FIVES)
    pos = max(i for i, t in enumerate(tiles) if (kind(t), t in RED_FIVES) == want)
    rest = "".join(_one(t) for i, t in enumerate(tiles) if i != pos)
    return context_from_notation(rest, _one(tiles[pos]), melds=melds)


def _one(tile: int) -> str:
    k = kind(tile)
    if tile in RED_FIVES:
        return "0" + "mps"[k // 9]
    if k >= 27:
        return f"{k - 26}z"
    return f"{k % 9 + 1}{'mps'[k // 9]}"


def _indicators(text: str, ctx: WinContext) -> list[int]:
    """Indicator tiles with ids that no tile of the hand uses (copies matter only
    for red fives; the kind decides the dora)."""
    used = set(ctx.tiles) | {t for m in ctx.melds for t in m.tiles}
    out = []
    for t in parse_tiles(text) if text else []:
        k = kind(t)
        ids = [t] if t in RED_FIVES else [4 * k + c for c in range(4) if 4 * k + c not in RED_FIVES]
        free = next((i for i in ids if i not in used), ids[0])
        used.add(free)
        out.append(free)
    return out
