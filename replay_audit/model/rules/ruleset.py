"""Rule sets as data.

Every way two platforms score differently is a field of ``RuleSet``; scoring
and settlement code read fields and never ask which platform a log came from.
Presets are plain ``RuleSet`` values; a TOML file or ``--rule key=value``
overrides make new ones.

>>> PRESETS["tenhou-4p"].kuitan, PRESETS["tenhou-3p"].tsumo_loss
(True, True)
>>> with_overrides(PRESETS["tenhou-4p"], {"yakuman": "full"}).yakuman
'full'

Must not: compute scores or read logs; rules are data.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from replay_audit.model.errors import RulesError

YakumanMode = Literal["single", "cumulative", "full"]
"""``single``: at most one yakuman; ``cumulative`` (Tenhou): each yakuman counts
once and different ones stack; ``full``: the double patterns count twice."""
KazoeMode = Literal["none", "sanbaiman", "single", "multiple"]
ScoringMode = Literal["hanfu", "toutenkou"]
Rounding = Literal["auto", "era1", "exact", "either"]
"""Final-point rounding: ``era1`` = Tenhou until 2021 (non-top rounded to 1000,
500 away from zero; top takes minus the rest), ``exact`` = to 0.1, ``auto`` =
pick per log (exact if it fits, else era1), ``either`` = a lobby whose rounding
the log does not record (both readings; the one the log follows is named in a note)."""

RULEFILES = Path(__file__).resolve().parents[2] / "rulefiles"
"""Rule files shipped with the package; ``load_rules("sanma-site")`` finds them by name."""

DOUBLE_YAKUMAN_PATTERNS = (41, 46, 48, 49)
"""Suuankou tanki, junsei chuuren, kokushi 13-sided, daisuushii."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str = "tenhou-4p"
    players: int = 4
    # tiles and yaku
    aka: int = 3
    """Number of red fives (0 = none).  Tenhou has one per suit (3; 2 in 3-player)."""
    red_fives: tuple[int, ...] = (16, 52, 88)
    """The tile ids that are red when ``aka`` is on: copy 0 of 5m, 5p and 5s.  The
    2006 server had four, two of them 5p (16, 52, 53, 88; ``replay_audit.model.rules.eras``)."""
    kuitan: bool = True
    kiriage: bool = False
    double_wind_fu: int = 4
    rinshan_tsumo_fu: int = 2
    open_pinfu_fu: int = 30
    renhou: Literal["none", "mangan", "yakuman"] = "none"
    yakuman: YakumanMode = "cumulative"
    kazoe: KazoeMode = "single"
    kokushi_ankan_ron: bool = False
    # table
    nukidora: bool = False
    """North set aside as kita (three-player)."""
    kita_breaks_ippatsu: bool = True
    """Tenhou: a kita ends everyone's ippatsu; some sites treat it as no call."""
    kita_ron: bool = True
    """A set-aside North can be ronned (Tenhou: yes, without chankan)."""
    chi: bool = True
    # payments
    honba_ron: int = 300
    honba_tsumo: int = 100
    """Per payer."""
    tsumo_loss: bool = False
    riichi_cost: int = 1000
    noten_pool: int = 3000
    pao_yakuman: tuple[int, ...] = (39, 49)
    """Tenhou yakuman ids that carry pao (daisangen, daisuushii)."""
    pao_scope: Literal["all", "yakuman_only"] = "all"
    double_ron: bool = True
    triple_ron_abort: bool = True
    nagashi_mangan: bool = True
    abortive_draws: tuple[str, ...] = ("yao9", "reach4", "ron3", "kan4", "kaze4")
    # game
    start_points: int = 25000
    return_points: int = 30000
    """The settlement origin: each final value is ``(raw - return) / 1000 + uma``."""
    end_points: int = 0
    """Points the top needs for the game to end at all-last (below them it goes into
    the next wind); 0 = the return points.  Mahjong Soul keeps the two apart (30000
    to end, settled against the 25000 start: ``model.rules.majsoul``)."""
    uma: tuple[int, ...] = (20, 10, -10, -20)
    """Per place, in 1000s (tuple length = players)."""
    uma_rows: tuple[tuple[int, ...], ...] = ()
    """Floating uma (a private lobby's ``csrule`` 21-35): row ``k`` is the uma when
    ``k`` players end strictly below the return points; empty = ``uma`` always."""
    oka: int = 20
    """To the top player, in 1000s."""
    old_tonpuu_uma: tuple[int, ...] = ()
    """Uma of tonpuu games dated before ``old_tonpuu_uma_until`` (empty = none).
    Tenhou's tonpuu used +10/+5/-5/-10 until 2009-07/08."""
    old_tonpuu_uma_until: str = ""
    """``YYYYMMDDHH``: games with an earlier log date use ``old_tonpuu_uma``."""
    rounding: Rounding = "auto"
    ties: Literal["seat_order", "split"] = "seat_order"
    leftover_sticks_to_top: bool = True
    west_extension: bool = True
    extension_winds: int = 1
    """How many winds of sudden death may follow all-last (Tenhou ranked: one)."""
    bust: bool = True
    """Game ends when a score goes below zero."""
    dealer_stops_all_last: bool = True
    dealer_stops_on_tenpai: bool = True
    """All-last: a tenpai dealer on top also ends the game (Tenhou 2018+; a 2009 log
    played on, so older logs may need ``False``)."""
    renchan_on_win: bool = True
    """The dealer keeps the deal after winning (a lobby's ``csrule`` may turn it off)."""
    renchan_on_tenpai: bool = True
    """The dealer keeps the deal when tenpai at an exhaustive draw (off in a
    championship lobby: ``csrule`` bit 17, ``INFERRED_RULES``)."""
    kan_dora_immediate: bool = False
    """Kan dora revealed at once for every kan (Tenhou chip rooms); otherwise
    daiminkan/kakan dora come after the replacement draw."""
    max_hands: int = 0
    """Games of a fixed number of hands (0 = no such limit; Tenhou's GO 2113
    'ratio' tables play one hand)."""
    scoring: ScoringMode = "hanfu"
    chips: bool = False
    # Toutenkou (scoring == "toutenkou") point values
    toutenkou_noten_penalty: int = 20
    toutenkou_riichi_points: int = 1
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def points_to_end(self) -> int:
        """Points the top needs to end the game (``end_points``, else the return)."""
        return self.end_points or self.return_points

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise RulesError(f"rules {self.name!r}: players must be 3 or 4, not {self.players}")
        if len(self.uma) != self.players:
            raise RulesError(
                f"rules {self.name!r}: uma needs {self.players} values, got {self.uma}"
            )
        if self.uma_rows and (
            len(self.uma_rows) != self.players + 1
            or any(len(row) != self.players for row in self.uma_rows)
        ):
            raise RulesError(
                f"rules {self.name!r}: uma_rows needs {self.players + 1} rows of"
                f" {self.players} values, got {self.uma_rows}"
            )
        if self.old_tonpuu_uma and len(self.old_tonpuu_uma) != self.players:
            raise RulesError(
                f"rules {self.name!r}: old_tonpuu_uma needs {self.players} values,"
                f" got {self.old_tonpuu_uma}"
            )
        check_values(self)


_CHOICES: dict[str, tuple[str, ...]] = {}
"""Field -> the values its ``Literal`` type allows (filled on first use)."""
_COUNTS = {
    "aka": (0, 4),
    "double_wind_fu": (0, 4),
    "rinshan_tsumo_fu": (0, 2),
    "open_pinfu_fu": (20, 30),
    "honba_ron": (0, 10**6),
    "honba_tsumo": (0, 10**6),
    "riichi_cost": (0, 10**6),
    "noten_pool": (0, 10**6),
    "max_hands": (0, 10**3),
    "toutenkou_noten_penalty": (0, 10**3),
    "toutenkou_riichi_points": (0, 10**3),
}
"""Numeric fields and their possible range (aka: one red five per suit, and the
2006 server's second red 5p; ``red_fives`` must hold that many fives)."""


def check_values(rules: RuleSet) -> None:
    """Refuse a field value the scoring cannot mean: a choice outside its
    ``Literal`` (``yakuman="bogus"`` would silently act as one of the others),
    a count outside its range (``aka=7``: there are three red fives), an unknown
    abortive draw or yakuman id.  Called for every ``RuleSet``, so a preset, a
    TOML file and ``--rule`` are checked alike."""
    import typing

    if not _CHOICES:
        hints = typing.get_type_hints(RuleSet)
        for f in dataclasses.fields(RuleSet):
            args = typing.get_args(hints[f.name])
            if typing.get_origin(hints[f.name]) is Literal:
                _CHOICES[f.name] = tuple(str(a) for a in args)
    for key, allowed in _CHOICES.items():
        value = getattr(rules, key)
        if value not in allowed:
            raise RulesError(
                f"rules {rules.name!r}: {key} is one of {', '.join(allowed)}, not {value!r}"
            )
    for key, (low, high) in _COUNTS.items():
        value = getattr(rules, key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesError(f"rules {rules.name!r}: {key} is {low}-{high}, not {value!r}")
    unknown = set(rules.abortive_draws) - {"yao9", "reach4", "ron3", "kan4", "kaze4"}
    if unknown:
        raise RulesError(
            f"rules {rules.name!r}: abortive_draws are yao9, reach4, ron3, kan4, kaze4; "
            f"not {', '.join(sorted(unknown))}"
        )
    if not all(isinstance(y, int) and 36 <= y <= 51 for y in rules.pao_yakuman):
        raise RulesError(f"rules {rules.name!r}: pao_yakuman are yakuman ids 36-51")
    fives = rules.red_fives
    if (
        not all(isinstance(t, int) and 0 <= t < 136 and t >> 2 in (4, 13, 22) for t in fives)
        or len(set(fives)) != len(fives)
        or rules.aka > len(fives)
    ):
        raise RulesError(
            f"rules {rules.name!r}: red_fives are distinct ids of fives (16-19, 52-55, "
            f"88-91), at least aka={rules.aka} of them; not {fives}"
        )


TENHOU_4P = RuleSet(old_tonpuu_uma=(10, 5, -5, -10), old_tonpuu_uma_until="2009080100")
TENHOU_3P = RuleSet(
    name="tenhou-3p",
    players=3,
    aka=2,
    chi=False,
    nukidora=True,
    honba_ron=200,
    honba_tsumo=100,
    tsumo_loss=True,
    noten_pool=2000,
    abortive_draws=("yao9", "ron3", "kan4"),
    start_points=35000,
    return_points=40000,
    uma=(20, 0, -20),
    oka=15,
)
MAJSOUL_4P = RuleSet(
    name="majsoul-4p",
    yakuman="full",
    kokushi_ankan_ron=True,
    pao_scope="yakuman_only",
    triple_ron_abort=False,
    return_points=25000,
    end_points=30000,
    uma=(15, 5, -5, -15),
    oka=0,
    rounding="exact",
    notes="Mahjong Soul: settled against the start (no oka), 30000 to end (majsoul.py).",
)
MAJSOUL_3P = dataclasses.replace(
    TENHOU_3P,
    name="majsoul-3p",
    yakuman="full",
    kokushi_ankan_ron=True,
    pao_scope="yakuman_only",
    triple_ron_abort=False,
    return_points=35000,
    end_points=40000,
    uma=(15, 0, -15),
    oka=0,
    rounding="exact",
    notes="Mahjong Soul: settled against the start (no oka), 40000 to end (majsoul.py).",
)
TOUTENKOU = RuleSet(
    name="toutenkou",
    players=3,
    aka=3,
    chi=False,
    nukidora=True,
    scoring="toutenkou",
    riichi_cost=100,
    tsumo_loss=False,
    noten_pool=0,
    start_points=0,
    return_points=0,
    uma=(0, 0, 0),
    oka=0,
    rounding="exact",
    bust=False,
    abortive_draws=(),
    notes="Tenhou COM-match Toutenkou (GO 0x800), point scoring per the seed document.",
)
TENHOU_RATIO = dataclasses.replace(
    TENHOU_4P,
    name="tenhou-ratio",
    start_points=1000,
    return_points=1000,
    uma=(0, 0, 0, 0),
    old_tonpuu_uma=(),
    oka=0,
    rounding="exact",
    bust=False,
    max_hands=1,
    notes="GO 2113 (0x841) 'ratio' tables: one hand, 10-point starting scores, no uma or oka.",
)


@dataclass(frozen=True, slots=True)
class InferredRule:
    """A rule generalised from one or a few real logs rather than documented by
    the platform: what it says, where the code uses it, and the evidence."""

    rule: str
    used_in: str
    evidence: str


INFERRED_RULES: tuple[InferredRule, ...] = (
    InferredRule(
        "ranked chip rooms (GO 0x600, lobby 0) pay kiriage mangan",
        "rules_for_go_type",
        "2 hands: a 4h30f dealer tsumo in a GO 553 log and a 4h30f tsumo in a GO 1569 log",
    ),
    InferredRule(
        "ranked chip rooms settle with uma +30/+10/-10/-30 (oka 20, return 30000)",
        "rules_for_go_type",
        "2 games: GO 553 and GO 1569 (their owari, rounded to 1000)",
    ),
    InferredRule(
        "ranked 祝５ rooms (GO 0x600 both bits) pay 1500 per honba on ron, 500 per payer on tsumo",
        "rules_for_go_type",
        "1 hand: a 4h40f ron at 1 honba paid 9500 in a GO 1569 log; the tsumo value is "
        "scaled from it; 祝２ (0x200 only) paid 300 (GO 553); 祝０ (0x400 only) unseen",
    ),
    InferredRule(
        "ranked chip rooms show every kan's dora at once",
        "rules_for_go_type (kan_dora_immediate)",
        "1 kakan in a GO 553 log",
    ),
    InferredRule(
        "chips: 1 for ippatsu, 1 per ura dora, 1 per red five (open hands too); ron: the "
        "discarder pays them, tsumo: every other player pays them; never in the final points",
        "chips.py",
        "13 wins (7 with chips) in 3 logs: GO 553, GO 1569 and a championship lobby (GO 1601); "
        "chips of a yakuman and of a double ron unseen",
    ),
    InferredRule(
        "csrule field 0 bit 17 (0x20000): the dealer passes the deal when tenpai at a draw "
        "(the honba still goes up, the sticks stay)",
        "csrule.py (renchan_on_tenpai)",
        "1 draw in a championship-lobby log (2021-06, csrule 4007C004), with two public "
        "lobby-setting converters that name the bit",
    ),
    InferredRule(
        "csrule field 6 is the return (settlement) points, field 5 what the top needs to end",
        "csrule.py",
        "2 logs, both with 5 = 6 = 30000; the field names come from two lobby-setting converters",
    ),
    InferredRule(
        "csrule field 11 is the honba per payer (empty = 100)",
        "csrule.py",
        "1 tsumo at 1 honba in the championship-lobby log (+100 per payer, field empty)",
    ),
    InferredRule(
        "csrule field 1 bit 1 (0x2): tied players share uma and oka",
        "csrule.py",
        "1 game (2023, lobby 1) with two ties, both shared",
    ),
    InferredRule(
        "a lobby's rounding of the final points is not the ranked one of its date",
        "csrule.py, lobby.py (rounding 'either')",
        "the 2021-06 championship-lobby log writes exact tenths while ranked rooms rounded "
        "to 1000 until 2021",
    ),
    InferredRule(
        "Mahjong Soul settles against the start score (no oka) with uma +15/+5/-5/-15 "
        "(3-player +15/0/-15), exact; the top needs 30000 (40000) to end at all-last",
        "rules.MAJSOUL_4P/MAJSOUL_3P, majsoul.py",
        "Mahjong Soul's match-mode table (tensoul data.json) and 3 real games (Bronze room "
        "2023-10, a tournament 2024-01, a Gold-room record head 2023-08); 3-player unseen",
    ),
)
"""Rules that rest on a handful of logs (the README lists them); a log that breaks
one is a reason to look again, not proof the log is wrong."""


PRESETS: dict[str, RuleSet] = {
    r.name: r for r in (TENHOU_4P, TENHOU_3P, MAJSOUL_4P, MAJSOUL_3P, TOUTENKOU, TENHOU_RATIO)
}


def with_overrides(rules: RuleSet, overrides: dict[str, Any]) -> RuleSet:
    """A copy of ``rules`` with fields replaced; values given as strings (from the
    command line) are converted to the field's type."""
    fields = {f.name: f for f in dataclasses.fields(RuleSet)}
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in fields:
            raise RulesError(f"unknown rule field {key!r}; known: {', '.join(sorted(fields))}")
        current = getattr(rules, key)
        changes[key] = _coerce(key, value, current)
    return dataclasses.replace(rules, **changes)


def _coerce(key: str, value: Any, current: Any) -> Any:
    if not isinstance(value, str):
        if not isinstance(current, tuple):
            return value
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    try:
        if isinstance(current, bool):
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if isinstance(current, int):
            return int(value)
        if isinstance(current, tuple):
            items = [v.strip() for v in value.split(",") if v.strip()]
            if current and isinstance(current[0], int):
                return tuple(int(v) for v in items)
            return tuple(items)
    except ValueError as exc:
        raise RulesError(f"rule {key}: cannot read {value!r} as {type(current).__name__}") from exc
    return value


def load_rules(spec: str | Path, overrides: dict[str, Any] | None = None) -> RuleSet:
    """A preset name, the name of a shipped rule file (``sanma-site``) or a TOML
    file path (``base = "tenhou-3p"`` plus fields)."""
    spec_s = str(spec)
    if spec_s in PRESETS:
        rules = PRESETS[spec_s]
    else:
        path = Path(spec_s)
        shipped = RULEFILES / f"{spec_s}.toml"
        if not path.is_file() and shipped.is_file():
            path = shipped
        if not path.is_file():
            raise RulesError(
                f"no rule preset or file named {spec_s!r}; presets: {', '.join(PRESETS)}"
            )
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise RulesError(f"{path}: not a valid TOML rule file: {exc}") from exc
        base = data.pop("base", "tenhou-4p")
        if base not in PRESETS:
            raise RulesError(f"{path}: unknown base preset {base!r}")
        data.setdefault("name", path.stem)
        rules = with_overrides(PRESETS[base], data)
    return with_overrides(rules, overrides) if overrides else rules


def rules_for_go_type(go_type: int | None, lobby: int | None = None) -> RuleSet:
    """The preset a Tenhou GO type implies (aka and kuitan from its bits).

    The chip bits (0x600) mark a chip game everywhere; the ranked chip rooms'
    own rules (kiriage, uma +30/+10/-10/-30, kan dora at once, 1500 per honba in
    祝５ rooms: ``INFERRED_RULES``) apply in the ranked lobby only (``lobby`` 0 or
    unknown): a private or championship lobby sets its own (``csrule``, or
    ``auditing.lobby`` infers them).
    """
    if go_type is None:
        return TENHOU_4P
    if go_type & 0x800 and go_type & 0x10:
        base = TOUTENKOU
    elif go_type & 0x800:
        base = TENHOU_RATIO
    elif go_type & 0x10:
        base = TENHOU_3P
    else:
        base = TENHOU_4P
    aka = 0 if go_type & 0x02 else base.aka
    kuitan = not go_type & 0x04
    changes: dict[str, Any] = {}
    if (aka, kuitan) != (base.aka, base.kuitan):
        changes.update(aka=aka, kuitan=kuitan)
    if go_type & 0x600:
        changes.update(chips=True)
    if go_type & 0x600 and not lobby:
        changes.update(kiriage=True, kan_dora_immediate=True, name=f"{base.name}-chip")
        if base.players == 4:
            changes.update(uma=(30, 10, -10, -30))
        if go_type & 0x600 == 0x600:
            changes.update(honba_ron=1500, honba_tsumo=500)
    return dataclasses.replace(base, **changes) if changes else base


def rules_for_disp(disp: str | None, aka: bool = True, players: int | None = None) -> RuleSet:
    """The preset a tenhou.net/6 ``rule.disp`` string implies (Tenhou lobby strings
    such as ``四鳳南喰赤``, ``三鳳南喰赤``; Mahjong Soul room names, ``model.rules.majsoul``).
    ``players`` (from the log) decides three-player where the string does not
    say it (tensoul's English build)."""
    from replay_audit.model.rules.majsoul import END_ABOVE_START, room_of

    text = disp or ""
    lowered = text.lower()
    room = room_of(text)
    three = players == 3 or text.startswith(("三", "3"))
    if "東天紅" in text:
        base = TOUTENKOU
    elif room is not None or "雀魂" in text or "mahjong soul" in lowered or "majsoul" in lowered:
        base = MAJSOUL_3P if three else MAJSOUL_4P
        start = (room.start_3p if three else room.start_4p) if room else base.start_points
        if start != base.start_points:
            base = dataclasses.replace(
                base,
                start_points=start,
                return_points=start,
                end_points=start + END_ABOVE_START,
            )
    elif three or "3-player" in lowered:
        base = TENHOU_3P
    else:
        base = TENHOU_4P
    kuitan = "喰" in text or not text or base.name.startswith("majsoul")
    aka_n = base.aka if aka else 0
    if (aka_n, kuitan) == (base.aka, base.kuitan):
        return base
    return dataclasses.replace(base, aka=aka_n, kuitan=kuitan)
