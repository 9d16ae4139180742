"""Nothing taken on trust: every recorded value the audit used to accept without
computing it, changed by hand in a real log, is now found on its own hand.

Each test starts from a real corpus log that audits clean, changes the one
place an earlier version of the auditor took on faith, and requires the
finding (category, field, hand and, where there is one, seat).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import CORPUS, FIXTURES, need
from tests.logedit import XmlLog, audit, bump, ints, json_log, notes, problems, write_json

PAO = CORPUS / "tenhou-xml" / "special" / "pao.xml.gz"
PAO_PAIR = CORPUS / "pairs" / "2019103023gm-00a9-0000-f90e0fe9.xml.gz"
PAIR_JSON = CORPUS / "pairs" / "2019021004gm-00a9-0000-e2f6516d.json"
PHOENIX = CORPUS / "tenhou-xml" / "phoenix-2024"
BYE_2009 = CORPUS / "tenhou-xml" / "special" / "bye.xml.gz"


def _phoenix(n: int = 0) -> Path:
    return sorted(need(PHOENIX).glob("*.xml.gz"))[n]


def _target(tmp_path: Path, source: Path, name: str | None = None) -> Path:
    """Where an edited copy goes: the source's own name (its log id and date) unless
    another is asked for."""
    base = source.name.removesuffix(".gz")
    return tmp_path / (name or (base if base.endswith((".xml", ".json")) else base + ".xml"))


def _keys(findings: list[dict], *extra: str) -> set[tuple]:
    return {(f["category"], f["field"], f["hand_index"], *(f[k] for k in extra)) for f in findings}


def test_the_sources_audit_clean() -> None:
    """The baseline every test below starts from."""
    for path in (PAO, PAO_PAIR, PAIR_JSON, _phoenix(0), _phoenix(1), BYE_2009):
        fa = audit(need(path))
        assert problems(fa) == [], (path.name, problems(fa))


# ---------------------------------------------------------------------------- pao


@pytest.mark.parametrize("source", [PAO, PAO_PAIR], ids=["pao_2009", "pao_pair_2019"])
def test_pao_seat_moved_to_an_innocent_player_is_flagged(tmp_path: Path, source: Path) -> None:
    log = XmlLog(need(source))
    (win,) = log.tags("AGARI", lambda e: e.get("paoWho") is not None)
    who, liable = int(win.get("who")), int(win.get("paoWho"))
    innocent = next(s for s in range(4) if s not in (who, liable, int(win.get("fromWho"))))
    win.set("paoWho", str(innocent))
    fa = audit(log.write(_target(tmp_path, source)))
    hand = log.hand_of(win)
    pao = [f for f in problems(fa) if f["field"] == "pao_seat"]
    assert [(f["hand_index"], f["seat"], f["recorded"], f["computed"]) for f in pao] == [
        (hand, who, str(innocent), str(liable))
    ]
    assert {f["hand_index"] for f in problems(fa)} == {hand}
    # the payments are computed with the liable seat the calls give, so the
    # recorded ones (left as they were) still agree: only the pao seat is wrong
    assert {f["field"] for f in problems(fa)} == {"pao_seat"}


def test_pao_seat_removed_is_flagged(tmp_path: Path) -> None:
    log = XmlLog(need(PAO))
    (win,) = log.tags("AGARI", lambda e: e.get("paoWho") is not None)
    liable = win.get("paoWho")
    del win.attrib["paoWho"]
    fa = audit(log.write(_target(tmp_path, PAO)))
    (f,) = [f for f in problems(fa) if f["field"] == "pao_seat"]
    assert (f["category"], f["recorded"], f["computed"]) == ("payment", None, liable)


# ------------------------------------------------------- results that cannot be computed


def test_a_win_that_cannot_be_computed_is_reported_on_its_own_hand(tmp_path: Path) -> None:
    """The replay cannot rebuild a ron whose discarder did not discard last; its
    (also changed) payment must not be copied into the score chain, where it
    would surface as start-score findings on the next hand."""
    source = _phoenix(0)
    log = XmlLog(source)
    hands = log.hands()
    win = next(
        e
        for h in hands[:-1]
        for e in h
        if e.tag == "AGARI" and e.get("who") != e.get("fromWho") and e.get("owari") is None
    )
    who, frm = int(win.get("who")), int(win.get("fromWho"))
    other = next(s for s in range(4) if s not in (who, frm))
    win.set("fromWho", str(other))
    bump(win, "sc", 2 * other + 1, -10)  # the "payment" of the seat now named
    bump(win, "sc", 2 * frm + 1, +10)
    fa = audit(log.write(_target(tmp_path, source)))
    hand = log.hand_of(win)
    assert {f["hand_index"] for f in problems(fa)} == {hand}, problems(fa)
    assert ("replay", "ron_no_discard", hand) in _keys(problems(fa))
    assert ("info", "payments_unknown", hand) in _keys(notes(fa))


# ------------------------------------------------------------- the end of a game


def test_a_game_without_final_scores_is_a_finding(tmp_path: Path) -> None:
    source = _phoenix(1)
    log = XmlLog(source)
    (last,) = [e for e in log.results() if e.get("owari") is not None]
    del last.attrib["owari"]
    fa = audit(log.write(_target(tmp_path, source)))
    assert _keys(problems(fa)) == {("final", "owari_missing", log.hand_of(last))}


def test_a_game_cut_short_between_hands_is_a_finding(tmp_path: Path) -> None:
    source = _phoenix(1)
    log = XmlLog(source)
    for el in log.hands()[-1]:  # the last hand, owari and all
        log.root.remove(el)
    fa = audit(log.write(_target(tmp_path, source)))
    last = len(log.hands()) - 1
    assert _keys(problems(fa)) == {
        ("final", "owari_missing", last),
        ("transition", "game_over", last),
    }


def test_a_game_with_its_last_hand_removed_but_its_owari_kept_is_a_finding(
    tmp_path: Path,
) -> None:
    source = _phoenix(1)
    log = XmlLog(source)
    hands = log.hands()
    owari = next(e for e in hands[-1] if e.get("owari") is not None).get("owari")
    for el in hands[-1]:
        log.root.remove(el)
    [e for e in log.hands()[-1] if e.tag in ("AGARI", "RYUUKYOKU")][-1].set("owari", owari)
    fa = audit(log.write(_target(tmp_path, source)))
    last = len(log.hands()) - 1
    assert ("transition", "game_over", last) in _keys(problems(fa))
    assert {f["hand_index"] for f in problems(fa)} == {last}


# ------------------------------------------------------------- the opening state


def _rebase(log: XmlLog, by: int) -> None:
    """Every score of the log moved by ``by`` hundred points, consistently: only
    the rules' start points can tell."""
    for el in log.root:
        if el.tag == "INIT" or (el.tag == "REACH" and el.get("ten")):
            el.set("ten", ",".join(str(int(v) + by) for v in el.get("ten").split(",")))
        elif el.tag in ("AGARI", "RYUUKYOKU"):
            sc = ints(el, "sc")
            for s in range(4):
                sc[2 * s] += by
            el.set("sc", ",".join(map(str, sc)))
            if el.get("owari"):
                parts = el.get("owari").split(",")
                for s in range(4):
                    parts[2 * s] = str(int(parts[2 * s]) + by)
                    parts[2 * s + 1] = f"{float(parts[2 * s + 1]) + by / 10:.1f}"
                el.set("owari", ",".join(parts))


def test_a_game_rebased_to_other_start_scores_is_flagged(tmp_path: Path) -> None:
    source = _phoenix(0)
    log = XmlLog(source)
    _rebase(log, -1)
    fa = audit(log.write(_target(tmp_path, source)))
    assert _keys(problems(fa), "seat") == {("transition", "start_scores", 0, s) for s in range(4)}


@pytest.mark.parametrize(
    ("attr", "index", "field"), [("seed", 2, "sticks"), ("oya", None, "dealer")]
)
def test_the_first_hand_against_the_rules(tmp_path: Path, attr, index, field) -> None:
    source = _phoenix(0)
    log = XmlLog(source)
    init = log.tags("INIT")[0]
    if index is None:
        init.set(attr, "1")
    else:
        bump(init, attr, index, 1)
    fa = audit(log.write(_target(tmp_path, source)))
    assert ("transition", field, 0) in _keys(problems(fa))


# ------------------------------------------------------------------ undated logs


def test_an_undated_log_names_both_readings_of_its_final_points(tmp_path: Path) -> None:
    """A 2024 log saved under another name has no date; its final points read
    exact, but the log itself does not say which rounding applies: a note says
    so and names the other reading.  Changed to the other reading's values it
    still audits without a mismatch (either is possible) but never in silence."""
    source = _phoenix(2)
    undated = _target(tmp_path, source, "renamed.xml")
    XmlLog(source).write(undated)
    fa = audit(undated)
    assert problems(fa) == []
    (note,) = [f for f in notes(fa) if f["field"] == "final_reading"]
    assert "follow exact" in note["message"] and "rounded to 1000" in note["message"]

    rounded = note["message"].rsplit("would give ", 1)[1].split(",")
    log = XmlLog(source)
    (last,) = [e for e in log.results() if e.get("owari") is not None]
    parts = last.get("owari").split(",")
    for s in range(4):
        parts[2 * s + 1] = rounded[s]
    last.set("owari", ",".join(parts))
    fa = audit(log.write(undated))
    assert problems(fa) == []
    (note,) = [f for f in notes(fa) if f["field"] == "final_reading"]
    assert "follow rounded to 1000" in note["message"]


def test_an_old_undated_log_is_dated_by_its_format(tmp_path: Path) -> None:
    """A 2009 log (per-hand INIT shuffle seeds) can only be rounded to 1000: no note,
    and the exact reading's values would be a finding."""
    fa = audit(need(BYE_2009))
    assert [f for f in fa.findings if f["field"] == "final_reading"] == []


# ----------------------------------------------------------------------- JSON logs


def test_json_first_hand_is_checked_against_the_rules(tmp_path: Path) -> None:
    doc = json_log(need(PAIR_JSON))
    doc["log"][0][1] = [v + 1000 for v in doc["log"][0][1]]
    fa = audit(write_json(doc, tmp_path / PAIR_JSON.name))
    assert ("transition", "start_scores", 0, 0) in _keys(problems(fa), "seat")


def test_json_honba_is_recorded_not_compared_with_itself(tmp_path: Path) -> None:
    """A JSON hand header's honba is what the log says; the result's honba is
    computed from the previous hand (the payments follow the computed one)."""
    doc = json_log(need(PAIR_JSON))
    k = next(i for i, h in enumerate(doc["log"]) if i > 0 and h[16][0] == "和了")
    doc["log"][k][0][1] += 1
    fa = audit(write_json(doc, tmp_path / PAIR_JSON.name))
    assert _keys(problems(fa)) == {("transition", "honba", k)}


def test_json_ura_indicators_are_counted(tmp_path: Path) -> None:
    doc = json_log(need(PAIR_JSON))
    k = next(i for i, h in enumerate(doc["log"]) if h[3])  # a hand with ura (a riichi win)
    doc["log"][k][3] = doc["log"][k][3][:-1]  # one ura indicator fewer than dora indicators
    fa = audit(write_json(doc, tmp_path / PAIR_JSON.name))
    assert ("replay", "ura_count", k) in _keys(problems(fa))


# --------------------------------------------------------------------- warnings


def test_parser_warnings_reach_the_findings_as_notes(tmp_path: Path) -> None:
    source = need(CORPUS / "tenhou-json" / "excerpts" / "confusing_nakis_2.json")
    fa = audit(shutil.copy(source, tmp_path / source.name))
    assert any(f["field"] == "parse_warning" for f in notes(fa))


SANMA_XML = FIXTURES / "3p_kita_tsumo_loss_2024030112gm-00b9-0000-3a7c0f19.xml"
SANMA_JSON = FIXTURES / "json_3p_kita.json"


def _empty_seat_xml(log: XmlLog, where: str) -> None:
    """One of a three-player mjlog's fourth-seat placeholders written non-zero."""
    if where == "start":
        bump(log.tags("INIT")[0], "ten", 3, 1)
    elif where == "scores":
        bump(next(log.results()), "sc", 6, 1)
    elif where == "payments":
        bump(next(log.results()), "sc", 7, 1)
    else:
        last = [e for e in log.results() if e.get("owari")][-1]
        values = last.get("owari").split(",")
        values[-1 if where == "points" else -2] = "1.0" if where == "points" else "1"
        last.set("owari", ",".join(values))


EMPTY_SEAT = [
    ("start", "transition", 0),
    ("scores", "payment", 0),
    ("payments", "payment", 0),
    ("final scores", "final", -1),
    ("points", "final", -1),
]


@pytest.mark.parametrize(("where", "category", "hand"), EMPTY_SEAT)
def test_a_three_player_xml_log_empty_seat_holds_nothing(
    tmp_path: Path, where: str, category: str, hand: int
) -> None:
    """The fourth seat of a three-player log is a placeholder of zeros; every other
    check compares three seats, so a value written there was taken as it stood."""
    assert problems(audit(SANMA_XML)) == []
    log = XmlLog(SANMA_XML)
    _empty_seat_xml(log, where)
    found = problems(audit(log.write(tmp_path / SANMA_XML.name)))
    last = len(log.hands()) - 1
    assert _keys(found, "seat") == {(category, "empty_seat", hand % (last + 1), 3)}


@pytest.mark.parametrize(
    ("where", "category"), [("start", "transition"), ("payments", "payment"), ("points", "final")]
)
def test_a_three_player_json_log_empty_seat_holds_nothing(
    tmp_path: Path, where: str, category: str
) -> None:
    assert problems(audit(SANMA_JSON)) == []
    doc = json_log(SANMA_JSON)
    if where == "start":
        doc["log"][0][1][3] = 100
    elif where == "payments":
        doc["log"][0][-1][1][3] = 100
    else:
        doc["sc"][-1] = 1.0
    found = problems(audit(write_json(doc, tmp_path / SANMA_JSON.name)))
    hand = 0 if where != "points" else len(doc["log"]) - 1
    assert _keys(found, "seat") == {(category, "empty_seat", hand, 3)}
