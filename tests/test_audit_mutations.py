"""Mutation tests: change one recorded value of a real log and the audit must find
it, at the hand that was changed, with the right category, field and seat.

Every recorded field the audit checks has a mutation here (han, fu, yaku,
yakuman, limit, points, payments, scores before a result, honba, sticks, dora
and ura indicators, pao seat, winner and loser, draw kind, tenpai hands, start
scores and state, riichi deposits, final scores and points, a missing owari,
hands removed), on mjlog XML and on tenhou.net/6 JSON, each applied to several
logs at different hands.

The logs are real corpus games (``../shared/corpus``; without it, the
hand-written fixtures).  Every one of them must audit clean before it is
mutated: a log that stops auditing clean makes the suite fail, it is never
silently dropped from the set.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from replay_audit.model.rules.detect import rules_for_disp
from replay_audit.parsers.tenhou_json import parse_tenhou_json
from replay_audit.replay.table import replay_game
from tests.conftest import CORPUS, FIXTURES, REQUIRED
from tests.logedit import XmlLog, audit, json_log, problems, read_bytes, write_json

PER_MUTATION = 6
"""Logs each mutation is tried on (each at a hand of its own)."""
ANY = object()
"""An expected seat that may be anything (a finding with or without a seat)."""


def _xml_sources() -> list[Path]:
    if CORPUS.is_dir():
        phoenix = sorted((CORPUS / "tenhou-xml" / "phoenix-2024").glob("*.xml.gz"))
        special = CORPUS / "tenhou-xml" / "special"
        return [
            *phoenix[::60],
            special / "pao.xml.gz",
            special / "chip.xml.gz",
            special / "bye.xml.gz",
            *sorted((CORPUS / "pairs").glob("*.xml.gz")),
            *sorted((CORPUS / "tenhou-xml" / "excerpts").glob("*b9*.xml.gz")),
        ]
    if REQUIRED:
        pytest.fail("REPLAY_AUDIT_REQUIRE_CORPUS=1 but ../shared/corpus is absent")
    return sorted(p for p in FIXTURES.glob("*.xml") if "toutenkou" not in p.name)


def _json_sources() -> list[Path]:
    if CORPUS.is_dir():
        return sorted((CORPUS / "pairs").glob("*.json"))
    return sorted(FIXTURES.glob("json_*.json"))


XML_SOURCES = _xml_sources()
JSON_SOURCES = _json_sources()


@pytest.fixture(scope="module")
def baseline() -> dict[Path, int]:
    """Every source log audits without a problem (notes are fine): the hands of
    each, for the record.  One that does not is a failure of its own."""
    hands = {}
    for path in [*XML_SOURCES, *JSON_SOURCES]:
        fa = audit(path)
        assert problems(fa) == [], f"{path.name} no longer audits clean: {problems(fa)}"
        hands[path] = sum(g["hands"] for g in fa.games)
    return hands


# ----------------------------------------------------------------- expectations


@dataclass
class Expect:
    """The finding a mutation must produce (seat ``ANY``: whatever it is) and the
    hands findings may appear at (the changed one unless said otherwise)."""

    category: str
    fields: tuple[str, ...]
    hand: int
    seat: object = None
    also: set[int] = field(default_factory=set)

    def met_by(self, findings: list[dict[str, Any]]) -> bool:
        return any(
            f["category"] == self.category
            and f["field"] in self.fields
            and f["hand_index"] == self.hand
            and (self.seat is ANY or _seat(f) == self.seat)
            for f in findings
        )


def _seat(f: dict[str, Any]) -> int | None:
    return None if f["seat"] is None or f["seat"] != f["seat"] else int(f["seat"])


# ------------------------------------------------------------------ XML mutations

XmlMutation = Callable[[XmlLog, random.Random], Expect | None]


def _pick(rng: random.Random, items: list[Any]) -> Any:
    return rng.choice(items) if items else None


def _set(el: etree._Element, attr: str, index: int, value: object) -> None:
    parts = el.get(attr).split(",")
    parts[index] = str(value)
    el.set(attr, ",".join(parts))


def _get(el: etree._Element, attr: str, index: int) -> str:
    return el.get(attr).split(",")[index]


def _wins(log: XmlLog, pred: Callable[[etree._Element], bool] = lambda e: True) -> list:
    return log.tags("AGARI", pred)


def _plain(e: etree._Element) -> bool:
    """A win below mangan with regular yaku (fu and han both matter)."""
    return e.get("yakuman") is None and e.get("ten").endswith(",0")


def x_fu(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log, _plain))
    if win is None:
        return None
    _set(win, "ten", 0, int(_get(win, "ten", 0)) + 10)
    return Expect("hand_value", ("fu",), log.hand_of(win), int(win.get("who")))


def x_points(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log))
    if win is None:
        return None
    _set(win, "ten", 1, int(_get(win, "ten", 1)) + 100)
    return Expect("hand_value", ("points",), log.hand_of(win), int(win.get("who")))


def x_limit(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log))
    if win is None:
        return None
    _set(win, "ten", 2, (int(_get(win, "ten", 2)) + 1) % 6)
    return Expect("hand_value", ("limit",), log.hand_of(win), int(win.get("who")))


def x_han(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log, lambda e: _plain(e) and bool(e.get("yaku"))))
    if win is None:
        return None
    _set(win, "yaku", 1, int(_get(win, "yaku", 1)) + 1)
    return Expect("hand_value", ("han",), log.hand_of(win), int(win.get("who")))


def x_yaku_id(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log, lambda e: bool(e.get("yaku"))))
    if win is None:
        return None
    first = _get(win, "yaku", 0)
    ids = set(win.get("yaku").split(",")[::2])
    _set(win, "yaku", 0, next(i for i in ("9", "8", "24", "34") if i not in ids and i != first))
    return Expect("hand_value", ("yaku",), log.hand_of(win), int(win.get("who")))


def x_yakuman_id(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log, lambda e: e.get("yakuman") is not None))
    if win is None:
        return None
    ids = win.get("yakuman").split(",")
    _set(win, "yakuman", 0, next(i for i in ("43", "44", "45") if i not in ids))
    return Expect("hand_value", ("yakuman",), log.hand_of(win), int(win.get("who")))


def _delta(seat_of: Callable[[etree._Element], int | None], tsumo: bool | None) -> XmlMutation:
    def mutate(log: XmlLog, rng: random.Random) -> Expect | None:
        def ok(e: etree._Element) -> bool:
            is_tsumo = e.get("who") == e.get("fromWho")
            return (tsumo is None or is_tsumo == tsumo) and seat_of(e) is not None

        win = _pick(rng, _wins(log, ok))
        if win is None:
            return None
        seat = seat_of(win)
        assert seat is not None
        _set(win, "sc", 2 * seat + 1, int(_get(win, "sc", 2 * seat + 1)) + 10)
        return Expect("payment", ("delta",), log.hand_of(win), seat)

    return mutate


def _bystander(e: etree._Element) -> int | None:
    players = 3 if e.get("sc").split(",")[7] == "0" and e.get("sc").split(",")[6] == "0" else 4
    taken = {int(e.get("who")), int(e.get("fromWho")), int(e.get("paoWho") or -1)}
    return next((s for s in range(players) if s not in taken), None)


def x_scores_before(log: XmlLog, rng: random.Random) -> Expect | None:
    result = _pick(rng, list(log.results()))
    if result is None:
        return None
    seat = rng.randrange(3 if _get(result, "sc", 6) == "0" else 4)
    _set(result, "sc", 2 * seat, int(_get(result, "sc", 2 * seat)) + 10)
    return Expect("payment", ("scores_before",), log.hand_of(result), seat)


def x_ba(index: int, field_: str) -> XmlMutation:
    def mutate(log: XmlLog, rng: random.Random) -> Expect | None:
        result = _pick(rng, list(log.results()))
        if result is None:
            return None
        _set(result, "ba", index, int(_get(result, "ba", index)) + 1)
        return Expect("transition", (field_,), log.hand_of(result), None)

    return mutate


def _other_kind(tile: str) -> str:
    """A tile id of another kind that exists in three-player games too."""
    t = (int(tile) + 4) % 136
    return str(32 + t % 4 if 4 <= t < 32 else t)


def x_dora(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log))
    if win is None:
        return None
    _set(win, "doraHai", 0, _other_kind(_get(win, "doraHai", 0)))
    return Expect("replay", ("dora",), log.hand_of(win), int(win.get("who")))


def x_ura(log: XmlLog, rng: random.Random) -> Expect | None:
    # only where the ura indicators come from the wall (a SHUFFLE seed): without one the
    # log's indicator is all there is, and another kind is found only through the han
    # it changes, if it changes any (a fixture's chankan win: it does not)
    if log.root.find("SHUFFLE") is None:
        return None
    win = _pick(rng, _wins(log, lambda e: e.get("doraHaiUra") is not None))
    if win is None:
        return None
    _set(win, "doraHaiUra", 0, _other_kind(_get(win, "doraHaiUra", 0)))
    return Expect("replay", ("ura", "ura_count"), log.hand_of(win), int(win.get("who")))


def x_pao_added(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log, lambda e: e.get("paoWho") is None and _bystander(e) is not None))
    if win is None:
        return None
    win.set("paoWho", str(_bystander(win)))
    return Expect("payment", ("pao_seat",), log.hand_of(win), int(win.get("who")))


def x_pao_moved(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log, lambda e: e.get("paoWho") is not None))
    if win is None:
        return None
    win.set("paoWho", str(_bystander(win)))
    return Expect("payment", ("pao_seat",), log.hand_of(win), int(win.get("who")))


def x_winner(log: XmlLog, rng: random.Random) -> Expect | None:
    """A ron credited to another non-dealer seat: the replay finds that seat's
    tiles are not the recorded hand (the flow is the same: a non-dealer won)."""

    def ok(e: etree._Element) -> bool:
        return e.get("who") != e.get("fromWho") and _other_winner(log, e) is not None

    win = _pick(rng, _wins(log, ok))
    if win is None:
        return None
    seat = _other_winner(log, win)
    win.set("who", str(seat))
    return Expect("replay", ("hand", "win_incomplete"), log.hand_of(win), seat)


def _other_winner(log: XmlLog, e: etree._Element) -> int | None:
    init = log.tags("INIT")[log.hand_of(e)]
    dealer = int(init.get("oya"))
    players = 3 if init.get("hai3") == "" else 4
    taken = {int(e.get("who")), int(e.get("fromWho")), dealer}
    if int(e.get("who")) == dealer:
        return None  # the flow would change with the dealer's win
    if len(log.tags("AGARI", lambda a: log.hand_of(a) == log.hand_of(e))) > 1:
        return None  # a double ron: the other winner is taken too
    return next((s for s in range(players) if s not in taken), None)


def x_loser(log: XmlLog, rng: random.Random) -> Expect | None:
    win = _pick(rng, _wins(log, lambda e: e.get("who") != e.get("fromWho")))
    if win is None:
        return None
    seat = _bystander(win)
    if seat is None:
        return None
    win.set("fromWho", str(seat))
    return Expect("replay", ("ron_no_discard",), log.hand_of(win), int(win.get("who")))


def x_draw_kind(log: XmlLog, rng: random.Random) -> Expect | None:
    draw = _pick(rng, log.tags("RYUUKYOKU", lambda e: e.get("type") is None))
    if draw is None:
        return None
    draw.set("type", "yao9")
    h = log.hand_of(draw)
    return Expect("draw", ("abort_condition",), h, None, also={h + 1})


def x_tenpai_hidden(log: XmlLog, rng: random.Random) -> Expect | None:
    def shown(e: etree._Element) -> list[int]:
        return [s for s in range(4) if e.get(f"hai{s}")]

    draw = _pick(rng, log.tags("RYUUKYOKU", lambda e: e.get("type") is None and bool(shown(e))))
    if draw is None:
        return None
    seat = rng.choice(shown(draw))
    del draw.attrib[f"hai{seat}"]
    h = log.hand_of(draw)
    return Expect("draw", ("tenpai",), h, seat, also={h + 1})


def x_tenpai_added(log: XmlLog, rng: random.Random) -> Expect | None:
    def ok(e: etree._Element) -> bool:
        seats = [s for s in range(4) if e.get(f"hai{s}")]
        return e.get("type") is None and 0 < len(seats) < (3 if e.get("hai3") is None else 4)

    draw = _pick(rng, log.tags("RYUUKYOKU", ok))
    if draw is None:
        return None
    shown = [s for s in range(4) if draw.get(f"hai{s}")]
    players = 3 if _get(draw, "sc", 6) == "0" and _get(draw, "sc", 7) == "0" else 4
    seat = next(s for s in range(players) if s not in shown)
    draw.set(f"hai{seat}", draw.get(f"hai{shown[0]}"))
    h = log.hand_of(draw)
    return Expect("draw", ("tenpai",), h, seat, also={h + 1})


def _later_init(log: XmlLog, rng: random.Random) -> tuple[etree._Element, int] | None:
    inits = log.tags("INIT")
    if len(inits) < 2:
        return None
    k = rng.randrange(1, len(inits))
    return inits[k], k


def x_init_score(log: XmlLog, rng: random.Random) -> Expect | None:
    found = _later_init(log, rng)
    if found is None:
        return None
    init, k = found
    seat = rng.randrange(3 if init.get("hai3") == "" else 4)
    _set(init, "ten", seat, int(_get(init, "ten", seat)) + 10)
    return Expect("transition", ("start_scores",), k, seat)


def x_init_state(index: int, field_: str, by: int) -> XmlMutation:
    def mutate(log: XmlLog, rng: random.Random) -> Expect | None:
        found = _later_init(log, rng)
        if found is None:
            return None
        init, k = found
        _set(init, "seed", index, int(_get(init, "seed", index)) + by)
        return Expect("transition", (field_,), k, None)

    return mutate


def x_first_hand_score(log: XmlLog, rng: random.Random) -> Expect | None:
    init = log.tags("INIT")[0]
    if _get(init, "seed", 0) != "0" or _get(init, "seed", 1) != "0":
        return None
    seat = rng.randrange(3 if init.get("hai3") == "" else 4)
    _set(init, "ten", seat, int(_get(init, "ten", seat)) + 10)
    return Expect("transition", ("start_scores",), 0, seat)


def x_riichi_deposit(log: XmlLog, rng: random.Random) -> Expect | None:
    reach = _pick(rng, log.tags("REACH", lambda e: e.get("step") == "2" and bool(e.get("ten"))))
    if reach is None:
        return None
    who = int(reach.get("who"))
    _set(reach, "ten", who, int(_get(reach, "ten", who)) + 10)
    return Expect("payment", ("riichi_deposit",), log.hand_of(reach), who)


def _owari(log: XmlLog) -> etree._Element | None:
    return next((e for e in log.results() if e.get("owari") is not None), None)


def x_owari_score(log: XmlLog, rng: random.Random) -> Expect | None:
    last = _owari(log)
    if last is None:
        return None
    seat = rng.randrange(3 if _get(last, "owari", 6) == "0" else 4)
    _set(last, "owari", 2 * seat, int(_get(last, "owari", 2 * seat)) + 1)
    return Expect("final", ("final_score",), log.hand_of(last), seat)


def x_owari_points(log: XmlLog, rng: random.Random) -> Expect | None:
    last = _owari(log)
    if last is None:
        return None
    seat = rng.randrange(3 if _get(last, "owari", 6) == "0" else 4)
    value = float(_get(last, "owari", 2 * seat + 1)) + 1.0
    _set(last, "owari", 2 * seat + 1, f"{value:.1f}")
    return Expect("final", ("final_points",), log.hand_of(last), seat)


def x_owari_removed(log: XmlLog, rng: random.Random) -> Expect | None:
    last = _owari(log)
    if last is None:
        return None
    del last.attrib["owari"]
    return Expect("final", ("owari_missing",), log.hand_of(last), None)


TRANSITION_FIELDS = ("start_scores", "round", "honba", "sticks", "dealer", "game_over")


def x_hand_removed(log: XmlLog, rng: random.Random) -> Expect | None:
    hands = log.hands()
    if len(hands) < 3:
        return None
    k = rng.randrange(1, len(hands) - 1)
    for el in hands[k]:
        log.root.remove(el)
    return Expect("transition", TRANSITION_FIELDS, k, ANY)


def x_last_hand_removed(log: XmlLog, rng: random.Random) -> Expect | None:
    hands = log.hands()
    last = _owari(log)
    if len(hands) < 2 or last is None:
        return None
    owari = last.get("owari")
    for el in hands[-1]:
        log.root.remove(el)
    [e for e in log.hands()[-1] if e.tag in ("AGARI", "RYUUKYOKU")][-1].set("owari", owari)
    return Expect("transition", ("game_over",), len(hands) - 2, None)


def x_kan_dora(log: XmlLog, rng: random.Random) -> Expect | None:
    dora = _pick(rng, log.tags("DORA"))
    if dora is None:
        return None
    dora.set("hai", _other_kind(dora.get("hai")))
    return Expect("replay", ("wall", "dora"), log.hand_of(dora), ANY)


XML_MUTATIONS: dict[str, XmlMutation] = {
    "fu": x_fu,
    "points": x_points,
    "limit": x_limit,
    "one yaku's han": x_han,
    "a yaku id": x_yaku_id,
    "a yakuman id": x_yakuman_id,
    "the winner's payment": _delta(lambda e: int(e.get("who")), None),
    "the discarder's payment": _delta(lambda e: int(e.get("fromWho")), False),
    "a bystander's payment": _delta(_bystander, False),
    "a tsumo payer's payment": _delta(_bystander, True),
    "a score before the result": x_scores_before,
    "ba honba": x_ba(0, "ba_honba"),
    "ba sticks": x_ba(1, "ba_sticks"),
    "a dora indicator": x_dora,
    "an ura indicator": x_ura,
    "a kan dora indicator": x_kan_dora,
    "a pao seat added": x_pao_added,
    "the pao seat moved": x_pao_moved,
    "the winner": x_winner,
    "the discarder": x_loser,
    "the draw kind": x_draw_kind,
    "a tenpai hand hidden": x_tenpai_hidden,
    "a noten hand shown": x_tenpai_added,
    "a start score": x_init_score,
    "the round": x_init_state(0, "round", 1),
    "the honba": x_init_state(1, "honba", 1),
    "the sticks": x_init_state(2, "sticks", 1),
    "the first hand's start score": x_first_hand_score,
    "a riichi deposit": x_riichi_deposit,
    "a final score": x_owari_score,
    "final points": x_owari_points,
    "owari removed": x_owari_removed,
    "a hand removed": x_hand_removed,
    "the last hand removed": x_last_hand_removed,
}

RARE = {"a yakuman id", "the pao seat moved", "a kan dora indicator"}
"""Mutations whose element only some logs have (at least one must)."""


def _check(fa: Any, expect: Expect, name: str, source: str) -> None:
    found = problems(fa)
    assert expect.met_by(found), f"{name} on {source}: expected {expect}, got {found}"
    allowed = {expect.hand, *expect.also}
    stray = [f for f in found if f["hand_index"] not in allowed]
    assert not stray, f"{name} on {source}: findings off hand {expect.hand}: {stray}"
    assert fa.status == "mismatch", f"{name} on {source}: the file still audits clean"


@pytest.mark.parametrize("name", list(XML_MUTATIONS))
def test_xml_mutation_is_found_at_its_hand_field_and_seat(
    baseline: dict[Path, int], tmp_path: Path, name: str
) -> None:
    mutate = XML_MUTATIONS[name]
    done = 0
    for i, source in enumerate(XML_SOURCES):
        log = XmlLog(source)
        expect = mutate(log, random.Random(f"{name}/{i}"))
        if expect is None:
            continue
        target = tmp_path / source.name.removesuffix(".gz")
        fa = audit(log.write(target if target.suffix == ".xml" else target.with_suffix(".xml")))
        _check(fa, expect, name, source.name)
        done += 1
        if done == PER_MUTATION:
            break
    minimum = 1 if name in RARE or not CORPUS.is_dir() else PER_MUTATION
    if not CORPUS.is_dir() and done == 0:
        pytest.skip(f"no fixture has an element for {name!r}")
    assert done >= minimum, f"{name}: applied to {done} logs only"


# ------------------------------------------------------------------ JSON mutations

JsonMutation = Callable[[dict[str, Any], random.Random, Path], Expect | None]


def _json_wins(doc: dict[str, Any]) -> list[tuple[int, int]]:
    """(hand, index in the result list of its winner detail) of every win."""
    out = []
    for k, hand in enumerate(doc["log"]):
        res = hand[16]
        if res[0] == "和了":
            out.extend((k, j) for j in range(2, len(res), 2))
    return out


def j_delta(role: str) -> JsonMutation:
    def mutate(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
        wins = [
            (k, j)
            for k, j in _json_wins(doc)
            if role == "who" or doc["log"][k][16][j][0] != doc["log"][k][16][j][1]
        ]
        if not wins:
            return None
        k, j = rng.choice(wins)
        detail = doc["log"][k][16][j]
        seat = detail[0] if role == "who" else detail[1]
        doc["log"][k][16][j - 1][seat] += 100
        return Expect("payment", ("delta",), k, seat)

    return mutate


def _edit_point_string(
    pattern: str, repl: Callable[[re.Match[str]], str], field_: str
) -> JsonMutation:
    def mutate(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
        wins = [(k, j) for k, j in _json_wins(doc) if re.search(pattern, doc["log"][k][16][j][3])]
        if not wins:
            return None
        k, j = rng.choice(wins)
        detail = doc["log"][k][16][j]
        detail[3] = re.sub(pattern, repl, detail[3], count=1)
        return Expect("hand_value", (field_,), k, detail[0])

    return mutate


def j_yaku_han(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
    wins = [
        (k, j)
        for k, j in _json_wins(doc)
        if any(re.search(r"\(\d+飜\)", y) for y in doc["log"][k][16][j][4:])
        and "役満" not in doc["log"][k][16][j][3]
        and "満" not in doc["log"][k][16][j][3]
    ]
    if not wins:
        return None
    k, j = rng.choice(wins)
    detail = doc["log"][k][16][j]
    detail[4] = re.sub(r"\((\d+)飜\)", lambda m: f"({int(m[1]) + 1}飜)", detail[4])
    return Expect("hand_value", ("han",), k, detail[0])


def j_header(index: int, field_: str) -> JsonMutation:
    def mutate(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
        if len(doc["log"]) < 2:
            return None
        k = rng.randrange(1, len(doc["log"]))
        doc["log"][k][0][index] += 1
        return Expect("transition", (field_,), k, None)

    return mutate


def j_start_score(first: bool) -> JsonMutation:
    def mutate(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
        if first:
            k = 0
            if doc["log"][0][0][:2] != [0, 0]:
                return None
        elif len(doc["log"]) < 2:
            return None
        else:
            k = rng.randrange(1, len(doc["log"]))
        seat = rng.randrange(len(doc["log"][k][1]))
        doc["log"][k][1][seat] += 1000
        return Expect("transition", ("start_scores",), k, seat)

    return mutate


def j_pao(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
    wins = _json_wins(doc)
    if not wins:
        return None
    k, j = rng.choice(wins)
    detail = doc["log"][k][16][j]
    innocent = next(s for s in range(4) if s not in (detail[0], detail[1], detail[2]))
    detail[2] = innocent
    return Expect("payment", ("pao_seat",), k, detail[0])


def j_ura_count(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
    hands = [k for k, h in enumerate(doc["log"]) if h[3] and h[16][0] == "和了"]
    if not hands:
        return None
    k = rng.choice(hands)
    doc["log"][k][3] = doc["log"][k][3][:-1]
    return Expect("replay", ("ura_count",), k, ANY)


def j_dora(doc: dict[str, Any], rng: random.Random, source: Path) -> Expect | None:
    """A dora indicator that changes the winner's dora count (the recorded dora
    han no longer fits)."""
    game = parse_tenhou_json(read_bytes(source), str(source))
    rules = rules_for_disp(game.meta.rule_disp, aka=game.meta.aka)
    replay = replay_game(game, rules)
    options = []
    for hr in replay.hands:
        for rr in hr.results:
            ctx = rr.win
            if ctx is None or len(hr.hand.results) > 1:
                continue
            kinds = [t >> 2 for t in (*ctx.tiles, *(t for m in ctx.melds for t in m.tiles))]
            options.append((hr.hand.index, ctx.seat, kinds))
    if not options:
        return None
    k, seat, kinds = rng.choice(options)
    code = doc["log"][k][2][0]
    for candidate in (11, 21, 31, 41, 15, 25, 35, 45, 19, 29, 39, 47):
        if _dora_count(candidate, kinds) == _dora_count(code, kinds):
            continue
        doc["log"][k][2][0] = candidate
        if not parse_tenhou_json(json.dumps(doc).encode(), strict=False).errors:
            return Expect("hand_value", ("han", "yaku", "points", "limit"), k, seat)
    doc["log"][k][2][0] = code
    return None


_NEXT = {**{k: k + 1 for k in range(33)}, 8: 0, 17: 9, 26: 18, 30: 27, 33: 31}


def _dora_count(code: int, kinds: list[int]) -> int:
    if code in (51, 52, 53):
        code = 10 * (code - 50) + 5
    suit, n = divmod(code, 10)
    kind = (suit - 1) * 9 + n - 1
    return kinds.count(_NEXT[kind])


def j_winner(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
    wins = [
        (k, j)
        for k, j in _json_wins(doc)
        if doc["log"][k][16][j][0] != doc["log"][k][16][j][1] and len(doc["log"][k][16]) == 3
    ]
    if not wins:
        return None
    k, j = rng.choice(wins)
    detail = doc["log"][k][16][j]
    dealer = doc["log"][k][0][0] % 4
    other = next((s for s in range(4) if s not in (detail[0], detail[1], dealer)), None)
    if other is None or detail[0] == dealer:
        return None
    detail[0] = other
    return Expect("replay", ("hand", "win_incomplete", "ron_furiten"), k, other)


def j_draw_kind(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
    draws = [k for k, h in enumerate(doc["log"]) if h[16][0] in ("流局", "全員聴牌", "全員不聴")]
    if not draws:
        return None
    k = rng.choice(draws)
    doc["log"][k][16][0] = "流し満貫"
    return Expect("draw", ("delta", "nagashi"), k, ANY, also={k + 1})


def j_final(kind: str) -> JsonMutation:
    def mutate(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
        if "sc" not in doc:
            return None
        last = len(doc["log"]) - 1
        if kind == "removed":
            del doc["sc"]
            return Expect("final", ("owari_missing",), last, None)
        # a three-player log's fourth pair is its empty seat's (as x_owari_points)
        empty = len(doc["sc"]) == 8 and doc["sc"][6:] == [0, 0] and doc["name"][3:] == [""]
        seat = rng.randrange(3 if empty else len(doc["sc"]) // 2)
        doc["sc"][2 * seat + (0 if kind == "score" else 1)] += 100 if kind == "score" else 1
        return Expect("final", ("final_score" if kind == "score" else "final_points",), last, seat)

    return mutate


def j_hand_removed(doc: dict[str, Any], rng: random.Random, _: Path) -> Expect | None:
    if len(doc["log"]) < 3:
        return None
    k = rng.randrange(1, len(doc["log"]) - 1)
    del doc["log"][k]
    return Expect("transition", TRANSITION_FIELDS, k, ANY)


JSON_MUTATIONS: dict[str, JsonMutation] = {
    "the winner's payment": j_delta("who"),
    "the discarder's payment": j_delta("from"),
    "points": _edit_point_string(r"(\d+)点", lambda m: f"{int(m[1]) + 100}点", "points"),
    "fu": _edit_point_string(r"(\d+)符", lambda m: f"{int(m[1]) + 10}符", "fu"),
    "one yaku's han": j_yaku_han,
    "a dora indicator": j_dora,
    "an ura indicator fewer": j_ura_count,
    "a pao seat added": j_pao,
    "the winner": j_winner,
    "the draw kind": j_draw_kind,
    "the honba": j_header(1, "honba"),
    "the sticks": j_header(2, "sticks"),
    "a start score": j_start_score(first=False),
    "the first hand's start score": j_start_score(first=True),
    "a final score": j_final("score"),
    "final points": j_final("points"),
    "final scores removed": j_final("removed"),
    "a hand removed": j_hand_removed,
}


@pytest.mark.parametrize("name", list(JSON_MUTATIONS))
def test_json_mutation_is_found_at_its_hand_field_and_seat(
    baseline: dict[Path, int], tmp_path: Path, name: str
) -> None:
    mutate = JSON_MUTATIONS[name]
    done = 0
    for i, source in enumerate(JSON_SOURCES):
        doc = copy.deepcopy(json_log(source))
        expect = mutate(doc, random.Random(f"{name}/{i}"), source)
        if expect is None:
            continue
        fa = audit(write_json(doc, tmp_path / source.name))
        _check(fa, expect, name, source.name)
        done += 1
    if done == 0 and not CORPUS.is_dir():  # (the fixtures alone: as the XML test)
        pytest.skip(f"no JSON fixture has an element for {name!r}")
    if done == 0:
        pytest.fail(f"{name}: no JSON log has an element for it")
    if CORPUS.is_dir():
        assert done >= min(3, len(JSON_SOURCES)), f"{name}: applied to {done} logs only"
