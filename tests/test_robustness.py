"""Bad and hostile input (issue #8): one batch, many broken files, no surprises.

Every corruption below is written into one temporary folder next to untouched
good logs, and the whole folder goes through a single ``audit()`` call, because
that is how a user meets a broken download: in the middle of thousands of good
ones.  For each broken file the test states what the auditor must say about it
(status, the finding's category and field) and *where* (hand label and event
index, i.e. the position of the element among the root's children), and that
the rest of the file is still used when it can be.  The good files must come
out exactly as they do when audited alone, and every input file must have its
row in ``report.files``.

The real-log corruptions start from a Phoenix log of the shared corpus and are
skipped when the corpus is absent; the fixture corruptions always run.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from lxml import etree

from replay_audit.auditing.auditor import audit_file
from replay_audit.cli import EXIT_CLEAN, EXIT_ERROR, main
from replay_audit.model.errors import LogFormatError, NotALogError
from replay_audit.model.events import hand_label
from replay_audit.report.api import audit
from replay_audit.report.audit_report import AuditReport

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
BAD = FIXTURES / "bad"
CORPUS = ROOT.parent / "shared" / "corpus"
PHOENIX = CORPUS / "tenhou-xml" / "phoenix-2024"
BROKEN_SOURCE = PHOENIX / "2024041200gm-00a9-0000-1142b3d7.xml.gz"
"""The real log every XML corruption starts from (a clean 7-hand Phoenix game)."""
GOOD_REAL = [
    PHOENIX / "2024041200gm-00a9-0000-24e47e5a.xml.gz",
    PHOENIX / "2024041200gm-00a9-0000-391616da.xml.gz",
]
GOOD_FIXTURES = [
    FIXTURES / "replay" / "clean_ron.xml",
    FIXTURES / "json_4p_calls.json",
    FIXTURES / "json_3p_kita.json",
]
PASSWD = Path("/etc/passwd")


# ----------------------------------------------------------------- expectations


@dataclass(frozen=True, slots=True)
class Expect:
    """What the report must say about one broken file."""

    status: str
    """``files.status``: ``error`` (unreadable or a dropped hand) or ``mismatch``."""
    category: str
    """Category of the finding that names the damage."""
    field: str
    """Its ``Finding.field`` (the exception class for parse findings)."""
    hand: str | None = None
    """Hand label of the damage; None for document-level damage."""
    seq: int | None = None
    """Event index of the damage (root child index for XML)."""
    usable_after: int | None = None
    """When set: the audit kept going and has ``hands`` rows with ``seq`` greater
    than this (the hands after the damage were still audited)."""


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    suffix: str
    build: Callable[[], tuple[bytes, Expect]]
    needs_corpus: bool = False


def _real_xml() -> bytes:
    return gzip.decompress(BROKEN_SOURCE.read_bytes())


def _clean_xml() -> bytes:
    return (FIXTURES / "replay" / "clean_ron.xml").read_bytes()


def _json_doc() -> dict[str, Any]:
    return json.loads((FIXTURES / "json_4p_calls.json").read_text(encoding="utf-8"))


def _json_bytes(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


@dataclass(frozen=True, slots=True)
class _Spot:
    """One element of the document: its index among the root's children, the
    element itself (in a tree the caller may edit) and the label of its hand."""

    root: Any
    index: int
    el: Any
    hand: str


def _spot(data: bytes, hand_no: int, tag: str, n: int = 0) -> _Spot:
    """The ``n``-th element whose tag fully matches ``tag`` in the ``hand_no``-th
    hand (0-based, from its INIT up to the next INIT)."""
    root = etree.fromstring(data)
    kids = list(root)
    inits = [i for i, el in enumerate(kids) if el.tag == "INIT"]
    start = inits[hand_no]
    end = inits[hand_no + 1] if hand_no + 1 < len(inits) else len(kids)
    hits = [i for i in range(start, end) if re.fullmatch(tag, str(kids[i].tag))]
    seed = kids[start].get("seed").split(",")
    return _Spot(root, hits[n], kids[hits[n]], hand_label(int(seed[0]), int(seed[1])))


def _out(spot: _Spot) -> bytes:
    return etree.tostring(spot.root)


def _set_list(el: Any, attr: str, edit: Callable[[list[str]], list[str]]) -> None:
    el.set(attr, ",".join(edit(el.get(attr).split(","))))


# ------------------------------------------------------------ real-log damages


def _truncated(seed: int) -> Callable[[], tuple[bytes, Expect]]:
    def build() -> tuple[bytes, Expect]:
        data = _real_xml()
        cut = random.Random(seed).randrange(len(data) // 4, len(data) - 1)
        return data[:cut], Expect("error", "parse", "TruncatedLogError")

    return build


def _deleted(tag: str, n: int, category: str, field: str, hand_no: int = 1):
    def build() -> tuple[bytes, Expect]:
        s = _spot(_real_xml(), hand_no, tag, n)
        s.root.remove(s.el)
        # the next element moves up into the deleted one's index
        return _out(s), Expect("mismatch", category, field, s.hand, s.index, s.index)

    return build


def _deleted_init() -> tuple[bytes, Expect]:
    data = _real_xml()
    s = _spot(data, 2, "INIT")
    before = _spot(data, 1, "INIT")
    s.root.remove(s.el)
    # hand 2's moves run on inside hand 1 (the INIT that would start it is gone)
    return _out(s), Expect("mismatch", "replay", "draw_out_of_turn", before.hand, s.index)


def _duplicated(tag: str, expect: Callable[[_Spot], Expect], hand_no: int = 1):
    def build() -> tuple[bytes, Expect]:
        s = _spot(_real_xml(), hand_no, tag)
        s.el.addnext(etree.fromstring(etree.tostring(s.el)))
        return _out(s), expect(s)

    return build


def _swapped(tag: str, a: str, b: str, expect: Callable[[_Spot], Expect]):
    def build() -> tuple[bytes, Expect]:
        s = _spot(_real_xml(), 1, tag)
        va, vb = s.el.get(a), s.el.get(b)
        s.el.set(a, vb)
        s.el.set(b, va)
        return _out(s), expect(s)

    return build


def _edited(tag: str, edit: Callable[[Any], None], hand_no: int = 1, n: int = 0):
    """A value the parser must refuse: the hand is dropped (``parse``, status
    ``error``) and the later hands are still audited."""

    def build() -> tuple[bytes, Expect]:
        s = _spot(_real_xml(), hand_no, tag, n)
        edit(s.el)
        return _out(s), Expect(
            "error", "parse", "InvalidValueError", s.hand, s.index, usable_after=s.index
        )

    return build


def _deal_tile(value: str) -> Callable[[Any], None]:
    return lambda el: _set_list(el, "hai0", lambda h: [value, *h[1:]])


def _fifth_copy(el: Any) -> None:
    first = el.get("hai0").split(",")[0]
    _set_list(el, "hai1", lambda h: [first, *h[1:]])


def _retag(new: str) -> Callable[[Any], None]:
    def edit(el: Any) -> None:
        el.tag = new

    return edit


def _invalid_utf8() -> tuple[bytes, Expect]:
    data = _real_xml().replace(b"<UN ", b'<UN junk="\xff\xfe\xc3" ', 1)
    return data, Expect("error", "parse", "LogFormatError")


def _wrong_payment() -> tuple[bytes, Expect]:
    s = _spot(_real_xml(), 1, "AGARI")
    # move 1,000 points of the winner's gain to an uninvolved seat
    sc = [int(v) for v in s.el.get("sc").split(",")]
    winner = int(s.el.get("who"))
    loser = int(s.el.get("fromWho"))
    other = next(x for x in range(4) if x not in (winner, loser))
    sc[2 * winner + 1] -= 10
    sc[2 * other + 1] += 10
    s.el.set("sc", ",".join(map(str, sc)))
    return _out(s), Expect("mismatch", "payment", "delta", s.hand, s.index, s.index)


REAL_CASES = [
    *(Case(f"truncated_{seed}", ".xml", _truncated(seed), True) for seed in (1, 2, 3, 4)),
    Case("deleted_draw", ".xml", _deleted(r"[TUVW]\d+", 5, "replay", "discard_out_of_turn"), True),
    Case("deleted_discard", ".xml", _deleted(r"[DEFG]\d+", 5, "replay", "draw_out_of_turn"), True),
    Case("deleted_init", ".xml", _deleted_init, True),
    Case(
        "duplicated_discard",
        ".xml",
        _duplicated(
            r"[DEFG]\d+",
            lambda s: Expect(
                "mismatch", "replay", "discard_not_held", s.hand, s.index + 1, s.index + 1
            ),
        ),
        True,
    ),
    Case(
        "duplicated_draw",
        ".xml",
        _duplicated(
            r"[TUVW]\d+",
            lambda s: Expect("mismatch", "replay", "draw_out_of_turn", s.hand, s.index + 1),
        ),
        True,
    ),
    Case(
        "duplicated_init",
        ".xml",
        # the first copy starts a hand that has no result: it is dropped
        _duplicated(
            "INIT",
            lambda s: Expect(
                "error", "parse", "TruncatedLogError", s.hand, s.index, usable_after=s.index
            ),
        ),
        True,
    ),
    Case(
        "duplicated_agari",
        ".xml",
        # the second copy pays again: the score chain breaks right there
        _duplicated(
            "AGARI",
            lambda s: Expect("mismatch", "payment", "scores_before", s.hand, s.index + 1),
        ),
        True,
    ),
    Case(
        "swapped_who_fromwho",
        ".xml",
        _swapped(
            "AGARI",
            "who",
            "fromWho",
            lambda s: Expect("mismatch", "replay", "ron_no_discard", s.hand, s.index, s.index),
        ),
        True,
    ),
    Case(
        "swapped_hai0_hai1",
        ".xml",
        _swapped(
            "INIT",
            "hai0",
            "hai1",
            lambda s: Expect("mismatch", "replay", "wall", s.hand, s.index, s.index),
        ),
        True,
    ),
    Case(
        "swapped_ten_sc",
        ".xml",
        _swapped(
            "AGARI",
            "ten",
            "sc",
            lambda s: Expect(
                "error", "parse", "InvalidValueError", s.hand, s.index, usable_after=s.index
            ),
        ),
        True,
    ),
    Case("tile_136_drawn", ".xml", _edited(r"[TUVW]\d+", _retag("U136"), n=3), True),
    Case("tile_136_dealt", ".xml", _edited("INIT", _deal_tile("136")), True),
    Case("tile_minus1_dealt", ".xml", _edited("INIT", _deal_tile("-1")), True),
    Case("tile_x_dealt", ".xml", _edited("INIT", _deal_tile("x")), True),
    Case("seat4_agari", ".xml", _edited("AGARI", lambda el: el.set("who", "4")), True),
    Case("seat4_reach", ".xml", _edited("REACH", lambda el: el.set("who", "4"), hand_no=2), True),
    Case("fifth_copy_dealt", ".xml", _edited("INIT", _fifth_copy), True),
    Case(
        "twelve_tile_hand",
        ".xml",
        _edited("INIT", lambda el: _set_list(el, "hai2", lambda h: h[:12])),
        True,
    ),
    Case(
        "sc_seven_values",
        ".xml",
        _edited("AGARI", lambda el: _set_list(el, "sc", lambda v: v[:7])),
        True,
    ),
    Case(
        "ten_three_values",
        ".xml",
        _edited("INIT", lambda el: _set_list(el, "ten", lambda v: v[:3])),
        True,
    ),
    # the right number of values, the wrong amounts: a payment finding, not a parse error
    Case("sc_wrong_payment", ".xml", _wrong_payment, True),
    # a chi code whose base runs past 7-8-9 of the last suit: tiles of no suit
    Case("meld_impossible_code", ".xml", _edited("N", lambda el: el.set("m", "65535")), True),
    Case("meld_code_not_a_number", ".xml", _edited("N", lambda el: el.set("m", "x")), True),
    Case("invalid_utf8", ".xml", _invalid_utf8, True),
]


# ------------------------------------------------------------ fixture damages


def _const(data: bytes, expect: Expect) -> Callable[[], tuple[bytes, Expect]]:
    return lambda: (data, expect)


def _billion_laughs() -> bytes:
    ents = [b'<!ENTITY lol "lol">']
    for i in range(1, 10):
        prev = b"&lol;" if i == 1 else b"&lol%d;" % (i - 1)
        ents.append(b'<!ENTITY lol%d "%s">' % (i, prev * 10))
    return (
        b'<?xml version="1.0"?>\n<!DOCTYPE lolz [' + b"".join(ents) + b"]>\n"
        b'<mjloggm ver="2.3"><GO type="169" lobby="&lol9;"/></mjloggm>'
    )


def _xxe() -> bytes:
    head = b'<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
    return head + _clean_xml().replace(b'n0="A"', b'n0="&xxe;"')


def _gzip_bomb() -> bytes:
    """About 80 KB of gzip that inflates to 80 MiB of zeros (the cap is 64 MiB)."""
    co = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    return b"".join(co.compress(block) for _ in range(80)) + co.flush()


def _json_edit(edit: Callable[[dict[str, Any]], None], expect: Expect):
    def build() -> tuple[bytes, Expect]:
        doc = _json_doc()
        edit(doc)
        return _json_bytes(doc), expect

    return build


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


# JSON has no event index; the hand label is its place.  The second hand (E2-0)
# must still be audited after the first is dropped.
_JSON_HAND = Expect("error", "parse", "InvalidValueError", "E1-0", usable_after=-1)

FIXTURE_CASES = [
    Case(
        "html_error_page",
        ".mjlog",
        _const(
            b"<!DOCTYPE html>\n<html><head><title>503 Service Unavailable</title></head>"
            b"<body><h1>Service Temporarily Unavailable</h1></body></html>\n",
            Expect("error", "parse", "NotALogError"),
        ),
    ),
    Case("empty", ".xml", _const(b"", Expect("error", "parse", "NotALogError"))),
    Case(
        "binary",
        ".mjlog",
        _const(
            bytes(random.Random(8).randrange(256) for _ in range(4096)),
            Expect("error", "parse", "NotALogError"),
        ),
    ),
    Case(
        "billion_laughs",
        ".xml",
        _const(_billion_laughs(), Expect("error", "parse", "LogFormatError")),
    ),
    Case("xxe_etc_passwd", ".xml", _const(_xxe(), Expect("error", "parse", "LogFormatError"))),
    Case(
        "gzip_bomb",
        ".xml.gz",
        lambda: (_gzip_bomb(), Expect("error", "parse", "LimitExceededError")),
    ),
    Case(
        "clean_truncated",
        ".xml",
        lambda: (_clean_xml()[:400], Expect("error", "parse", "TruncatedLogError")),
    ),
    Case(
        "json_deeply_nested",
        ".json",
        _const(
            b'{"log":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            Expect("error", "parse", "LimitExceededError"),
        ),
    ),
    Case(
        "json_truncated",
        ".json",
        lambda: (_json_bytes(_json_doc())[:500], Expect("error", "parse", "TruncatedLogError")),
    ),
    Case(
        "json_log_entry_16_long",
        ".json",
        _json_edit(lambda d: d["log"].__setitem__(0, d["log"][0][:16]), _JSON_HAND),
    ),
    Case(
        "json_unknown_result",
        ".json",
        _json_edit(_set(("log", 0, 16, 0), "謎の結果"), _JSON_HAND),
    ),
    Case("json_bad_tile_code", ".json", _json_edit(_set(("log", 0, 4, 0), 99), _JSON_HAND)),
    Case(
        "json_chi_wrong_suit",
        ".json",
        # 9m with 1p-2p: the call names tiles of two suits
        _json_edit(_set(("log", 0, 12, 0), "c192122"), _JSON_HAND),
    ),
]


def _clean_edit(old: bytes, new: bytes, expect: Expect) -> Callable[[], tuple[bytes, Expect]]:
    """A byte-level edit of the clean fixture (``old`` must occur in it)."""

    def build() -> tuple[bytes, Expect]:
        data = _clean_xml()
        assert old in data, old
        return data.replace(old, new, 1), expect

    return build


# clean_ron.xml (South 1, the last hand of a game): GO(0) UN(1) TAIKYOKU(2) INIT(3) T2(4)
# D2(5) AGARI(6)
_CLEAN_AGARI = b'who="1" fromWho="0"'
FIXTURE_CASES += [
    Case(
        "attribute_70000_long",
        ".xml",
        _clean_edit(
            b'lobby="0"',
            b'lobby="' + b"9" * 70_000 + b'"',
            Expect("error", "parse", "LimitExceededError", seq=0),
        ),
    ),
    Case(
        "too_many_elements",
        ".xml",
        _clean_edit(
            b"<T2/><D2/>",
            b"<T2/><D2/>" * 100_001,
            Expect("error", "parse", "LimitExceededError"),
        ),
    ),
    Case(
        "deeply_nested_xml",
        ".xml",
        _const(
            b'<mjloggm ver="2.3">' + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</mjloggm>",
            Expect("error", "parse", "LogFormatError"),
        ),
    ),
    Case(
        "gzip_cut_short",
        ".xml.gz",
        lambda: (gzip.compress(_clean_xml())[:-20], Expect("error", "parse", "TruncatedLogError")),
    ),
    Case(
        "two_logs_in_one_gzip",
        ".xml.gz",
        lambda: (
            gzip.compress(_clean_xml()) + gzip.compress(_clean_xml()),
            Expect("error", "parse", "LogFormatError"),
        ),
    ),
    Case(
        "processing_instruction_in_hand",
        ".xml",
        _clean_edit(
            b"<T2/>",
            b"<?pi x?><T2/>",
            Expect("error", "parse", "LogFormatError", "S1-0", 4),
        ),
    ),
    Case(
        "cdata_text",
        ".xml",
        _clean_edit(b"<T2/>", b"<T2/><![CDATA[x]]>", Expect("error", "parse", "LogFormatError")),
    ),
    Case(
        "nul_in_attribute",
        ".xml",
        _clean_edit(b'n0="A"', b'n0="A\x00"', Expect("error", "parse", "LogFormatError")),
    ),
    Case(
        "utf16_document",
        ".xml",
        lambda: (
            _clean_xml().decode("utf-8").encode("utf-16"),
            Expect("error", "parse", "NotALogError"),
        ),
    ),
    Case(
        "seat_beyond_int64",
        ".xml",
        _clean_edit(
            _CLEAN_AGARI,
            b'who="99999999999999999999999" fromWho="0"',
            Expect("error", "parse", "InvalidValueError", "S1-0", 6),
        ),
    ),
    Case(
        "dealer_seat_9_before_first_hand",
        ".xml",
        _clean_edit(
            b'<TAIKYOKU oya="0"/>',
            b'<TAIKYOKU oya="9"/>',
            Expect("error", "parse", "InvalidValueError", seq=2),
        ),
    ),
    Case(
        "go_type_not_a_number",
        ".xml",
        _clean_edit(
            b'type="169"', b'type="x"', Expect("error", "parse", "InvalidValueError", seq=0)
        ),
    ),
    Case(
        "json_top_level_array",
        ".json",
        _const(b"[1,2,3]", Expect("error", "parse", "NotALogError")),
    ),
]

CASES = REAL_CASES + FIXTURE_CASES


def _expected_place(row: pd.Series, expect: Expect) -> bool:
    """The finding names the damage's hand and event index.  A hand label may
    live in the ``hand`` column or, for a dropped hand (no HandLog exists), in
    the message the error wrote (``..., hand E2-0, event 112: ...``)."""
    if expect.hand is not None:
        in_column = row["hand"] == expect.hand
        in_message = f"hand {expect.hand}" in str(row["message"])
        if not (in_column or in_message):
            return False
    if expect.seq is not None:
        return not pd.isna(row["seq"]) and int(row["seq"]) == expect.seq
    return True


# ------------------------------------------------------------------- the batch


@dataclass(frozen=True, slots=True)
class Batch:
    folder: Path
    report: AuditReport
    broken: dict[str, tuple[Path, Expect]]
    good: list[Path]
    missing: Path


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    """All broken files and the good ones in one folder, audited in one call."""
    folder = tmp_path_factory.mktemp("bad_batch")
    have_corpus = BROKEN_SOURCE.is_file()
    broken: dict[str, tuple[Path, Expect]] = {}
    for case in CASES:
        if case.needs_corpus and not have_corpus:
            continue
        data, expect = case.build()
        path = folder / f"{case.name}{case.suffix}"
        path.write_bytes(data)
        broken[case.name] = (path, expect)
    good: list[Path] = []
    for src in GOOD_FIXTURES + (GOOD_REAL if have_corpus else []):
        dst = folder / f"good_{src.name}"
        dst.write_bytes(src.read_bytes())
        good.append(dst)
    missing = folder / "gone" / "missing.xml"
    report = audit([folder, missing])
    return Batch(folder, report, broken, good, missing)


def _findings(b: Batch, path: Path) -> pd.DataFrame:
    f = b.report.findings
    return f[f["file"] == str(path)]


def test_cases_are_many_and_distinct() -> None:
    names = [c.name for c in CASES]
    assert len(set(names)) == len(names) >= 50


def test_every_input_file_has_exactly_one_row(batch: Batch) -> None:
    files = batch.report.files
    expected = {str(p) for p, _ in batch.broken.values()} | {str(p) for p in batch.good}
    expected.add(str(batch.missing))
    assert sorted(files["file"]) == sorted(expected)
    assert files["file"].is_unique


def test_missing_file_is_an_error_row(batch: Batch) -> None:
    row = batch.report.files.set_index("file").loc[str(batch.missing)]
    assert row["status"] == "error"
    assert "missing.xml" in row["error"]
    assert (_findings(batch, batch.missing)["category"] == "parse").all()


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_broken_file_category_and_place(batch: Batch, name: str) -> None:
    if name not in batch.broken:
        pytest.skip("needs the corpus")
    path, expect = batch.broken[name]
    row = batch.report.files.set_index("file").loc[str(path)]
    assert row["status"] == expect.status, row["error"]
    found = _findings(batch, path)
    assert not found.empty
    named = found[(found["category"] == expect.category) & (found["field"] == expect.field)]
    assert not named.empty, found[["category", "field", "hand", "seq", "message"]].to_string()
    placed = named[named.apply(_expected_place, axis=1, expect=expect)]
    assert not placed.empty, named[["hand", "seq", "message"]].to_string()
    if expect.usable_after is not None:
        hands = batch.report.hands
        later = hands[(hands["file"] == str(path)) & (hands["seq"] > expect.usable_after)]
        assert not later.empty, "the hands after the damage were not audited"
    if row["status"] == "error" and int(row["games"]) == 0:
        # nothing could be read: the error column says why and names the file
        assert str(path) in row["error"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_truncation_keeps_every_complete_hand(batch: Batch, seed: int) -> None:
    """A cut download is audited up to the last complete hand, which audits
    clean (the source is a clean real log); only the cut itself is reported."""
    name = f"truncated_{seed}"
    if name not in batch.broken:
        pytest.skip("needs the corpus")
    path, _ = batch.broken[name]
    data = path.read_bytes()
    # results whose element is complete before the cut, in hands that are complete
    root = etree.fromstring(_real_xml())
    complete = 0
    offset = len(b'<mjloggm ver="2.3">')
    pending = 0
    for el in root:
        offset += len(etree.tostring(el))
        if el.tag == "INIT":
            pending = 0
        if el.tag in ("AGARI", "RYUUKYOKU"):
            pending += 1
            nxt = el.getnext()
            if nxt is None or nxt.tag not in ("AGARI", "RYUUKYOKU"):
                if offset <= len(data):
                    complete += pending
                pending = 0
    assert _real_xml()[: len(data)] == data
    hands = batch.report.hands[batch.report.hands["file"] == str(path)]
    assert len(hands) == complete
    found = _findings(batch, path)
    assert list(found["field"]) == ["TruncatedLogError"]
    assert "column" in found.iloc[0]["message"]  # the cut's position in the document


def test_good_files_audit_as_they_do_alone(batch: Batch) -> None:
    r = batch.report
    for path in batch.good:
        alone = audit_file(path)
        row = r.files.set_index("file").loc[str(path)]
        assert row["status"] == alone.status
        assert int(row["findings"]) == alone.file_row()["findings"]
        assert int(row["notes"]) == alone.file_row()["notes"]
        mine = _findings(batch, path)
        key = ["category", "field", "hand", "seq", "seat"]
        batch_keys = sorted(_norm(t) for t in mine[key].itertuples(index=False))
        alone_keys = sorted(_norm(tuple(f[k] for k in key)) for f in alone.findings)
        assert batch_keys == alone_keys
        assert len(r.hands[r.hands["file"] == str(path)]) == len(alone.hands)


def _norm(values: tuple[Any, ...]) -> tuple[str, ...]:
    """A finding key comparable across a DataFrame (NaN, 16.0) and a row (None, 16)."""
    out = []
    for v in values:
        if v is None or pd.isna(v):
            out.append("-")
        elif isinstance(v, float) and v.is_integer():
            out.append(str(int(v)))
        else:
            out.append(str(v))
    return tuple(out)


def test_good_real_logs_are_clean(batch: Batch) -> None:
    real = [p for p in batch.good if p.name.startswith("good_2024")]
    if not real:
        pytest.skip("needs the corpus")
    files = batch.report.files.set_index("file")
    for p in real:
        assert files.loc[str(p), "status"] == "ok"
        assert int(files.loc[str(p), "hands"]) > 0


@dataclass(frozen=True, slots=True)
class Written:
    base: Path
    out: Path
    files: list[Path]
    created: set[Path]


@pytest.fixture(scope="module")
def written(batch: Batch, tmp_path_factory: pytest.TempPathFactory) -> Written:
    """The batch report written once in every format, into a folder that does
    not exist yet, with a record of every path the writer created."""
    base = tmp_path_factory.mktemp("written")
    before = set(base.rglob("*"))
    out = base / "deep" / "er" / "report"
    files = batch.report.write(out, ("csv", "json", "html", "parquet"))
    return Written(base, out, files, set(base.rglob("*")) - before)


def test_hostile_xml_is_never_expanded(batch: Batch, written: Written) -> None:
    """Neither entity is resolved: no /etc/passwd line and no 'lollol' reaches
    any table or any written report."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in written.files if p.suffix != ".parquet")
    frames = "\n".join(df.to_csv() for df in batch.report.tables().values())
    secret = [ln for ln in PASSWD.read_text().splitlines() if ln.strip()] if PASSWD.exists() else []
    for blob in (text, frames):
        assert "lollol" not in blob
        for line in secret:
            assert line not in blob
        assert "root:x:0:0" not in blob


def test_parse_findings_name_their_file(batch: Batch) -> None:
    f = batch.report.findings
    assert f["file"].notna().all()
    assert set(f["file"]) <= set(batch.report.files["file"])


def test_dropped_hand_label_is_in_the_hand_column(batch: Batch) -> None:
    for name in ("json_unknown_result", "json_bad_tile_code"):
        path, expect = batch.broken[name]
        found = _findings(batch, path)
        parse = found[found["category"] == "parse"]
        assert (parse["hand"] == expect.hand).all()


# ---------------------------------------------------------------- strict mode


def _small_batch(tmp_path: Path, with_bad: bool) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    src = GOOD_REAL[0] if GOOD_REAL[0].is_file() else None
    if src is not None:
        (folder / "a_good.xml.gz").write_bytes(src.read_bytes())
    if with_bad:
        (folder / "b_empty.xml").write_bytes(b"")
        (folder / "c_html.mjlog").write_bytes(b"<html><body>404</body></html>")
    return folder


def test_strict_raises_on_the_first_error(tmp_path: Path) -> None:
    folder = _small_batch(tmp_path, with_bad=True)
    with pytest.raises(NotALogError):
        audit(folder, strict=True)
    # lenient: the same batch reports both bad files and goes on
    report = audit(folder)
    assert (report.files["status"] == "error").sum() == 2
    assert len(report.files) == len(list(folder.iterdir()))


def test_strict_error_names_its_file(tmp_path: Path) -> None:
    folder = _small_batch(tmp_path, with_bad=True)
    with pytest.raises(NotALogError) as info:
        audit(folder, strict=True)
    assert info.value.source is not None and "b_empty.xml" in str(info.value)


def test_strict_raises_on_a_dropped_hand(tmp_path: Path) -> None:
    if not BROKEN_SOURCE.is_file():
        pytest.skip("needs the corpus")
    data, _ = _edited("INIT", _deal_tile("136"))()
    p = tmp_path / "bad.xml"
    p.write_bytes(data)
    with pytest.raises(LogFormatError) as info:
        audit_file(p, strict=True)
    assert info.value.hand is not None and info.value.index is not None


@pytest.mark.corpus
def test_strict_clean_batch_does_not_raise(tmp_path: Path, corpus: Path) -> None:
    if not GOOD_REAL[0].is_file():
        pytest.skip("the clean Phoenix log is absent")
    folder = _small_batch(tmp_path, with_bad=False)
    assert audit(folder, strict=True).files["status"].tolist() == ["ok"]


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _small_batch(tmp_path, with_bad=True)
    out = tmp_path / "out"
    args = ["audit", str(bad), "--out", str(out), "-j", "1", "-q"]
    assert main(args) == EXIT_ERROR
    assert (out / "files.csv").is_file()
    files = pd.read_csv(out / "files.csv")
    assert len(files) == len(list(bad.iterdir()))
    strict_out = tmp_path / "strict_out"
    assert main([*args[:3], str(strict_out), "-j", "1", "-q", "--strict"]) == EXIT_ERROR
    assert "replay-audit: error:" in capsys.readouterr().err
    if GOOD_REAL[0].is_file():
        clean = tmp_path / "clean"
        clean.mkdir()
        (clean / "g.xml.gz").write_bytes(GOOD_REAL[0].read_bytes())
        assert main(["audit", str(clean), "--out", str(tmp_path / "o3"), "-j", "1", "-q"]) == (
            EXIT_CLEAN
        )


def test_write_stays_inside_out(written: Written) -> None:
    """The report folder is created (with parents) and nothing is written
    outside it, whatever the input file names were."""
    out = written.out
    assert {p.suffix for p in written.files} >= {".csv", ".json", ".html", ".parquet"}
    assert all(out in p.parents for p in written.files)
    assert all(p == out or out in p.parents or p in out.parents for p in written.created)
    for p in written.files:
        assert p.resolve().is_relative_to(out.resolve())


def test_non_utf8_file_name_does_not_stop_the_batch(tmp_path: Path) -> None:
    """A file whose name is not UTF-8 (possible on Linux) is still one row."""
    folder = tmp_path / "names"
    folder.mkdir()
    good = folder / "good.xml"
    good.write_bytes(_clean_xml())
    odd = os.path.join(os.fsencode(folder), b"odd\xffname.xml")
    with open(odd, "wb") as fh:
        fh.write(_clean_xml())
    report = audit(folder)
    assert len(report.files) == 2
    report.write(tmp_path / "out", ("csv", "json"))


# ------------------------------------------------------ the stored bad fixtures


def _expected_bad() -> dict[str, dict[str, str]]:
    lines = (BAD / "expected.tsv").read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    return {r[0]: dict(zip(head, r, strict=True)) for r in (ln.split("\t") for ln in lines[1:])}


def test_stored_bad_fixtures(tmp_path: Path) -> None:
    """``replay-audit audit fixtures/bad``: every file a row, each as expected.tsv says."""
    expected = _expected_bad()
    report = audit(BAD)
    files = report.files.set_index("file")
    assert sorted(Path(f).name for f in files.index) == sorted(expected)
    for name, exp in expected.items():
        path = str(BAD / name)
        assert files.loc[path, "status"] == exp["status"], name
        found = _findings_of(report, path)
        named = found[(found["category"] == "parse") & (found["field"] == exp["field"])]
        want = Expect(
            exp["status"],
            "parse",
            exp["field"],
            exp["hand"] or None,
            int(exp["event"]) if exp["event"] else None,
        )
        assert named.apply(_expected_place, axis=1, expect=want).any(), (name, found)
    assert main(["audit", str(BAD), "--out", str(tmp_path / "o"), "-j", "1", "-q"]) == EXIT_ERROR


def _findings_of(report: AuditReport, path: str) -> pd.DataFrame:
    f = report.findings
    return f[f["file"] == path]


# ------------------------------------------------------- crashes found by fuzzing


def _huge_json_int() -> bytes:
    """A start score with 5,000 digits: over Python's 4,300-digit int limit,
    ``json.loads`` raises a plain ValueError, not a JSONDecodeError."""
    doc = (FIXTURES / "json_4p_calls.json").read_bytes()
    start = b"[25000,25000,25000,25000]"
    assert start in doc
    return doc.replace(start, b"[" + b"9" * 5000 + b",25000,25000,25000]", 1)


def _huge_xml_score() -> bytes:
    """A start score of 4,299 digits parses as an int, but in points (x100) it
    has 4,301 and can no longer be printed."""
    data = _clean_xml()
    assert b'ten="10,350,340,300"' in data
    return data.replace(b'ten="10,350,340,300"', b'ten="' + b"9" * 4299 + b',350,340,300"')


def _one_file_batch(tmp_path: Path, name: str, data: bytes) -> AuditReport:
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / name).write_bytes(data)
    (folder / "good.xml").write_bytes(_clean_xml())
    report = audit(folder)
    assert len(report.files) == 2
    return report


def test_json_integer_over_the_digit_limit(tmp_path: Path) -> None:
    report = _one_file_batch(tmp_path, "huge.json", _huge_json_int())
    row = report.files.set_index("file").loc[str(tmp_path / "one" / "huge.json")]
    assert row["status"] == "error" and row["games"] == 0


def test_xml_score_over_the_digit_limit(tmp_path: Path) -> None:
    report = _one_file_batch(tmp_path, "huge.xml", _huge_xml_score())
    row = report.files.set_index("file").loc[str(tmp_path / "one" / "huge.xml")]
    assert row["status"] == "error"


def test_dangling_symlink_gets_a_row(tmp_path: Path) -> None:
    """A folder walk keeps a broken link named like a log: the user sees it was
    there and could not be read, instead of it silently vanishing."""
    folder = tmp_path / "links"
    folder.mkdir()
    (folder / "good.xml").write_bytes(_clean_xml())
    (folder / "gone.xml").symlink_to(tmp_path / "nowhere.xml")
    (folder / "loop").symlink_to(folder)
    report = audit(folder)
    files = report.files.set_index("file")
    assert sorted(files.index) == [str(folder / "gone.xml"), str(folder / "good.xml")]
    assert files.loc[str(folder / "gone.xml"), "status"] == "error"
    assert "gone.xml" in files.loc[str(folder / "gone.xml"), "error"]


def _lobby_json_2_70() -> bytes:
    doc = _json_doc()
    doc["lobby"] = 2**70
    return _json_bytes(doc)


@pytest.mark.parametrize(
    ("name", "build"),
    [
        ("lobby.xml", lambda: _clean_xml().replace(b'lobby="0"', b'lobby="' + b"9" * 20 + b'"')),
        ("fu.xml", lambda: _clean_xml().replace(b'ten="30,', b'ten="' + b"9" * 20 + b",")),
        ("lobby.json", _lobby_json_2_70),
    ],
)
def test_integer_beyond_64_bits(tmp_path: Path, name: str, build: Callable[[], bytes]) -> None:
    data = build()
    assert b"9" * 20 in data or b"1180591620717411303424" in data
    _one_file_batch(tmp_path, name, data)


def test_html_report_escapes_hostile_names(tmp_path: Path) -> None:
    """Markup in a file name or a player name reaches the HTML page as text."""
    folder = tmp_path / "xss"
    folder.mkdir()
    (folder / "<img src=x onerror=alert(1)>.xml").write_bytes(b"")
    name = b"%3Cscript%3Ealert(1)%3C%2Fscript%3E"
    (folder / "name.xml").write_bytes(_clean_xml().replace(b'n0="A"', b'n0="' + name + b'"'))
    report = audit(folder)
    assert "<script>alert(1)</script>" in set(report.games["name0"])
    page = report.write_html(tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<img src=x" not in page and "<script>alert" not in page
    assert "&lt;img src=x" in page and "&lt;script&gt;alert" in page


def test_cli_out_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--out`` naming an existing file is a usage error (exit 2, a message, no
    traceback), and the file is left alone."""
    blocker = tmp_path / "taken"
    blocker.write_text("keep me", encoding="utf-8")
    log = FIXTURES / "replay" / "clean_ron.xml"
    for out in (blocker, blocker / "sub"):
        assert main(["audit", str(log), "--out", str(out), "-j", "1", "-q"]) == EXIT_ERROR
        assert "taken" in capsys.readouterr().err
    assert blocker.read_text(encoding="utf-8") == "keep me"
