"""One game: the rules it is audited under, the audit, its rows.

Owns ``rules_for_game`` (the caller's rules, else detected from the log and its
date; ``_detected`` remembers them and their era for the dated logs of one lobby
and hour), ``_GameAuditor`` (the rooms of ``auditing.hands``, ``wins``, ``chain`` and
``notes`` over ``auditing.base``; ``run`` walks the game, handing a game in which
nothing is to be reported to the core in one call, ``_core.audit_hands``, its own loop
being the reference), ``audit_game`` and the ``games`` and ``findings`` rows.

Must not: read files or catch a file's errors (``auditing.auditor``).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Protocol

from replay_audit.auditing.base import _fmt, _Outcome, _problems
from replay_audit.auditing.chain import _final_rule, empty_seats
from replay_audit.auditing.engine import Engine, WinRow, engine
from replay_audit.auditing.hands import _LABELS, _PASSED_OVER, _RESULTS, _Hands
from replay_audit.auditing.rows import GAME_COLUMNS
from replay_audit.model.errors import LogFormatError, RulesError
from replay_audit.model.events import (
    ABORTIVE_KINDS,
    Game,
    HandLog,
    RecordedDraw,
    RecordedWin,
    RiichiAccept,
)
from replay_audit.model.findings import Finding
from replay_audit.model.rules.csrule import rules_for_csrule
from replay_audit.model.rules.detect import rules_for_disp, rules_for_go_type
from replay_audit.model.rules.eras import Era, era_of, rules_of_date
from replay_audit.model.rules.majsoul import is_majsoul_ref
from replay_audit.model.rules.reds import kept_red_fives
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.replay import values

if TYPE_CHECKING:  # annotations only: these modules load lazily where they are used
    from replay_audit import _core
    from replay_audit.model.dating import LogWindow
    from replay_audit.model.events import GameMeta
    from replay_audit.replay.values import HandReplay
    from replay_audit.scoring.final_core import FinalRule
    from replay_audit.scoring.flow import HandState

# ------------------------------------------------------------------------- rules


def rules_for_game(game: Game, rules: RuleSet | None = None) -> RuleSet:
    """The rules a game is audited under: the caller's, else detected from the log."""
    if rules is not None:
        return rules
    if game.meta.format == "tenhou-xml":
        detected = rules_for_go_type(game.meta.go_type, game.meta.lobby)
    else:
        meta = game.meta
        detected = _declared_reds(
            rules_for_disp(meta.rule_disp, meta.aka, meta.players, meta.log_id), game
        )
    csrule = dict(game.meta.extra).get("csrule")
    if csrule:
        detected = rules_for_csrule(detected, csrule)
    # Tenhou's rules of the log's date: 2009 tenpai renchan, the 2006 red fives (eras.py)
    return rules_of_date(detected, game)


def _declared_reds(rules: RuleSet, game: Game) -> RuleSet:
    """A JSON log's rules with the red fives its ``rule`` flags declare
    (``model.rules.reds``), where those are not the rules' own and no era of Tenhou
    reads them: a Mahjong Soul room with four red fives (tensoul's ``aka52: 2``)
    has two red 5p, and its second (id 53) counts as red dora as the parser reads
    it.  The added copies are added to the rules' own red fives and their count
    (three-player rules count two, their red 5m has no tiles).  Tenhou's rules keep
    theirs: ``aka52: 2`` there is the 2006 set, which ``rules_of_date`` applies as
    the era it is.

    >>> from replay_audit.model.events import GameMeta
    >>> rule = ("rule", '{"disp": "", "aka51": 1, "aka52": 2, "aka53": 1}')
    >>> ref = "231014-84c11a6f-b3f7-4363-966e-25f37886cfbf"
    >>> meta = GameMeta("m.json", ref, "tenhou-json", 4, extra=(rule,))
    >>> r = rules_for_game(Game(meta, (), ()))
    >>> r.name, r.aka, r.red_fives
    ('majsoul-4p', 4, (16, 52, 53, 88))
    """
    more = {t for t in kept_red_fives(game.meta) or () if t & 3}  # copies past the first
    if not more or not rules.aka or rules.name.startswith("tenhou") or more <= set(rules.red_fives):
        return rules
    added = more.difference(rules.red_fives)
    fives = tuple(sorted(added.union(rules.red_fives)))
    return dataclasses.replace(rules, aka=rules.aka + len(added), red_fives=fives)


_DETECTED: dict[tuple[object, ...], tuple[RuleSet, Era]] = {}
_DETECTED_MAX = 256
"""Entries kept before ``_DETECTED`` starts over (the shared corpus has a few dozen
keys: lobby, GO type and the log's hour)."""


def _detected_key(game: Game) -> tuple[object, ...] | None:
    """Everything of ``game`` that ``rules_for_game(game)`` and ``era_of`` read, for
    a dated log: its format, GO type and lobby (or rule string, whether its id is
    Mahjong Soul's, red fives and players), ``csrule``, hanchan, whether it has a wall seed (the red fives'
    ``by_format``), a JSON log's ``rule`` object (its red-five flags: the red fives'
    ``by_format``) and its date (the whole of its ``log_window``).  An undated log
    (``None``) has a window read off more of the log: worked out every time."""
    meta = game.meta
    date = meta.date  # ``date_digits(meta.date)``: the date is already its digits, 8 to 10
    if not date:
        return None
    stamp = date.ljust(10, "0")
    seeded = meta.seed is not None or (
        bool(game.hands) and any(k == "shuffle" for k, _ in game.hands[0].extra)
    )
    extra = dict(meta.extra) if meta.extra else _NO_EXTRA  # (nearly always empty)
    json = meta.format == "tenhou-json"
    return (
        meta.format,
        meta.go_type,
        meta.lobby,
        meta.rule_disp,
        is_majsoul_ref(meta.log_id) if json else None,  # read by ``rules_for_disp`` only
        meta.aka,
        meta.players,
        extra.get("csrule"),
        meta.hanchan,
        seeded,
        extra.get("rule") if json else None,
        stamp,
    )


_NO_EXTRA: dict[str, str] = {}
"""An empty ``GameMeta.extra`` as the dict ``_detected_key`` reads (never written)."""


def _detected(game: Game) -> tuple[RuleSet, Era]:
    """``rules_for_game(game)`` and its ``era_of``, remembered by ``_detected_key``:
    the games of one lobby and hour share them, and working them out again was a
    twentieth of the auditor's own time."""
    key = _detected_key(game)
    found = _DETECTED.get(key) if key is not None else None
    if found is None:
        rules = rules_for_game(game)
        found = (rules, era_of(game, rules))
        if key is not None:
            if len(_DETECTED) >= _DETECTED_MAX:
                _DETECTED.clear()
            _DETECTED[key] = found
    return found


class HandsSink(Protocol):
    """Where the runner's part takes one file's ``hands`` rows straight from the core
    (``report.part_rows.PartRows.hands_sink``), without a dict per row."""

    rows: int
    """The rows written so far."""

    def target(self) -> tuple[Any, int, str] | None:
        """``_core.audit_hands``' last three arguments (the part's ``_core.PartRows``,
        the hands table's index, the file); None where the rows are to be dicts."""

    def took(self, rows: int) -> None:
        """``_core.audit_hands`` wrote ``rows`` rows of a game."""

    def drop(self) -> None:
        """Take back what the file's games wrote: the file failed after them."""


class _GameAuditor(_Hands):
    """Walks one game; collects findings and the ``hands`` rows."""

    hands_sink: HandsSink | None = None
    """Where the core writes the game's ``hands`` rows instead of ``hand_rows``
    (``audit_game(hands_sink=)``), in the one call only."""

    def run(self) -> None:
        replay = self.replay()
        self._note_warnings()
        self._note_unobserved_2006()
        if self.read_lobby:
            self._read_lobby(replay)
        if self.meta.players < 4:  # the fourth seat's placeholders, read by no other check
            self._check_empty_seats()
        played = _played(self.game.hands, replay.hands)
        if not played:
            return
        first = played[0][0]
        expected = self._check_opening(first)
        opening = first.scores if expected is None else expected.scores
        chain: tuple[int, ...] | None = opening
        prev: tuple[HandLog, _Outcome] | None = None
        players = self.meta.players
        if self._in_one_call(played, expected or first, opening):
            return
        for hand, hr in played:
            if prev is not None:
                expected, chain = self._check_transition(prev[0], prev[1], hand, chain)
            # the hand's state as computed (as recorded only where nothing is: the
            # first hand of an excerpt, or after the game should have ended): its
            # round, honba, sticks and dealer, and its start scores (``_start_scores``:
            # the chain, asked only where it and the hand's scores differ)
            start = expected or hand
            if chain is None or tuple(hand.scores[:players]) != tuple(chain[:players]):
                chain = self._start_scores(hand, chain)
            chain, outcome = self._audit_hand(hand, hr, start, chain)
            prev = (hand, outcome)
        if prev is not None:
            self._check_game_end(prev[0], prev[1], chain)
        if self.rules.chips:
            self._check_chips()

    def _check_empty_seats(self) -> None:
        """A finding for each place a three-player log writes its empty seat
        (``chain.empty_seats``)."""
        n = self.meta.players
        for category, what, hand, seq, written in empty_seats(self.game):
            self.add(
                category,
                "empty_seat",
                f"the {what} give the empty seat of a {n}-player game a value other than 0",
                hand,
                seq=seq,
                seat=next(s for s in range(n, len(written)) if written[s]),
                recorded=_fmt(tuple(written)),
                computed=_fmt((*written[:n], *(type(v)() for v in written[n:]))),
            )

    def _in_one_call(
        self,
        played: list[tuple[HandLog, HandReplay]],
        start: HandState | HandLog,
        chain: tuple[int, ...],
    ) -> bool:
        """The game's hands audited by the core in one call (``_core.audit_hands``),
        then its end as ``run`` checks it: True where the core did so.  The core
        takes a game in which nothing is to be reported and no other reading of the
        rules weighs in; ``run``'s loop, the reference, audits every other (the core
        declines before writing anything).  The core checks the game's end too where
        the log has one reading of its final points (``HandsContext.final``), and
        says it is settled where ``_check_game_end`` would find nothing to report;
        else ``_check_game_end``, the reference, checks it here."""
        eng = engine()
        audit_hands = eng.audit_hands
        if audit_hands is None or eng.win_row is None or self.era.alternatives:
            return False
        ctx = _hands_context(self, eng)
        if ctx is None:
            return False
        first = played[0][0]
        meta = self.meta
        players = meta.players
        if tuple(first.scores[:players]) != tuple(chain[:players]):
            chain = self._start_scores(first, chain)
        game = self.game
        owari = game.owari if not game.errors else None  # (lost hands: Python's end)
        # the rows straight into the runner's part (none where the chips check reads them)
        sink = self.hands_sink if not self.rules.chips else None
        target = sink.target() if sink is not None else None
        if target is None:
            got = audit_hands(played, start, chain, ctx, meta.source, meta.log_id, owari)
        else:
            got = audit_hands(played, start, chain, ctx, meta.source, meta.log_id, owari, *target)
        if got is None:
            return False
        rows, values, end_scores, ended, settled = got
        if isinstance(rows, int):  # written into the part: their number
            assert sink is not None
            sink.took(rows)
        else:
            self.hand_rows.extend(rows)
        self.win_values.update(values)
        if not settled:  # the core did not find the end as the rules have it: Python's
            outcome: _Outcome = ended  # a dict keyed as ``_Outcome`` (its keys, by name)
            self._check_game_end(played[-1][0], outcome, end_scores)
        if self.rules.chips:
            self._check_chips()
        return True


def _played(
    logs: tuple[HandLog, ...], replayed: tuple[HandReplay, ...]
) -> list[tuple[HandLog, HandReplay]]:
    """Each hand of the log with its replay, in the log's order; a hand the replay
    does not hold is left out.  ``replay_game`` replays every hand in order, so the
    two are usually paired as they stand (checked hand by hand, by identity) without
    a look-up table."""
    if len(logs) == len(replayed):
        # the pairs and the check in one pass (a check, then a zip, cost twice as much)
        pairs = [(hand, hr) for hand, hr in zip(logs, replayed, strict=True) if hr.hand is hand]
        if len(pairs) == len(logs):
            return pairs
    by_hand = {id(h.hand): h for h in replayed}
    return [(hand, by_hand[id(hand)]) for hand in logs if id(hand) in by_hand]


@dataclasses.dataclass(frozen=True, slots=True)
class HandsContext:
    """What ``_core.audit_hands`` reads of a game's rules, shared by the games of one
    lobby and hour (``_hands_context``; the game's file, log id and final line are
    arguments of their own): the core reads each field by its name (its slot, found
    once per class), so that a field added or moved here cannot shift the others,
    and a missing one is a TypeError."""

    win_row: WinRow
    core_rules: _core.ScoreRules
    riichi_type: type
    win_type: type
    draw_type: type
    passed_over: tuple[type, ...]
    """The classes a hand's walk passes over (draws and discards first)."""
    results: tuple[type, ...]
    abortive_draws: tuple[str, ...]
    abortive_kinds: tuple[str, ...]
    players: int
    stepless_reach: bool
    riichi_cost: int
    noten_pool: int
    max_hands: int
    renchan_on_win: bool
    renchan_on_tenpai: bool
    bust: bool
    points_to_end: int
    west_extension: bool
    dealer_stops_all_last: bool
    dealer_stops_on_tenpai: bool
    extension_winds: int
    hanchan: bool
    labels: dict[tuple[int, int], str]
    """``auditing.hands._LABELS``: a hand's label by its round and honba."""
    final: FinalRule | None
    """The core's form of the one reading of the games' final points
    (``chain._final_rule``); None leaves each game's end to ``_check_game_end``
    (several readings, or a count the core leaves to Python)."""


_CONTEXTS: dict[tuple[object, ...], tuple[RuleSet, LogWindow, Engine, HandsContext | None]] = {}
"""``_hands_context``'s contexts by the ``id`` of the rules, the log's window and the
engine (the entry holding them, so the ids stay theirs) and the game's own flags."""


def _hands_context(auditor: _GameAuditor, eng: Engine) -> HandsContext | None:
    """What ``_core.audit_hands`` reads of the game's rules (None where the core leaves
    them to Python, ``scoring.core.core_rules``), made once for the games of one lobby
    and hour, which share the rules and the log window (``_detected``): made anew for
    each game, its final reading looked up, it cost some 9 µs a game."""
    rules = auditor.rules
    meta = auditor.meta
    window = auditor.window
    if window is None:  # the caller's rules: the window read off the log, game by game
        return _new_hands_context(rules, eng.log_window(auditor.game), meta, eng)
    key = (id(rules), id(window), id(eng), meta.players, meta.stepless_reach, meta.hanchan)
    entry = _CONTEXTS.get(key)
    if entry is not None and entry[0] is rules and entry[1] is window and entry[2] is eng:
        return entry[3]
    ctx = _new_hands_context(rules, window, meta, eng)
    if len(_CONTEXTS) >= 256:  # many short-lived RuleSets and windows: stay bounded
        _CONTEXTS.clear()
    _CONTEXTS[key] = (rules, window, eng, ctx)
    return ctx


def _new_hands_context(
    rules: RuleSet, window: LogWindow, meta: GameMeta, eng: Engine
) -> HandsContext | None:
    """``_hands_context``, made: by ``values.MAKE`` (its fields set in C), as the
    replay makes its values (the frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``)."""
    core_rules = eng.core_rules(rules)
    if core_rules is None or eng.win_row is None:
        return None
    return values.MAKE(
        HandsContext,
        eng.win_row,
        core_rules,
        RiichiAccept,
        RecordedWin,
        RecordedDraw,
        _PASSED_OVER,
        _RESULTS,
        rules.abortive_draws,
        ABORTIVE_KINDS,
        meta.players,
        bool(meta.stepless_reach),
        rules.riichi_cost,
        rules.noten_pool,
        rules.max_hands,
        bool(rules.renchan_on_win),
        bool(rules.renchan_on_tenpai),
        bool(rules.bust),
        rules.points_to_end,
        bool(rules.west_extension),
        bool(rules.dealer_stops_all_last),
        bool(rules.dealer_stops_on_tenpai),
        rules.extension_winds,
        bool(meta.hanchan),
        _LABELS,
        _final_rule(rules, window, meta.hanchan),
    )


# -------------------------------------------------------------------- game rows


def audit_game(
    game: Game,
    rules: RuleSet | None = None,
    *,
    replay_only: bool = False,
    hands_sink: HandsSink | None = None,
) -> tuple[list[Finding], list[dict[str, Any]], RuleSet]:
    """Audit one parsed game: its findings, its ``hands`` rows and the rules used.

    ``replay_only`` stops after the replay (``validate``): the log's own
    consistency, its moves against the wall and the hands, without scoring or
    payments, so no ``hands`` rows.  ``hands_sink`` (the runner's): the rows the
    core makes in the game's one call go there (``hands_sink.rows`` of them), not
    into the rows returned."""
    used, era = _detected(game) if rules is None else (rules, None)
    auditor = _GameAuditor(game, used, era, read_lobby=rules is None)
    auditor.hands_sink = hands_sink
    for err in game.errors:
        auditor.findings.append(
            Finding(
                category="parse",
                field=type(err).__name__,
                message=getattr(err, "message", str(err)),
                file=game.meta.source,
                log_id=game.meta.log_id,
                hand=getattr(err, "hand", None),
                seq=getattr(err, "index", None),
            )
        )
    if used.players != game.meta.players:
        auditor.add(
            "rules",
            "players",
            f"rules {used.name} are for {used.players} players but the game has {game.meta.players}; not audited",
            recorded=game.meta.players,
            computed=used.players,
        )
        return auditor.findings, auditor.hand_rows, used
    try:
        if replay_only:
            auditor.replay()
        else:
            auditor.run()
    except (LogFormatError, RulesError) as exc:
        auditor.add("replay", "aborted", f"audit stopped: {exc}")
    return auditor.findings, auditor.hand_rows, auditor.rules


def _game_row(
    game: Game, rules: RuleSet, findings: list[Finding], hands: list[dict[str, Any]]
) -> dict[str, Any]:
    """The ``games`` row: a copy of ``_GAME_ROW`` with each column set by name (a
    dict display of its 26 keys built the dict key by key, half as slow again),
    the findings counted once; a seat past the players (or past those with final
    values) keeps its ``None``."""
    meta = game.meta
    problems = _problems(findings) if findings else 0
    row = _GAME_ROW.copy()
    row["file"] = meta.source
    row["log_id"] = meta.log_id
    row["format"] = meta.format
    row["rules"] = rules.name
    row["players"] = meta.players
    row["go_type"] = meta.go_type
    row["lobby"] = meta.lobby
    row["rule_disp"] = meta.rule_disp
    row["date"] = meta.date
    row["hands"] = len(game.hands)
    row["results"] = len(hands)
    row["findings"] = problems
    row["notes"] = len(findings) - problems
    row["status"] = "mismatch" if problems else "ok"
    players = game.players
    if len(players) >= 4:  # (the first four seats' names: a 3-player log has a fourth)
        row["name0"] = players[0].name
        row["name1"] = players[1].name
        row["name2"] = players[2].name
        row["name3"] = players[3].name
    else:
        for key, player in zip(_SEAT_NAMES, players, strict=False):
            row[key] = player.name
    owari = game.owari
    if owari is not None:  # the seats with final values: the players'
        scores = owari.scores
        points = owari.points
        for s in range(min(meta.players, 4)):
            row[_SEAT_SCORES[s]] = scores[s]
            row[_SEAT_POINTS[s]] = points[s]
    return row


_GAME_ROW: dict[str, Any] = dict.fromkeys(GAME_COLUMNS)
"""The ``games`` row with every column ``None``, in the columns' order: ``_game_row``
copies it (a copy of a dict's keys as they stand) and sets the game's own."""
_SEAT_NAMES = ("name0", "name1", "name2", "name3")
_SEAT_SCORES = ("final_score0", "final_score1", "final_score2", "final_score3")
_SEAT_POINTS = ("final_points0", "final_points1", "final_points2", "final_points3")


def _finding_row(f: Finding) -> dict[str, Any]:
    return {
        "category": f.category,
        "field": f.field,
        "file": f.file,
        "log_id": f.log_id,
        "hand": f.hand,
        "hand_index": f.hand_index,
        "seq": f.seq,
        "seat": f.seat,
        "recorded": None if f.recorded is None else str(f.recorded),
        "computed": None if f.computed is None else str(f.computed),
        "message": f.message,
    }
