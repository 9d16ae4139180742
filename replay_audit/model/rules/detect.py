"""The rules a log's own fields imply: a Tenhou GO type, a ``rule.disp`` string.

Owns ``rules_for_go_type`` (aka, kuitan, speed and chip bits; lobby quirks) and
``rules_for_disp`` (Tenhou lobby strings and Mahjong Soul room names).

Must not: read a log's moves or results, or compute scores.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from replay_audit.model.rules.presets import (
    MAJSOUL_3P,
    MAJSOUL_4P,
    TENHOU_3P,
    TENHOU_4P,
    TENHOU_RATIO,
    TOUTENKOU,
)
from replay_audit.model.rules.ruleset import RuleSet


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


def rules_for_disp(
    disp: str | None, aka: bool = True, players: int | None = None, ref: str | None = None
) -> RuleSet:
    """The preset a tenhou.net/6 ``rule.disp`` string implies (Tenhou lobby strings
    such as ``四鳳南喰赤``, ``三鳳南喰赤``; Mahjong Soul room names, ``model.rules.majsoul``).
    ``players`` (from the log) decides three-player where the string does not
    say it (tensoul's English build); ``ref`` (the log's id) says Mahjong Soul where
    the string names no room (``majsoul.is_majsoul_ref``), so a log whose room name
    is missing or in another language is not audited under Tenhou's rules.

    >>> ref = "231014-84c11a6f-b3f7-4363-966e-25f37886cfbf"
    >>> rules_for_disp("", ref=ref).name, rules_for_disp("铜之间", ref=ref).kuitan
    ('majsoul-4p', True)
    """
    from replay_audit.model.rules.majsoul import END_ABOVE_START, is_majsoul_ref, room_of

    text = disp or ""
    lowered = text.lower()
    room = room_of(text)
    three = players == 3 or text.startswith(("三", "3"))
    if "東天紅" in text:
        base = TOUTENKOU
    elif (
        room is not None
        or "雀魂" in text
        or "mahjong soul" in lowered
        or "majsoul" in lowered
        or is_majsoul_ref(ref)
    ):
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
