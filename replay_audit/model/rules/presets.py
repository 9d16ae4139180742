"""The named rule sets, the rules inferred from few logs, and making new ones.

Owns ``TENHOU_4P``, ``TENHOU_3P``, ``MAJSOUL_4P``, ``MAJSOUL_3P``, ``TOUTENKOU``,
``TENHOU_RATIO`` and ``PRESETS``; ``INFERRED_RULES``; ``with_overrides`` (a copy
with fields replaced, strings read as the field's type) and ``load_rules`` (a
preset name or a TOML file, shipped ones in ``RULEFILES``).

>>> PRESETS["tenhou-4p"].kuitan, PRESETS["tenhou-3p"].tsumo_loss
(True, True)
>>> with_overrides(PRESETS["tenhou-4p"], {"yakuman": "full"}).yakuman
'full'

Must not: detect rules from a log (``model.rules.detect``) or compute scores.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay_audit.model.errors import RulesError
from replay_audit.model.rules.ruleset import RuleSet

RULEFILES = Path(__file__).resolve().parents[2] / "rulefiles"
"""Rule files shipped with the package; ``load_rules("sanma-site")`` finds them by name."""

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
