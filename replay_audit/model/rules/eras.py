"""Tenhou's rules by date: what changed when, and what no source settles.

Tenhou's rules were not always today's.  A log is audited under the rules of
its date (``dating.log_window``: its date, or the window its format allows),
in three kinds of case:

* a **dated change** (``DatedRule``) whose window lies wholly on one side of
  the log's: the rule of that side applies, exactly (``rules_of_date``);
* a dated change whose window the log's straddles: both readings are kept
  (``Era.alternatives``), and where they differ at a hand the auditor accepts
  the one the log follows and names both in a note (``era_readings``);
* a game-flow rule **no source settles** for the log's dates (``OpenRule``):
  today's rule is applied, and a log that disagrees with it there gets a note
  instead of a finding (``era_readings.read_flow``).

Logs from the days of the 2006 rules (the 半熟荘 server, before the 2009
observations) also get a note for each thing they do whose 2006 rule was
never observed (``UNOBSERVED_2006``): it is audited under today's rule.

Modern logs are untouched: a window from July 2010 on lies after every
change below, and the one rule left open for it, a bust at exactly 0, only
ever turns a disagreement of a log before April 2024 into a note.

Only Tenhou's own rule sets are dated (``tenhou-*`` presets and their lobby
variants); a rule set given by the user (``--rules``) is taken as it is.

>>> from replay_audit.model.dating import LogWindow
>>> TENPAI_YAME.side(LogWindow("2010060106", "2010060106"))
'before'
>>> TENPAI_YAME.side(LogWindow("2010061512", "2010061512")), TENPAI_YAME.side(LogWindow(None, None))
('both', 'both')
>>> RED_FIVES_2006.side(LogWindow("2006102800", "2006102800"))
'before'

Must not: compute scores or read a log's moves; it maps a date to rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from replay_audit.model.dating import LogWindow, Side, log_window
from replay_audit.model.events import Game
from replay_audit.model.rules.reds import TODAYS, kept_red_fives
from replay_audit.model.rules.ruleset import RuleSet

OpenAspect = Literal["dealer_stop", "extension", "bust_at_zero"]


@dataclass(frozen=True, slots=True)
class DatedRule:
    """A rule Tenhou changed, with the window in which the change happened.

    ``first`` is the earliest stamp (``YYYYMMDDHH``) the new rule can hold
    from (just after the last log seen under the old one); from ``last`` on
    the new rule surely holds.  ``old``/``new`` are the ``RuleSet`` fields of
    each side; ``tag`` is added to the rule-set name of a log audited under
    the old rule.
    """

    what: str
    when: str
    """The change window in words (``in June 2010``)."""
    old: tuple[tuple[str, Any], ...]
    new: tuple[tuple[str, Any], ...]
    first: str
    last: str
    old_text: str
    new_text: str
    tag: str
    source: str
    scoring: bool = False
    """The rule changes hand values (else it is a game-flow rule)."""
    by_format: Callable[[Game], Side | None] | None = None
    """Where the log's format alone places it against the change, if it does."""

    def side(self, window: LogWindow) -> Side:
        """Where a log's window lies against the change window."""
        if window.side(self.first) == "before":
            return "before"
        if window.side(self.last) == "after":
            return "after"
        return "both"

    def side_of(self, game: Game, window: LogWindow) -> Side:
        """Where ``game`` lies against the change: by its format where that
        settles it, else by its date window."""
        placed = self.by_format(game) if self.by_format is not None else None
        return placed if placed is not None else self.side(window)

    def applies(self, rules: RuleSet, game: Game) -> bool:
        """Only to rules holding today's Tenhou value (a lobby or user rule
        that differs is its own), and for the red fives only to 4-player logs
        that can tell 53 from 52: XML (tile copies) and JSON, whose ``rule``
        flags say which set the file's red codes stand for (``by_format``)."""
        if not rules.name.startswith("tenhou") or any(getattr(rules, k) != v for k, v in self.new):
            return False
        if self.scoring:
            return rules.players == 4
        return True


@dataclass(frozen=True, slots=True)
class OpenRule:
    """A game-flow rule no source settles for logs from before ``until``."""

    aspect: OpenAspect
    what: str
    until: str
    evidence: str
    tonpuu_only: bool = False

    def open_for(self, window: LogWindow, hanchan: bool) -> bool:
        return window.side(self.until) != "after" and not (self.tonpuu_only and hanchan)


TENPAI_YAME = DatedRule(
    what="the top all-last dealer's automatic stop on tenpai at a draw (tenpai-yame)",
    when="in June 2010",
    old=(("dealer_stops_on_tenpai", False),),
    new=(("dealer_stops_on_tenpai", True),),
    first="2010060107",
    last="2010070100",
    old_text="the top dealer repeats on tenpai",
    new_text="tenpai ends the game for the top dealer",
    tag="tenpai-renchan",
    source=(
        "blog.tenhou.net/article/38215017.html, 2010-05-18: introduced in June 2010; "
        "2010060106gm-00a9-0000-30d6de3b still repeats"
    ),
)
"""Until June 2010 the all-last dealer, also in sudden death, always repeated on
tenpai, on top or not; then it became an automatic stop (the blog: 「2010年6月から
「ラス親トップの自動聴牌止め」を導入します。これまでは、ラス親のトップ時に聴牌で流局した
場合、連荘していました」, 「ラス親=オーラス以降のサドンデスの親を含む」).  The last log
seen under the old rule is the era2010 case of 2010-06-01 06h (it repeats at South 4
on top); terralian/fastmaj switches at 07h that day, but the blog names only the
month, so the rest of June is read both ways."""


def _seeded_is_after(game: Game) -> Side | None:
    """Every log with a wall seed (INIT ``shuffle`` or SHUFFLE) seen counts 53 as
    a plain 5p (19 wins holding it in ``special/bug1``-``bug9`` and ``pao``), and the
    seeds came after the seedless 2006 format: such a log is of the three-red days."""
    seeded = game.meta.seed is not None or (
        bool(game.hands) and any(k == "shuffle" for k, _ in game.hands[0].extra)
    )
    return "after" if seeded else None


def _red_fives_by_format(game: Game) -> Side | None:
    """A JSON log says its red fives itself (``model.rules.reds``: ``aka52: 2`` is
    the 2006 set, e.g. our export of a 2006 log; Tenhou's own flags of 1 are
    today's), whatever its date; an XML log by its wall seed (``_seeded_is_after``)."""
    kept = kept_red_fives(game.meta)
    if game.meta.format == "tenhou-json":
        return "before" if kept == dict(RED_FIVES_2006_OLD)["red_fives"] else "after"
    return _seeded_is_after(game)


RED_FIVES_2006_OLD: tuple[tuple[str, Any], ...] = (("aka", 4), ("red_fives", (16, 52, 53, 88)))

RED_FIVES_2006 = DatedRule(
    what="the red fives",
    when="between 2006-11 and 2009-07",
    old=RED_FIVES_2006_OLD,
    new=(("aka", 3), ("red_fives", (16, 52, 88))),
    first="2006110600",
    last="2009080100",
    old_text="four red fives, two of them 5p (ids 16, 52, 53, 88: the 2006 set)",
    new_text="three red fives (ids 16, 52, 88)",
    tag="aka4",
    source=(
        "17 of 17 wins of the four public 2006 logs (SenaShibanuma/senasJanAI "
        "sample_data, the last of 2006-11-05) count 53 as red; the 19 wins holding 53 "
        "in the 2009 logs, which have wall seeds, do not"
    ),
    scoring=True,
    by_format=_red_fives_by_format,
)
"""The 2006 server had four red fives: copy 0 of 5m and 5s, copies 0 and 1 of 5p
(「赤4枚 (五筒2枚)」).  E.g. the era2006 case, East 3: the dealer's hand holds 16 and
53, the log counts aka 2 (11,600) where three reds give 5,800.  No source dates the
change to today's three."""

FLOW_2009_SEEN = "2009073112"
"""The first dated log showing the game end as today (terralian/fastmaj test
``2009073112gm-0061``: the all-last dealer's win on top ends the game).  The
undated 2009 logs with INIT shuffle seeds agree (``special/bug2``: West round and
sudden death; ``bug4``-``bug6``: the dealer's win on top ends it).  Nothing is
known of 2007-2008; the four 2006 logs end at East 4 with a top over 30,000 or
by a bust below 0."""

OPEN_RULES: tuple[OpenRule, ...] = (
    OpenRule(
        "dealer_stop",
        "the all-last dealer's automatic stop on top after a win (agari-yame)",
        FLOW_2009_SEEN,
        "the first dated log that shows it is of 2009-07-31 (fastmaj 2009073112gm-0061); "
        "the four 2006 logs have no all-last dealer win",
    ),
    OpenRule(
        "extension",
        "the end after the all-last hand, the extension round and sudden death",
        FLOW_2009_SEEN,
        "the first logs that show them are of 2009 (bug2: West round and sudden death)",
    ),
    OpenRule(
        "extension",
        "the East-only game's South round and sudden death",
        "2010060107",
        "no source dates it; the East-only logs of 2009 seen end at East 4 as today's rule "
        "says, but one of 2009 was reported entering South with a player over 30,000",
        tonpuu_only=True,
    ),
    OpenRule(
        "bust_at_zero",
        "whether a score of exactly 0 ends the game",
        "2024041218",
        "Tenhou's rules end the game below 0; a game seen playing on at exactly 0 is of "
        "2024-04-12 (2024041218gm-00a9-0000-53b9426e), no earlier log has a score of 0",
    ),
)

UNOBSERVED_2006 = "2009073112"
"""Logs whose window lies wholly before this (the 2006 format, or dated before
the 2009 observations) get a note for each thing they do that none of the four
public 2006 logs does (``era_readings.unobserved_2006``)."""


UNDATED = LogWindow(None, None)


@dataclass(frozen=True, slots=True)
class Alternative:
    """The other reading of a dated rule whose change the log's window straddles."""

    rule: DatedRule
    rules: RuleSet
    """The log's rules with the rule's old value."""


@dataclass(frozen=True, slots=True)
class Era:
    """What the log's dates leave open: the readings the auditor weighs."""

    window: LogWindow = UNDATED
    alternatives: tuple[Alternative, ...] = ()
    open_rules: tuple[OpenRule, ...] = ()
    before_2009: bool = False
    """The log is from the days of the 2006 rules (see ``UNOBSERVED_2006``)."""


DATED_RULES: tuple[DatedRule, ...] = (TENPAI_YAME, RED_FIVES_2006)


def rules_of_date(rules: RuleSet, game: Game) -> RuleSet:
    """``rules`` with the old value of every dated rule the log's window lies
    wholly before (its name tagged, e.g. ``tenhou-4p-tenpai-renchan-aka4``)."""
    window = log_window(game)
    changes: dict[str, Any] = {}
    tags: list[str] = []
    for rule in DATED_RULES:
        if rule.applies(rules, game) and rule.side_of(game, window) == "before":
            changes.update(rule.old)
            tags.append(rule.tag)
    if not changes:
        return rules
    return dataclasses.replace(rules, name="-".join((rules.name, *tags)), **changes)


def era_of(game: Game, rules: RuleSet) -> Era:
    """The readings a log's dates leave open under ``rules`` (already dated by
    ``rules_of_date``): the other side of each dated rule it straddles, and the
    open game-flow rules.  Not for Mahjong Soul or a user's own rules."""
    window = log_window(game)
    if not rules.name.startswith("tenhou"):
        return Era(window)
    alternatives = tuple(
        Alternative(rule, dataclasses.replace(rules, **dict(rule.old)))
        for rule in DATED_RULES
        if rule.applies(rules, game) and rule.side_of(game, window) == "both"
    )
    open_rules = tuple(r for r in OPEN_RULES if r.open_for(window, game.meta.hanchan))
    return Era(
        window,
        alternatives,
        open_rules,
        before_2009=window.side(UNOBSERVED_2006) == "before",
    )


def red_fives_of(game: Game) -> tuple[int, ...]:
    """The ids a writer spells as red fives in ``game`` (``()`` without aka): a
    JSON game's own set (its ``rule`` flags), the 2006 set for a 4-player log
    wholly before the change, else today's.  A log whose window straddles the
    change (an undated log of the 2006 format) gets today's: a JSON file holds
    one reading, not the auditor's two, and today's is what Tenhou's own
    converter writes."""
    meta = game.meta
    if not meta.aka:
        return ()
    kept = kept_red_fives(meta)
    if kept is not None:
        return kept
    if meta.players == 4 and RED_FIVES_2006.side_of(game, log_window(game)) == "before":
        return tuple(dict(RED_FIVES_2006.old)["red_fives"])
    return TODAYS
