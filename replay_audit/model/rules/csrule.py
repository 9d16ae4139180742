"""A private or championship lobby's ``csrule``: its own rules, read into a ``RuleSet``.

Tenhou writes a lobby's settings on GO (``csrule``, with ``title``, ``rule``
and ``ranking``) as about 45 comma-separated fields; an empty field means the
default.  The layout comes from two public lobby-setting converters (one
writes the fields, one reads them; they agree where both speak) and is
checked against two real logs: a 2021 championship lobby (``4007C004``, start
30000, chips) and a 2023 private lobby (``0FE0BF0B,0000001F``, uma 5/-5/-15).
The fields read here:

* 0: flags (hex), a set bit being a change from the default: 0x1 no nagashi
  mangan, 0x2 kiriage mangan, 0x4 no bust, 0x8 kan dora at once, 0x100 to
  0x1000 no four-wind / four-kan / four-riichi / nine-terminal / triple-ron
  abort, 0x2000 head bump (no double ron), 0x4000 no agari-yame, 0x8000 no
  tenpai-yame, 0x10000 no renchan on a dealer win, 0x20000 no renchan on
  dealer tenpai, 0x200000 no extension into the next wind;
* 1: flags: 0x1 a double-wind pair is 2 fu, 0x2 tied players share uma,
  0x4 leftover riichi sticks stay off the table;
* 4 start points, 5 the points the top needs to end the game, 6 the return
  (settlement) points; the oka is what return minus start leaves for the top;
* 10 riichi deposit, 11 honba per payer (a ron pays it times players - 1);
* 21-35 five uma rows of (2nd, 3rd, 4th), row ``k`` for ``k`` players below
  the return points; 1st takes minus their sum.

Bits and fields with another meaning (no dora, no ippatsu, a rounding flag
whose meaning the two logs contradict, a timer, players seated by the
organiser ...) are listed in a note, not applied.  The rounding of the final
points is not recorded: the 2021 lobby wrote exact tenths while ranked rooms
still rounded, so both readings stay open (``rounding = "either"``).

>>> from replay_audit.model.rules.presets import TENHOU_4P
>>> r = read_csrule(TENHOU_4P, "4007C004,,,,30000,30000,30000").rules
>>> r.start_points, r.return_points, r.oka, r.uma, r.honba_tsumo, r.renchan_on_tenpai
(30000, 30000, 0, (20, 10, -10, -20), 100, False)

Must not: compute scores or read anything but the ``csrule`` string.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from replay_audit.model.rules.ruleset import RuleSet

_FLAGS0: tuple[tuple[int, str, bool, str], ...] = (
    (0x1, "nagashi_mangan", False, "no nagashi mangan"),
    (0x2, "kiriage", True, "kiriage mangan"),
    (0x4, "bust", False, "no bust"),
    (0x8, "kan_dora_immediate", True, "kan dora at once"),
    (0x2000, "double_ron", False, "head bump"),
    (0x4000, "dealer_stops_all_last", False, "no agari-yame"),
    (0x8000, "dealer_stops_on_tenpai", False, "no tenpai-yame"),
    (0x10000, "renchan_on_win", False, "no renchan on a dealer win"),
    (0x20000, "renchan_on_tenpai", False, "no renchan on dealer tenpai"),
    (0x200000, "west_extension", False, "no extension"),
)
"""Field 0 bits that map onto one ``RuleSet`` field: (bit, field, value when set, text)."""

_ABORTS: tuple[tuple[int, str], ...] = (
    (0x100, "kaze4"),
    (0x200, "kan4"),
    (0x400, "reach4"),
    (0x800, "yao9"),
    (0x1000, "ron3"),
)
"""Field 0 bits that drop one abortive draw."""

_UNMODELLED0: dict[int, str] = {
    0x10: "no dora",
    0x20: "no kan dora",
    0x40: "no ura dora",
    0x80: "no kan ura",
    0x40000: "a rounding flag whose meaning the logs contradict",
    0x80000: "no ippatsu",
    0x100000: "unknown",
    0x400000: "three-player: no nukidora",
    0x800000: "three-player: no tsumo loss",
    0x1000000: "renhou",
    0x2000000: "riichi without a draw left",
    0x40000000: "players seated by the organiser (no scoring effect)",
}
"""Field 0 bits the audit does not apply (one converter only, or no scoring effect)."""

_UNMODELLED1: dict[int, str] = {0x8: "a pao mode", 0x10: "no kazoe yakuman", 0x40: "a timer"}

_NOTEN_DEFAULT = {4: (1000, 1500, 3000), 3: (1000, 2000)}
"""Fields 16-18: the noten payment per noten seat with 1, 2 (, 3) seats tenpai."""


@dataclass(frozen=True, slots=True)
class CsruleReading:
    """The rules a ``csrule`` gives, and what a person should know about them."""

    rules: RuleSet
    summary: str
    """The settings read, one line (for the lobby's note)."""
    unmodelled: tuple[str, ...] = ()
    """Settings present but not applied (each a short phrase)."""


def read_csrule(base: RuleSet, csrule: str) -> CsruleReading:
    """The lobby's rules: ``base`` (its GO type's, without the ranked chip-room
    rules) changed by every field of ``csrule`` that is set, defaults elsewhere."""
    fields = [f.strip() for f in csrule.split(",")]
    players = base.players

    def num(i: int) -> int | None:
        try:
            return int(fields[i])
        except (IndexError, ValueError):
            return None

    def hexnum(i: int) -> int:
        try:
            return int(fields[i], 16)
        except (IndexError, ValueError):
            return 0

    flags0, flags1 = hexnum(0), hexnum(1)
    changes: dict[str, Any] = {"name": f"{base.name}-csrule", "rounding": "either"}
    said: list[str] = []
    for bit, name, value, text in _FLAGS0:
        if flags0 & bit:
            changes[name] = value
            said.append(text)
    dropped = [kind for bit, kind in _ABORTS if flags0 & bit]
    if dropped:
        changes["abortive_draws"] = tuple(k for k in base.abortive_draws if k not in dropped)
        changes["triple_ron_abort"] = "ron3" not in dropped and base.triple_ron_abort
        said.append("no abortive " + "/".join(dropped))
    if flags1 & 0x1:
        changes["double_wind_fu"] = 2
        said.append("double-wind pair 2 fu")
    changes["ties"] = "split" if flags1 & 0x2 else "seat_order"
    changes["leftover_sticks_to_top"] = not flags1 & 0x4

    start = num(4) or base.start_points
    ret = num(6) or base.return_points
    target = num(5) or base.points_to_end
    riichi = num(10) or base.riichi_cost
    honba = num(11)
    changes.update(
        start_points=start,
        return_points=ret,
        end_points=target,
        oka=(ret - start) * players // 1000,
        riichi_cost=riichi,
    )
    if honba is not None:
        changes.update(honba_tsumo=honba, honba_ron=honba * (players - 1))
    rows = _uma_rows(fields, base)
    changes["old_tonpuu_uma"] = ()
    if len(set(rows)) == 1:
        changes["uma"] = rows[0]
    else:
        changes.update(uma=rows[0], uma_rows=rows)
    rules = dataclasses.replace(base, **changes)

    unmodelled = [
        f"field 0 bit 0x{bit:X} ({text})"
        for bit, text in _UNMODELLED0.items()
        if flags0 & bit and not (players == 4 and text.startswith("three-player"))
    ]
    unmodelled += [
        f"field 1 bit 0x{bit:X} ({text})" for bit, text in _UNMODELLED1.items() if flags1 & bit
    ]
    known0 = sum(b for b, *_ in _FLAGS0) | sum(b for b, _ in _ABORTS) | sum(_UNMODELLED0)
    if flags0 & ~known0:
        unmodelled.append(f"field 0 bits 0x{flags0 & ~known0:X} (unknown)")
    if flags1 & ~(0x7 | sum(_UNMODELLED1)):
        unmodelled.append(f"field 1 bits 0x{flags1 & ~(0x7 | sum(_UNMODELLED1)):X} (unknown)")
    if num(7):
        unmodelled.append(f"field 7 = {num(7)} (the game ends when someone reaches it)")
    noten = tuple(num(i) for i in range(16, 16 + players - 1))
    if any(v is not None for v in noten) and noten != _NOTEN_DEFAULT[players]:
        unmodelled.append(f"fields 16-18 = {noten} (noten payments)")

    uma_text = _uma_text(rules.uma) + ("" if any(fields[21:36]) else " (default)")
    if rules.uma_rows:
        uma_text = "by players below the return: " + ", ".join(_uma_text(r) for r in rows)
    summary = (
        f"csrule {fields[0] or '0'}: start {start}, the top needs {target} to end, "
        f"return {ret} (oka {rules.oka}); uma {uma_text}; riichi {riichi}; honba "
        f"{rules.honba_tsumo} per payer{'' if honba is not None else ' (default)'}; "
        f"ties {'shared' if rules.ties == 'split' else 'by seat order'}"
        + "".join(f"; {t}" for t in said)
    )
    return CsruleReading(rules, summary, tuple(unmodelled))


def _uma_rows(fields: list[str], base: RuleSet) -> tuple[tuple[int, ...], ...]:
    """Fields 21-35: one uma row per number of players below the return points
    (0 to ``players``), each field empty = the base uma of that place."""
    players = base.players
    rows: list[tuple[int, ...]] = []
    for k in range(players + 1):
        others: list[int] = []
        for place in range(1, players):
            i = 21 + 3 * k + place - 1
            try:
                others.append(int(fields[i]))
            except (IndexError, ValueError):
                others.append(base.uma[place])
        rows.append((-sum(others), *others))
    return tuple(rows)


def _uma_text(uma: tuple[int, ...]) -> str:
    return "/".join(f"{u:+d}" for u in uma)


def rules_for_csrule(base: RuleSet, csrule: str) -> RuleSet:
    """Apply a private or championship lobby's ``csrule`` (GO attribute) to
    ``base``, the rules of the lobby's GO type (``read_csrule`` reads it)."""
    return read_csrule(base, csrule).rules
