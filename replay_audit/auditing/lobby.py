"""Which lobby a game was played in, and what its log shows of rules it does not record.

Ranked Tenhou lobbies and Mahjong Soul's ranked, casual and special rooms
play fixed rules, which ``model.rules`` detects.  Other lobbies choose their own:

* a Tenhou private or championship lobby with a ``csrule`` records them
  (``model.rules.csrule``); only how many winds of extension it allows is not there;
* a Tenhou lobby without one (lobby number not 0) and a Mahjong Soul
  friendly or tournament room (``友人戦``/``大会戦``, ``model.rules.majsoul``) record
  nothing of their own: start points, uma, oka, game length and renchan may
  all differ from the defaults.

For those, what the log itself shows is read off it before the audit, each
reading said in a note (``findings.INFO``) so it is never passed over: the
start points from the first hand; renchan on a dealer win or tenpai from the
first hand that exercises it (the dealer of the next hand); a Mahjong Soul
game's length where its room name does not say it (``majsoul_length``: its end
at the East all-last, or in the South by sudden death, with the target that
explains it where the room's is its owner's); the extension
from the rounds played and from the scores at which the game went on or
ended; uma, oka and rounding from the final line (``infer_settlement.py``).
Everything else is audited under the defaults, and the rest of the game is
held against what was read, so a later hand that breaks it is a finding.  A
user who knows a lobby's rules passes them (``--rules``/``--rule``) and
nothing is inferred.

Must not: compute a score or a payment; it reads the log and names what it inferred.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from replay_audit.auditing.infer_settlement import infer_settlement, offsets, places, rounding_of
from replay_audit.auditing.majsoul_length import both_fit, read_length
from replay_audit.model.events import Game, GameMeta, HandLog, RecordedDraw, RecordedWin
from replay_audit.model.findings import INFO
from replay_audit.model.rules.majsoul import is_majsoul_ref, room_of
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.final import final_points
from replay_audit.scoring.flow import all_last_index

if TYPE_CHECKING:
    from replay_audit.replay.values import GameReplay

LobbyKind = Literal["ranked", "majsoul", "csrule", "private", "championship", "majsoul_custom"]

FIXED_KINDS: frozenset[LobbyKind] = frozenset({"ranked", "majsoul"})
"""The lobbies whose rules are fixed (``model.rules`` detects them): nothing is read
off the log, and ``read_lobby`` gives the rules back as they are, without a note."""

_LOBBY_FIELD = re.compile(r"^\d{8,10}gm-[0-9a-f]{4}-(\d{4,5})-")

HANCHAN, TONPUU = "hanchan", "tonpuu"
"""A game's length as the ``inferred_length`` note of ``_majsoul_length`` records it."""

CHAMPIONSHIP_FIRST = 10000
"""Tenhou lobby numbers: 1-9999 private (``L``) lobbies, 10000-19999 championship
(``C``) lobbies (the Tenhou client builds ``"1" + C-number``)."""


@dataclass(frozen=True, slots=True)
class LobbyNote:
    """One thing the lobby reading says: a note, or (rarely) a problem."""

    field: str
    message: str
    hand: HandLog | None = None
    category: str = INFO
    recorded: str | None = None
    """What the log says where the reading replaces it (the length: ``hanchan``)."""
    computed: str | None = None
    """What was read instead (``tonpuu``): the report's row shows both, and the
    per-player facts take the length from it (``auditor._as_read``)."""


@dataclass(frozen=True, slots=True)
class LobbyReading:
    """The rules a game is audited under once its lobby is read, and the notes."""

    rules: RuleSet
    notes: tuple[LobbyNote, ...] = ()
    hanchan: bool | None = None
    """The game's length where it was read off the log (``_majsoul_length``), else
    None: the log's own (``GameMeta.hanchan``)."""


def lobby_number(meta: GameMeta) -> int | None:
    """The lobby: from the log id's lobby field (``...gm-0641-11000-...``), else GO's."""
    m = _LOBBY_FIELD.match(meta.log_id or "")
    return int(m.group(1)) if m else meta.lobby


def lobby_kind(meta: GameMeta) -> LobbyKind:
    """Where the game's rules come from (see the module docstring).

    >>> lobby_kind(GameMeta("a.json", None, "tenhou-json", 4, rule_disp="友人戦南喰赤"))
    'majsoul_custom'
    >>> lobby_kind(GameMeta("b.xml", "2024060112gm-0041-1234-5a1b2c3d", "tenhou-xml", 4, 65, 0))
    'private'
    """
    if meta.format == "tenhou-json":
        room = room_of(meta.rule_disp)
        if room is not None:
            return "majsoul" if room.rules_known else "majsoul_custom"
        if is_majsoul_ref(meta.log_id):  # no room named: its settings are read off the log
            return "majsoul_custom"
    if meta.extra and dict(meta.extra).get("csrule"):  # (no dict of an empty extra)
        return "csrule"
    number = lobby_number(meta)
    if not number:
        return "ranked"
    return "championship" if number >= CHAMPIONSHIP_FIRST else "private"


def read_lobby(game: Game, replay: GameReplay, rules: RuleSet) -> LobbyReading:
    """The rules to audit ``game`` under, after reading what its lobby does not
    record off the log (``rules``: those detected from the log's metadata)."""
    kind = lobby_kind(game.meta)
    if kind in FIXED_KINDS:
        return LobbyReading(rules)
    where = _where(game.meta, kind)
    notes: list[LobbyNote] = []
    if kind == "csrule":
        from replay_audit.model.rules.csrule import read_csrule

        csrule = read_csrule(rules, dict(game.meta.extra).get("csrule", ""))
        notes.append(LobbyNote("lobby_rules", f"{where}: rules from its csrule: {csrule.summary}"))
        if csrule.unmodelled:
            notes.append(
                LobbyNote(
                    "csrule_unmodelled",
                    "csrule settings the audit does not apply (the defaults are kept): "
                    + "; ".join(csrule.unmodelled),
                )
            )
        rules = _extension_winds(game, rules, notes)
        return LobbyReading(rules, tuple(notes))
    notes.append(
        LobbyNote(
            "lobby_rules",
            f"{where}: the lobby's rules are not in the log; what the log shows of them is "
            f"read off it (the notes below), the defaults of {rules.name} are kept elsewhere; "
            "pass --rules or --rule to audit under known rules",
        )
    )
    majsoul = kind == "majsoul_custom"
    unseen: list[str] = []
    rules = _start_points(game, rules, majsoul, notes, unseen)
    rules = _renchan(game, replay, rules, notes, unseen)
    hanchan, rules = _majsoul_length(game, replay, rules, notes) if majsoul else (None, rules)
    if hanchan is not None:  # the readings below see the length read off the log
        game = dataclasses.replace(game, meta=dataclasses.replace(game.meta, hanchan=hanchan))
    rules = _extension_winds(game, rules, notes)
    rules = _target_and_bust(game, replay, rules, notes, unseen)
    rules = _settlement(game, rules, majsoul, notes, unseen)
    if unseen:
        notes.append(
            LobbyNote(
                "rules_not_observed",
                "not shown by this game, the defaults are kept: " + "; ".join(unseen),
            )
        )
    inferred = dataclasses.replace(rules, name=f"{rules.name}-inferred")
    return LobbyReading(inferred, tuple(notes), hanchan)


def _majsoul_length(
    game: Game, replay: GameReplay, rules: RuleSet, notes: list[LobbyNote]
) -> tuple[bool | None, RuleSet]:
    """East-only (False) for a Mahjong Soul game whose ``disp`` names no length,
    when the log shows it (``majsoul_length``: an end at the East all-last, or in
    the South before its all-last by sudden death), said in a note placed right
    after the lobby's (where it stood before the sudden-death reading needed the
    renchan read first); None (the log's own length, a hanchan by default) for
    anything else, with a ``length_assumed`` note where both lengths fit (a bust,
    an end at the South all-last: ``majsoul_length.both_fit``).  The rules come
    back with the target the sudden death was read with, where the room's own
    differs from the default (the note says so), so the game-end check holds the
    game to it."""
    found = read_length(game, replay, rules)
    if found is None:
        assumed = both_fit(game)
        if assumed is not None:
            notes.insert(1, LobbyNote("length_assumed", assumed.message, assumed.hand))
        return None, rules
    notes.insert(
        1,
        LobbyNote("inferred_length", found.message, found.hand, recorded=HANCHAN, computed=TONPUU),
    )
    if found.end_points is not None:
        rules = dataclasses.replace(rules, end_points=found.end_points)
    return False, rules


def _where(meta: GameMeta, kind: LobbyKind) -> str:
    if kind == "majsoul_custom":
        room = room_of(meta.rule_disp)
        title = dict(meta.extra).get("title")
        label = meta.rule_disp or ""
        if title:
            try:
                head = json.loads(title)[0]
                label = head if isinstance(head, str) and head else label
            except (ValueError, IndexError, KeyError, TypeError):
                pass
        return f"Mahjong Soul {room.kind if room else 'custom'} room {label!r}"
    number = lobby_number(meta)
    name = "championship" if number and number >= CHAMPIONSHIP_FIRST else "private"
    return f"{name} lobby {number}"


def _start_points(
    game: Game, rules: RuleSet, majsoul: bool, notes: list[LobbyNote], unseen: list[str]
) -> RuleSet:
    """The start points, from a first hand that is the game's first (East 1, no
    honba or sticks, every seat equal); Mahjong Soul settles against them."""
    first = game.hands[0] if game.hands else None
    n = rules.players
    if first is None or (first.round_index, first.honba, first.sticks) != (0, 0, 0):
        unseen.append("start points (the log does not start at East 1)")
        return rules
    values = set(first.scores[:n])
    if len(values) != 1:
        unseen.append("start points (the first hand's seats differ)")
        return rules
    start = values.pop()
    if start == rules.start_points:
        return rules
    notes.append(
        LobbyNote(
            "inferred_start_points",
            f"start points {start}, from the first hand (the default is {rules.start_points})",
            first,
        )
    )
    changes: dict[str, Any] = {"start_points": start, "end_points": rules.points_to_end}
    if majsoul:
        changes["return_points"] = start
    return dataclasses.replace(rules, **changes)


def _renchan(
    game: Game, replay: GameReplay, rules: RuleSet, notes: list[LobbyNote], unseen: list[str]
) -> RuleSet:
    """Renchan on a dealer win and on dealer tenpai at a draw, each from the
    first hand that shows it (the dealer of the hand after it); the tenpai is
    the replay's, from the tiles."""
    hands = list(game.hands)
    by_hand = {id(h.hand): h for h in replay.hands}
    seen: dict[str, tuple[bool, HandLog]] = {}
    for i, hand in enumerate(hands[:-1]):
        nxt = hands[i + 1]
        hr = by_hand.get(id(hand))
        if hr is None or nxt.dealer not in (hand.dealer, (hand.dealer + 1) % rules.players):
            continue
        keeps = nxt.dealer == hand.dealer
        winners = [r.result.seat for r in hr.results if isinstance(r.result, RecordedWin)]
        if winners:
            if hand.dealer in winners:
                seen.setdefault("renchan_on_win", (keeps, hand))
            continue
        for r in hr.results:
            if isinstance(r.result, RecordedDraw) and r.draw and r.draw.tenpai[hand.dealer]:
                seen.setdefault("renchan_on_tenpai", (keeps, hand))
    what = {"renchan_on_win": "after a dealer win", "renchan_on_tenpai": "after dealer tenpai"}
    changes: dict[str, Any] = {}
    for name, text in what.items():
        if name not in seen:
            unseen.append(f"renchan {text} (default: {'yes' if getattr(rules, name) else 'no'})")
            continue
        keeps, hand = seen[name]
        changes[name] = keeps
        notes.append(
            LobbyNote(
                "inferred_renchan",
                f"the dealer {'keeps' if keeps else 'passes'} the deal {text}, as {hand.label} "
                f"shows (the default: {'keeps' if getattr(rules, name) else 'passes'})",
                hand,
            )
        )
    return dataclasses.replace(rules, **changes) if changes else rules


def _extension_winds(game: Game, rules: RuleSet, notes: list[LobbyNote]) -> RuleSet:
    """More winds of extension than one, when the game reached them."""
    if not game.hands or not rules.west_extension:
        return rules
    n = rules.players
    last_hand = max(game.hands, key=lambda h: h.round_index)
    all_last = all_last_index(n, "hanchan" if game.meta.hanchan else "tonpuu")
    winds = -(-(last_hand.round_index - all_last) // 4)
    if winds <= rules.extension_winds:
        return rules
    length = "a hanchan" if game.meta.hanchan else "an East-only game"
    notes.append(
        LobbyNote(
            "inferred_length",
            f"{length} that reached {last_hand.label.split('-')[0]}: the lobby plays up to "
            f"{winds} winds of extension after all-last (Tenhou ranked: 1); audited so",
            last_hand,
        )
    )
    return dataclasses.replace(rules, extension_winds=winds)


def _target_and_bust(
    game: Game, replay: GameReplay, rules: RuleSet, notes: list[LobbyNote], unseen: list[str]
) -> RuleSet:
    """What the top needs to end the game (bounded by the scores at which a
    deal-passing hand at or after all-last went on, or ended the game), and
    whether a score below zero ends it."""
    hands = list(game.hands)
    if not hands:
        return rules
    n = rules.players
    all_last = all_last_index(n, "hanchan" if game.meta.hanchan else "tonpuu")
    changes: dict[str, Any] = {}
    lower: tuple[int, HandLog] | None = None
    for i, hand in enumerate(hands[:-1]):
        nxt = hands[i + 1]
        if min(nxt.scores[:n]) < 0 and rules.bust and "bust" not in changes:
            changes["bust"] = False
            notes.append(
                LobbyNote(
                    "inferred_bust",
                    f"the game went on after {hand.label} with a score below zero: no bust",
                    nxt,
                )
            )
        if hand.round_index >= all_last and nxt.dealer != hand.dealer:
            top = max(nxt.scores[:n])
            if lower is None or top > lower[0]:
                lower = (top, hand)
    upper = _end_top(game, replay, rules, all_last)
    target = rules.points_to_end
    if lower is None and upper is None:
        unseen.append(f"the points the top needs to end the game (default {target})")
    new = _target_between(target, lower, upper)
    if new is not None:
        bounds = []
        if lower is not None:
            bounds.append(f"more than {lower[0]} (the game went on after {lower[1].label})")
        if upper is not None:
            bounds.append(f"at most {upper[0]} (it ended after {upper[1].label})")
        notes.append(
            LobbyNote(
                "inferred_length",
                f"the top needs {' and '.join(bounds)} to end the game, not the default "
                f"{target} (or the lobby has another extension rule); audited with {new}",
                (upper or lower or (0, hands[-1]))[1],
            )
        )
        changes["end_points"] = new
    return dataclasses.replace(rules, **changes) if changes else rules


def _target_between(
    target: int, lower: tuple[int, HandLog] | None, upper: tuple[int, HandLog] | None
) -> int | None:
    """A target for the game to follow, when the default breaks the bounds and
    some other value keeps them (``None``: keep the default)."""
    above = lower[0] if lower is not None else None
    below = upper[0] if upper is not None else None
    if (above is None or target > above) and (below is None or target <= below):
        return None
    if above is not None and below is not None and above >= below:
        return None  # no threshold explains the game: the flow check reports it
    if below is not None:
        return below
    return None if above is None else above + 100


def _end_top(
    game: Game, replay: GameReplay, rules: RuleSet, all_last: int
) -> tuple[int, HandLog] | None:
    """The top's score after the last hand (its scores after the riichi sticks
    plus the recorded payments), when that hand passed the deal at or after
    all-last (before the last extension hand) without a bust: the game ended
    there, so the top had what it needs."""
    last = game.hands[-1]
    if game.owari is None or last.round_index < all_last:
        return None
    if last.round_index >= all_last + 4 * rules.extension_winds:
        return None
    hr = next((h for h in replay.hands if h.hand is last), None)
    if hr is None or not hr.results:
        return None
    n = rules.players
    if len(hr.scores) < n:
        return None
    end = list(hr.scores[:n])
    for r in hr.results:
        res = r.result
        if isinstance(res, RecordedWin) and res.seat == last.dealer:
            return None
        if isinstance(res, RecordedDraw):
            tenpai = r.draw.tenpai[last.dealer] if r.draw is not None else None
            if res.kind not in ("exhaustive", "nm") or tenpai is not False:
                return None
        if len(res.deltas) < n:
            return None
        end = [e + d for e, d in zip(end, res.deltas, strict=False)]
    if min(end) < 0:
        return None
    return max(end), last


def _settlement(
    game: Game, rules: RuleSet, majsoul: bool, notes: list[LobbyNote], unseen: list[str]
) -> RuleSet:
    """Uma, oka and rounding from the final line: the defaults when they give
    it, else the reading ``infer_settlement`` finds."""
    owari = game.owari
    last = game.hands[-1] if game.hands else None
    n = rules.players
    if owari is None:
        unseen.append("uma, oka and rounding (no final line)")
        return rules
    scores, points = owari.scores[:n], owari.points[:n]
    era = rounding_of(scores, points, n)
    default = dataclasses.replace(rules, rounding=era, old_tonpuu_uma=(), uma_rows=())
    _, computed = final_points(scores, 0, default, era=era)
    era_text = "exact to 0.1" if era == "exact" else "rounded to 1000, the top taking the rest"
    if all(abs(computed[s] - points[s]) <= 0.05 for s in range(n)):
        notes.append(
            LobbyNote(
                "inferred_settlement",
                f"the final points follow the default settlement of {rules.name}: return "
                f"{rules.return_points}, uma {_signed(rules.uma)}, oka {rules.oka}, {era_text}",
                last,
            )
        )
        return default
    c = offsets(scores, points, n, era)
    if any(a < b for a, b in itertools.pairwise(c[1:] if era == "era1" else c)):
        seats = ",".join(map(str, places(scores, n)))
        notes.append(
            LobbyNote(
                "final_points_order",
                "the final points are not in the order of the final scores (seats "
                f"{seats} from first to last): no uma falling with the place gives them",
                last,
                category="final",
            )
        )
    found = infer_settlement(
        scores, points, rules, start=rules.start_points, origin_is_start=majsoul
    )
    if found is None:
        notes.append(
            LobbyNote(
                "inferred_settlement",
                "no uma in whole thousands gives the recorded final points from the final "
                f"scores: they are audited under the default settlement of {rules.name}",
                last,
            )
        )
        return rules
    r = found.rules
    balance = sum(r.uma) + r.oka - n * (r.return_points - r.start_points) // 1000
    notes.append(
        LobbyNote(
            "inferred_settlement",
            "the lobby's uma and oka, from the final scores and points: per-place offsets "
            f"(points - score/1000, first to last) {'/'.join(str(x) for x in found.offsets)}; "
            f"read as {found.reading}: return {r.return_points}, uma {_signed(r.uma)}, "
            f"oka {r.oka}, {era_text}"
            + ("" if balance == 0 else f" (not zero-sum: {balance:+d})")
            + _ties_text(scores, points, n),
            last,
        )
    )
    return r


def _ties_text(scores: Sequence[int], points: Sequence[float], players: int) -> str:
    """What a tie in the final scores shows: equal values (the tied places
    share their uma, so only its average is known) or seat order."""
    texts = []
    for a, b in itertools.combinations(range(players), 2):
        if scores[a] == scores[b]:
            how = "share their uma" if points[a] == points[b] else "are placed by seat order"
            texts.append(f"; seats {a} and {b} tie and {how}")
    return "".join(texts)


def _signed(values: tuple[int, ...]) -> str:
    return "/".join(f"{v:+d}" for v in values)
