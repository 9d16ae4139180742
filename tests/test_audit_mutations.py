"""Mutation tests: change one recorded value in a real log and the audit must flag
exactly the hand that was changed, with the right category.

The logs come from ``../shared/corpus`` when it is there, else from
``fixtures/``.  Each mutation edits one attribute of one element in the XML;
the unmutated log must audit clean first, so a failure here is never hidden by
noise.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import etree

from replay_audit.audit import audit_file

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"


def _candidate_logs() -> list[Path]:
    if CORPUS.is_dir():
        return sorted(CORPUS.glob("*.xml.gz"))[:60]
    return sorted((ROOT / "fixtures").glob("*.xml"))


def _load(path: Path) -> etree._Element:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return etree.fromstring(data)


def _hand_of(root: etree._Element, el: etree._Element) -> int:
    """0-based index of the hand (INIT) an element belongs to."""
    n = -1
    for e in root:
        if e.tag == "INIT":
            n += 1
        if e is el:
            return n
    raise AssertionError("element not in document")


Mutation = Callable[[etree._Element], etree._Element | None]


def _first(root: etree._Element, pred: Callable[[etree._Element], bool]) -> etree._Element | None:
    for el in root:
        if pred(el):
            return el
    return None


def _set_list(el: etree._Element, attr: str, index: int, fn: Callable[[str], str]) -> None:
    parts = el.get(attr).split(",")
    parts[index] = fn(parts[index])
    el.set(attr, ",".join(parts))


def _plus(n: int) -> Callable[[str], str]:
    return lambda v: str(int(v) + n)


def m_sc_delta_loser(root):
    el = _first(root, lambda e: e.tag == "AGARI" and e.get("who") != e.get("fromWho"))
    if el is not None:
        loser = int(el.get("fromWho"))
        _set_list(el, "sc", 2 * loser + 1, _plus(-10))
    return el


def m_sc_delta_winner(root):
    el = _first(root, lambda e: e.tag == "AGARI")
    if el is not None:
        _set_list(el, "sc", 2 * int(el.get("who")) + 1, _plus(10))
    return el


def m_ten_points(root):
    el = _first(root, lambda e: e.tag == "AGARI" and e.get("ten").endswith(",0"))
    if el is not None:
        _set_list(el, "ten", 1, _plus(100))
    return el


def m_ten_fu(root):
    el = _first(root, lambda e: e.tag == "AGARI" and e.get("ten").endswith(",0"))
    if el is not None:
        _set_list(el, "ten", 0, _plus(10))
    return el


def m_yaku_han(root):
    el = _first(root, lambda e: e.tag == "AGARI" and e.get("yaku") and e.get("ten").endswith(",0"))
    if el is not None:
        _set_list(el, "yaku", 1, _plus(1))
    return el


def m_yaku_id(root):
    def ok(e):
        return e.tag == "AGARI" and bool(e.get("yaku")) and e.get("yaku").split(",")[0] != "9"

    el = _first(root, ok)
    if el is not None:
        _set_list(el, "yaku", 0, lambda v: "9" if v != "9" else "8")
    return el


def m_ba_honba(root):
    el = _first(root, lambda e: e.tag == "AGARI")
    if el is not None:
        _set_list(el, "ba", 0, _plus(1))
    return el


def m_ba_sticks(root):
    el = _first(root, lambda e: e.tag in ("AGARI", "RYUUKYOKU"))
    if el is not None:
        _set_list(el, "ba", 1, _plus(1))
    return el


def m_tenpai_hand_removed(root):
    def ok(e):
        if e.tag != "RYUUKYOKU" or e.get("type"):
            return False
        shown = [k for k in ("hai0", "hai1", "hai2", "hai3") if e.get(k)]
        return 0 < len(shown) < 4

    el = _first(root, ok)
    if el is not None:
        key = next(k for k in ("hai0", "hai1", "hai2", "hai3") if el.get(k))
        del el.attrib[key]
    return el


def m_init_score(root):
    inits = [e for e in root if e.tag == "INIT"]
    if len(inits) < 2:
        return None
    el = inits[1]
    _set_list(el, "ten", 0, _plus(10))
    return el


def m_owari(root):
    el = _first(root, lambda e: e.get("owari") is not None)
    if el is not None:
        _set_list(el, "owari", 1, lambda v: f"{float(v) + 1.0:.1f}")
    return el


def _next_kind(tile: str) -> str:
    """A tile of the next kind that exists in 3-player games too (no 2m-8m)."""
    t = (int(tile) + 4) % 136
    return str(32 + t % 4 if 4 <= t < 32 else t)


def m_dora_indicator(root):
    el = _first(root, lambda e: e.tag == "AGARI")
    if el is not None:
        _set_list(el, "doraHai", 0, _next_kind)
    return el


def m_riichi_deposit(root):
    el = _first(root, lambda e: e.tag == "REACH" and e.get("step") == "2" and e.get("ten"))
    if el is not None:
        who = int(el.get("who"))
        _set_list(el, "ten", who, _plus(10))
    return el


MUTATIONS: list[tuple[str, Mutation, str]] = [
    ("sc delta of the discarder", m_sc_delta_loser, "payment"),
    ("sc delta of the winner", m_sc_delta_winner, "payment"),
    ("ten points", m_ten_points, "hand_value"),
    ("ten fu", m_ten_fu, "hand_value"),
    ("one yaku's han", m_yaku_han, "hand_value"),
    ("a yaku id", m_yaku_id, "hand_value"),
    ("ba honba", m_ba_honba, "transition"),
    ("ba sticks", m_ba_sticks, "transition"),
    ("a shown tenpai hand removed at a draw", m_tenpai_hand_removed, "draw"),
    ("an INIT score", m_init_score, "transition"),
    ("an owari value", m_owari, "final"),
    ("a dora indicator", m_dora_indicator, "replay"),
    ("a riichi deposit", m_riichi_deposit, "payment"),
]


@pytest.fixture(scope="module")
def clean_logs(tmp_path_factory) -> list[Path]:
    """Logs that audit clean as they are (the baseline every mutation starts from)."""
    out = []
    for path in _candidate_logs():
        fa = audit_file(path, with_facts=False)
        if fa.status == "ok":
            out.append(path)
    if not out:
        pytest.skip("no clean log to mutate")
    return out


@pytest.mark.parametrize(("name", "mutate", "category"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_one_mutation_flags_exactly_that_hand(clean_logs, tmp_path, name, mutate, category):
    for path in clean_logs:
        root = _load(path)
        el = mutate(root)
        if el is None:
            continue
        hand = _hand_of(root, el)
        target = tmp_path / (path.name.removesuffix(".gz").removesuffix(".xml") + ".xml")
        target.write_bytes(etree.tostring(root))
        fa = audit_file(target, with_facts=False)
        assert fa.findings, f"{name}: no finding after mutating {path.name}"
        hands = {f["hand_index"] for f in fa.findings}
        assert hands == {hand}, f"{name}: flagged hands {hands}, changed hand {hand}: {fa.findings}"
        cats = {f["category"] for f in fa.findings}
        assert category in cats, f"{name}: categories {cats}, expected {category}: {fa.findings}"
        return
    pytest.skip(f"no clean log has an element for mutation {name!r}")
