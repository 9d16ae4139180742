"""When a log was written: its date, or the window of dates its format allows.

Tenhou changed some rules over the years (the final-point rounding in 2021-22,
the tonpuu uma in 2009, parts of the game flow), so the rules a log is audited
under depend on its date.  The log id carries the date (``2024041200gm-...``),
but a log saved under another name has none.  Such a log is not dated by
matching the values being audited (that would accept whatever a changed log
says): it is placed in the window of dates that *what else it says* allows,
its format (seed form, GO attributes), each piece with the evidence for it.

A dated rule then applies where the window lies wholly on one side of the
rule's change; a window that straddles the change leaves the rule ambiguous,
and the auditor says so in a note naming both readings
(``auditing``; ``findings.INFO``).

>>> from replay_audit.model.events import GameMeta, Game
>>> meta = GameMeta("x.xml", "2024041200gm-00a9-0000-1142b3d7", "tenhou-xml", 4)
>>> log_window(Game(meta, (), ())).side("2022060100")
'after'

Must not: know which rules changed when (``model.rules.eras``) or read files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from replay_audit.model.events import Game

Side = Literal["before", "after", "both"]

INIT_SHUFFLE_LAST = "2009073123"
"""Per-hand INIT ``shuffle`` seeds: logs until mid-July 2009 (formats.md §6.12);
the end of July keeps the window wide."""
HEX_SEED_FIRST = "2009070100"
"""SHUFFLE ``mt19937ar-sha512-n288`` with hex words followed the INIT seeds (2009)."""
HEX_SEED_LAST = "2010123123"
"""...and were still written in 2010: an undated corpus log with a hex seed
(``special/bug9.xml``) writes its ``owari`` as ``x.0``, the 2010-2021 form."""
BASE64_SEED_FIRST = "2009120100"
"""The base64 seed form is the 2010 one (formats.md §3.10); a month earlier keeps
the window wide."""
NO_LOBBY_LAST = "2012123123"
"""GO gained its ``lobby`` attribute around 2010-2012 (formats.md §3.10): a GO
without it is from 2012 at the latest."""
LOBBY_FIRST = "2010060107"
"""...and the first log that can have it: the era2010 case
(``2010060106gm-00a9-0000-30d6de3b``, ``../shared/cases``) has a GO without
``lobby``, so a GO with one is later."""
STEPLESS_REACH_LAST = "2009060320"
"""Riichi as one REACH tag without ``step``, in a log with no wall seed: the 2006
format (formats.md §3.10, §6.12; the four public 2006 logs, the last of
2006-11-05).  A log with INIT ``shuffle`` seeds and REACH steps already existed on
2009-06-03 (``2009060321gm-00b9-0000-75b25bcf``), so the seedless format is from
before it."""
PRIVATE_ATTRS_FIRST = "2021010100"
"""GO ``title``/``rule``/``ranking``/``csrule``: formats.md §3.10 has them from 2023,
but a championship-lobby log of 2021-06 carries them too (``../shared/cases``); the
start of 2021 keeps the window wide."""


@dataclass(frozen=True, slots=True)
class LogWindow:
    """The dates (``YYYYMMDDHH``, inclusive) a log can be from, and why.

    ``earliest``/``latest`` are ``None`` where nothing bounds that side; a
    dated log has both equal to its date.
    """

    earliest: str | None
    latest: str | None
    evidence: tuple[str, ...] = ()

    @property
    def dated(self) -> bool:
        return self.earliest is not None and self.earliest == self.latest

    def side(self, change: str) -> Side:
        """Where the window lies against a rule that changed at ``change``
        (the first ``YYYYMMDDHH`` of the new rule): wholly ``before`` it,
        wholly ``after`` (at or later), or ``both``."""
        stamp = change.ljust(10, "0")
        if self.latest is not None and self.latest < stamp:
            return "before"
        if self.earliest is not None and self.earliest >= stamp:
            return "after"
        return "both"

    def describe(self) -> str:
        """``from 2009-12 on (base64 SHUFFLE seed)``, ``until 2012-12 (...)``,
        ``between ... and ...``, ``2024-04 (log id)`` or ``unknown``."""
        lo = _month(self.earliest) if self.earliest else None
        hi = _month(self.latest) if self.latest else None
        if lo and hi:
            span = lo if lo == hi else f"between {lo} and {hi}"
        elif lo:
            span = f"from {lo} on"
        elif hi:
            span = f"until {hi}"
        else:
            span = "unknown"
        return f"{span} ({', '.join(self.evidence)})" if self.evidence else span


def _month(stamp: str) -> str:
    return f"{stamp[:4]}-{stamp[4:6]}"


def date_digits(date: str | None) -> str | None:
    """``YYYYMMDDHH`` from a log date or id; 2006 ids carry only ``YYYYMMDD``.

    >>> date_digits("20061028gm-0001-0000-1af63a72"), date_digits("2009082700")
    ('2006102800', '2009082700')
    >>> date_digits("gm-0001") is None
    True
    """
    if not date:
        return None
    digits = ""
    for ch in date:
        if not ch.isdigit():
            break
        digits += ch
    if len(digits) < 8:
        return None
    return digits[:10].ljust(10, "0")


def log_window(game: Game) -> LogWindow:
    """The window of dates ``game`` can be from (see the module docstring)."""
    date = date_digits(game.meta.date)
    if date is not None:
        return LogWindow(date, date, ("log id",))
    earliest: list[str] = []
    latest: list[str] = []
    evidence: list[str] = []
    extra = dict(game.meta.extra)
    seed = game.meta.seed or ""
    if game.hands and any(k == "shuffle" for k, _ in game.hands[0].extra):
        latest.append(INIT_SHUFFLE_LAST)
        evidence.append("INIT shuffle seeds")
    elif seed.startswith("mt19937ar-sha512-n288-base64,"):
        earliest.append(BASE64_SEED_FIRST)
        evidence.append("base64 SHUFFLE seed")
    elif seed.startswith("mt19937ar-sha512-n288,"):
        earliest.append(HEX_SEED_FIRST)
        latest.append(HEX_SEED_LAST)
        evidence.append("hex SHUFFLE seed")
    elif game.meta.stepless_reach and not seed:
        latest.append(STEPLESS_REACH_LAST)
        evidence.append("2006 format: REACH without step, no wall seed")
    if game.meta.format == "tenhou-xml" and game.meta.go_type is not None:
        if game.meta.lobby is None:
            latest.append(NO_LOBBY_LAST)
            evidence.append("GO without lobby")
        if any(k in extra for k in ("title", "rule", "ranking", "csrule")):
            earliest.append(PRIVATE_ATTRS_FIRST)
            evidence.append("GO csrule attributes")
        if game.meta.lobby is not None and max(earliest, default="") < LOBBY_FIRST:
            earliest.append(LOBBY_FIRST)
            evidence.append("GO with lobby")
    return LogWindow(
        max(earliest) if earliest else None,
        min(latest) if latest else None,
        tuple(evidence),
    )
