"""Random edits of real logs, for the differential test (``test_differential_fuzz.py``)
and longer campaigns run by hand.

``test_fuzz.py`` breaks logs the ways downloads break them (bytes, elements, values
of the wrong type) and asks the batch to survive.  The differential test needs more
than that: edits that keep a log well-formed but make it *wrong* (a discard the hand
does not hold, a meld code of another meld, a recorded score one point off), since
those are what reach the compiled core's rooms, which must then decline to the
Python reference or find the same.  Both kinds are here, driven by a seeded
``random.Random`` so that a failure is reproduced by its seed alone.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any

from lxml import etree

MOVE = re.compile(r"^[D-GT-W]\d+$")
"""A draw (``T``..``W``) or discard (``D``..``G``) element's tag."""
TILE_LISTS = ("hai", "machi", "doraHai", "doraHaiUra", "hai0", "hai1", "hai2", "hai3")
"""Attributes that hold tile ids (0-135)."""
ODD_VALUES = ("", "x", "-1", "1,2", "0,0,0,0,0,0,0,0", "3.5", "nan", "9" * 30, "136")
"""Values of the wrong shape, the ``test_fuzz.py`` kind."""


def other_tile(rng: random.Random, tile: int) -> int:
    """Another tile id: the same kind (another copy, perhaps a red five) or any."""
    if rng.random() < 0.5:
        return (tile // 4) * 4 + rng.choice([c for c in range(4) if c != tile % 4])
    return rng.randrange(136)


def _edit_number(rng: random.Random, text: str, tiles: bool) -> str:
    """One number of a value edited: a tile to another tile, a count by a little."""
    try:
        value = int(text)
    except ValueError:
        return rng.choice(ODD_VALUES)
    if tiles and 0 <= value < 136 and rng.random() < 0.8:
        return str(other_tile(rng, value))
    return str(value + rng.choice([-100, -10, -8, -2, -1, 1, 2, 4, 8, 10, 100]))


def _edit_list(rng: random.Random, el: etree._Element, name: str) -> None:
    """One entry of a comma list set otherwise, dropped or repeated."""
    parts = (el.get(name) or "").split(",")
    j = rng.randrange(len(parts))
    how = rng.choices(["set", "drop", "repeat", "odd"], [20, 1, 1, 1])[0]
    if how == "set":
        parts[j] = _edit_number(rng, parts[j], name in TILE_LISTS)
    elif how == "drop":
        del parts[j]
    elif how == "repeat":
        parts.insert(j, parts[j])
    else:
        parts[j] = rng.choice(ODD_VALUES)
    el.set(name, ",".join(parts))


# ----------------------------------------------------------------- mjlog XML


def _move_tile(rng: random.Random, el: etree._Element) -> None:
    el.tag = el.tag[0] + str(other_tile(rng, int(el.tag[1:])))


def _swap_moves(rng: random.Random, root: etree._Element, el: etree._Element) -> None:
    """``el`` and a move one to three places later change places."""
    kids = list(root)
    i = kids.index(el)
    j = min(len(kids) - 1, i + rng.randint(1, 3))
    if j == i:
        return
    a, b = kids[i], kids[j]
    root.remove(b)
    root.insert(i, b)
    root.remove(a)
    root.insert(j, a)


def swap_tile_ids(root: etree._Element, a: int, b: int) -> None:
    """Tile ids ``a`` and ``b`` exchanged everywhere (deal, moves, melds' codes
    aside, results): the moves stay legal, but the wall, the hands shown and what
    they are worth are now another game's."""

    def swap(v: str) -> str:
        return str(b) if v == str(a) else str(a) if v == str(b) else v

    for el in root:
        if MOVE.match(el.tag):
            el.tag = el.tag[0] + swap(el.tag[1:])
        for name in TILE_LISTS:
            if el.get(name) is not None and not (el.tag == "DORA" and name != "hai"):
                el.set(name, ",".join(swap(v) for v in el.get(name).split(",")))


ODD_NAMES = ("", "%ZZ", "%E3%81", "%00", "a,b", '"q"', "%E3%81%82%E3%81%82", "NoName", "%20")
"""Player names as ``UN`` writes them (percent-encoded UTF-8), some broken."""


def _edit_meta(rng: random.Random, el: etree._Element) -> None:
    """A ``UN``, ``SHUFFLE``, ``TAIKYOKU`` or ``BYE`` element edited: a name, a dan,
    a rate or a sex, a character of the seed, a seat."""
    if el.tag == "SHUFFLE" and el.get("seed"):
        seed = el.get("seed")
        i = rng.randrange(len(seed))
        how = rng.choice(["char", "char", "cut", "prefix"])
        if how == "char":
            seed = seed[:i] + rng.choice("AZaz09+/=,-x") + seed[i + 1 :]
        elif how == "cut":
            seed = seed[:i]
        else:
            seed = seed.replace("n288", rng.choice(["n287", "n289", "n0"]), 1)
        el.set("seed", seed)
    elif el.tag == "UN":
        name = rng.choice(["n0", "n1", "n2", "n3", "dan", "rate", "sx"])
        if name.startswith("n"):
            el.set(name, rng.choice([*ODD_NAMES, el.get("n0", "")]))
        elif el.get(name) is not None:
            parts = el.get(name).split(",")
            j = rng.randrange(len(parts))
            parts[j] = rng.choice(
                {
                    "dan": ["-1", "0", "20", "21", "99", "x"],
                    "rate": ["nan", "1e400", "-5", "2150.005", "0", "inf"],
                    "sx": ["X", "", "C", "m"],
                }[name]
            )
            el.set(name, ",".join(parts))
    elif el.get("who") is not None or el.get("oya") is not None:
        name = "who" if el.get("who") is not None else "oya"
        el.set(name, str(rng.randrange(-1, 5)))


def _tsumogiri(rng: random.Random, moves: list[etree._Element]) -> bool:
    """A discard made the tile just drawn instead (or the other way round): the
    moves stay legal, but the hand kept, and what it shows at the end, change."""
    pairs = [
        (a, b)
        for a, b in itertools.pairwise(moves)
        if a.tag[0] in "TUVW"
        and b.tag[0] == "DEFG"["TUVW".index(a.tag[0])]
        and a.tag[1:] != b.tag[1:]
    ]
    if not pairs:
        return False
    draw, discard = rng.choice(pairs)
    discard.tag = discard.tag[0] + draw.tag[1:]
    return True


def _whole_hand(rng: random.Random, root: etree._Element) -> bool:
    """A whole hand (its INIT to the next) deleted, repeated or moved after the
    next: a game whose hands are each legal but do not follow one another."""
    kids = list(root)
    starts = [i for i, e in enumerate(kids) if e.tag == "INIT"]
    if len(starts) < 2:
        return False
    k = rng.randrange(len(starts) - 1)
    hand = kids[starts[k] : starts[k + 1]]
    how = rng.choice(["delete", "repeat", "later"])
    if how == "delete":
        for e in hand:
            root.remove(e)
    elif how == "repeat":
        anchor = hand[-1]
        for e in hand:
            copy = etree.fromstring(etree.tostring(e))
            copy.tail = None
            anchor.addnext(copy)
            anchor = copy
    else:
        end = starts[k + 2] if k + 2 < len(starts) else len(kids)
        anchor = kids[end - 1]
        if anchor.tag in ("AGARI", "RYUUKYOKU") and anchor.get("owari"):
            return False
        for e in hand:
            root.remove(e)
            anchor.addnext(e)
            anchor = e
    return True


XML_EDITS = (
    "tile",
    "tile",
    "swap",
    "ids",
    "ids",
    "GO",
    "meta",
    "tsumogiri",
    "hands",
    "N",
    "REACH",
    "AGARI",
    "INIT",
    "RYUUKYOKU",
    "DORA",
)
"""The semantic edits of an mjlog, equally likely."""
RECORDED_XML_EDITS = (
    *("AGARI", "AGARI", "AGARI", "RYUUKYOKU", "RYUUKYOKU", "INIT", "ids", "GO", "meta"),
    *("tsumogiri", "hands"),
)
"""The edits that leave the moves playable, mostly of recorded values: a game in
which nothing else is found is the one the core audits itself, so a room of the
core that misses the one wrong value shows only there."""


def _semantic_xml(
    rng: random.Random, root: etree._Element, kinds: tuple[str, ...] = XML_EDITS
) -> bool:
    """One well-formed but wrong edit of a move or a recorded value; False where
    the document has nothing of the kind drawn."""
    kids = list(root)
    moves = [e for e in kids if MOVE.match(e.tag)]
    what = rng.choice(kinds)
    if what == "ids":
        a = rng.randrange(136)
        swap_tile_ids(root, a, other_tile(rng, a))
        return True
    if what == "tsumogiri":
        return _tsumogiri(rng, moves)
    if what == "hands":
        return _whole_hand(rng, root)
    if what == "meta":
        meta = [e for e in kids if e.tag in ("UN", "SHUFFLE", "TAIKYOKU", "BYE")]
        if rng.random() < 0.15:  # a player leaves (or comes back) between two moves
            at = rng.choice(moves or kids)
            at.addnext(etree.Element(rng.choice(["BYE", "UN"]), who=str(rng.randrange(4))))
            return True
        if meta:
            _edit_meta(rng, rng.choice(meta))
            return True
        return False
    if what == "GO" and root.find("GO") is not None:
        go = root.find("GO")
        if rng.random() < 0.8:
            go.set("type", str(int(go.get("type", "0") or 0) ^ (1 << rng.randrange(12))))
        else:
            go.set("lobby", str(rng.choice([0, 1, 1234, 2000])))
        return True
    if what in ("tile", "swap") and moves:
        el = rng.choice(moves)
        _move_tile(rng, el) if what == "tile" else _swap_moves(rng, root, el)
        return True
    pool = [e for e in kids if e.tag == what]
    if not pool:
        return False
    el = rng.choice(pool)
    if what == "N":
        if rng.random() < 0.3:
            el.set("who", str((int(el.get("who", "0")) + rng.randint(1, 3)) % 4))
        else:
            m = int(el.get("m", "0"))
            el.set(
                "m",
                str(m ^ (1 << rng.randrange(16)) if rng.random() < 0.8 else rng.randrange(1 << 16)),
            )
        return True
    if what == "REACH":
        name = rng.choice(["who", "who", "step", "ten"] if el.get("ten") else ["who", "step"])
        if name == "ten":
            _edit_list(rng, el, name)
        else:
            el.set(
                name, str(rng.randrange(4) if name == "who" else 3 - int(el.get(name) == "2") - 1)
            )
        return True
    names = {
        "AGARI": [
            "hai",
            "m",
            "machi",
            "ten",
            "yaku",
            "yakuman",
            "sc",
            "doraHai",
            "doraHaiUra",
            "ba",
            "who",
            "fromWho",
            "paoWho",
            "owari",
        ],
        "INIT": ["seed", "ten", "hai0", "hai1", "hai2", "hai3", "oya"],
        "RYUUKYOKU": ["hai0", "hai1", "hai2", "hai3", "sc", "type", "ba", "owari"],
        "DORA": ["hai"],
    }[what]
    name = rng.choice(names)
    if name == "type" and rng.random() < 0.5:
        el.set(name, rng.choice(["yao9", "reach4", "ron3", "kan4", "kaze4", "nm", ""]))
    elif el.get(name) is None:
        el.set(
            name, str(rng.randrange(136)) if name in TILE_LISTS else rng.choice(["0", "1", "2,1"])
        )
    elif name == "m":
        parts = el.get(name).split(",")
        j = rng.randrange(len(parts))
        parts[j] = str(int(parts[j]) ^ (1 << rng.randrange(16))) if parts[j].isdigit() else "0"
        el.set(name, ",".join(parts))
    else:
        _edit_list(rng, el, name)
    return True


def _structural_xml(rng: random.Random, root: etree._Element) -> None:
    """The ``test_fuzz.py`` edits: an element deleted, duplicated, moved, an
    attribute replaced, a list entry edited, a tag renamed."""
    kids = list(root)
    if not kids:
        return
    el = rng.choice(kids)
    op = rng.choice(["delete", "duplicate", "move", "attr", "retag"])
    if op == "delete":
        root.remove(el)
    elif op == "duplicate":
        el.addnext(etree.fromstring(etree.tostring(el)))
    elif op == "move":
        root.remove(el)
        root.insert(rng.randrange(len(kids)), el)
    elif op == "attr" and el.attrib:
        name = rng.choice(sorted(el.attrib))
        el.set(name, rng.choice(ODD_VALUES)) if rng.random() < 0.3 else _edit_list(rng, el, name)
    else:
        el.tag = rng.choice(
            [
                f"{rng.choice('TUVWDEFG')}{rng.randint(-2, 140)}",
                "INIT",
                "N",
                "REACH",
                "AGARI",
                "RYUUKYOKU",
                "DORA",
                "BYE",
            ]
        )


def mutate_xml(rng: random.Random, data: bytes, recorded: bool = False) -> bytes:
    """``data`` (an mjlog document) with one to three edits, mostly semantic; with
    ``recorded``, one edit that leaves the moves playable."""
    root = etree.fromstring(data)
    if recorded:
        for _ in range(5):
            if _semantic_xml(rng, root, RECORDED_XML_EDITS):
                break
        return etree.tostring(root)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.1 or not _semantic_xml(rng, root):
            _structural_xml(rng, root)
    return etree.tostring(root)


# ------------------------------------------------------------ tenhou.net/6 JSON

JSON_TILES = [*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53]
"""tenhou.net/6 tile codes (``51``..``53`` the red fives)."""


def _json_tile(rng: random.Random, value: Any) -> Any:
    if isinstance(value, int) and value in JSON_TILES and rng.random() < 0.9:
        if rng.random() < 0.4:  # the same kind or its red twin
            twin = {15: 51, 25: 52, 35: 53, 51: 15, 52: 25, 53: 35}
            return twin.get(value, rng.choice(JSON_TILES))
        return rng.choice(JSON_TILES)
    if isinstance(value, str) and value:  # a call: one of its digits
        i = rng.randrange(len(value))
        if value[i].isdigit():
            return value[:i] + str(rng.randint(1, 5)) + value[i + 1 :]
        return value[:i] + rng.choice("cpmakr") + value[i + 1 :]
    return rng.choice([60, 0, 11, "r11", None])


def swap_json_codes(doc: Any, a: int, b: int) -> None:
    """Tile codes ``a`` and ``b`` exchanged in every hand's deal, draws and
    discards (calls' strings aside): the JSON kind of ``swap_tile_ids``."""
    logs = doc.get("log")
    if not isinstance(logs, list):  # (an earlier edit may have put anything there)
        return
    for hand in logs:
        if not isinstance(hand, list):
            continue
        for i, entry in enumerate(hand[2:-1], start=2):
            if isinstance(entry, list):
                hand[i] = [b if x == a else a if x == b else x for x in entry]


def _semantic_json(rng: random.Random, doc: dict[str, Any], recorded: bool = False) -> None:
    """One entry of one hand edited: a tile in a haipai, draw or discard list, a
    call string, the round header, a start score, a dora, or the result (with
    ``recorded``, a result, a start score or the game's data only)."""
    if rng.random() < 0.2 and not recorded:
        swap_json_codes(doc, rng.choice(JSON_TILES), rng.choice(JSON_TILES))
        return
    if rng.random() < 0.1:
        key = rng.choice(["name", "dan", "rate", "sx", "sc", "ratingc", "lobby", "title", "ref"])
        value = doc.get(key)
        if isinstance(value, list) and value:
            j = rng.randrange(len(value))
            value[j] = rng.choice(["", "%ZZ", "x", -1, 0, 99, 1e9, None, "nan", 2150.005])
        else:
            doc[key] = rng.choice(["", "x", 0, -1, None, ["a", "b"], "L1234"])
        return
    if rng.random() < 0.05 and isinstance(doc.get("rule"), dict):
        rule = doc["rule"]
        key = rng.choice(["aka", "aka51", "aka52", "aka53", "disp"])
        rule[key] = rng.choice(["般南喰赤", "般東喰", "般南", "三般南喰赤", "0", 0, 1, 2])
        return
    logs = doc.get("log")
    if not isinstance(logs, list) or not logs or not isinstance(logs[0], list):
        return
    hand = rng.choice(logs)
    if not isinstance(hand, list) or not hand:
        return
    i = rng.choice([len(hand) - 1, len(hand) - 1, 1]) if recorded else rng.randrange(len(hand))
    i = min(i, len(hand) - 1)  # (a hand an earlier edit cut to one entry has no 1)
    entry = hand[i]
    if i >= 4 and i < len(hand) - 1 and isinstance(entry, list) and entry:
        j = rng.randrange(len(entry))
        if rng.random() < 0.15 and j + 1 < len(entry):
            entry[j], entry[j + 1] = entry[j + 1], entry[j]
        else:
            entry[j] = _json_tile(rng, entry[j])
    elif i < 4 and isinstance(entry, list) and entry:
        j = rng.randrange(len(entry))
        value = entry[j]
        if i >= 2:
            entry[j] = _json_tile(rng, value)
        elif isinstance(value, int):  # (an earlier edit may have put anything there)
            entry[j] = value + rng.choice([-1000, -1, 1, 100])
        else:
            entry[j] = rng.choice([0, 1, 25000])
    elif isinstance(entry, list) and entry:  # the result
        j = rng.randrange(len(entry))
        part = entry[j]
        if isinstance(part, list) and part:
            k = rng.randrange(len(part))
            x = part[k]
            if isinstance(x, int):
                part[k] = (
                    x + rng.choice([-1000, -100, -1, 1, 100, 1000])
                    if abs(x) > 4
                    else rng.randrange(4)
                )
            elif isinstance(x, str):
                part[k] = re.sub(
                    r"\d+", lambda m: str(int(m.group()) + rng.choice([-1, 1, 10])), x, count=1
                )
        elif isinstance(part, str):
            entry[j] = rng.choice(
                [
                    "和了",
                    "流局",
                    "全員聴牌",
                    "全員不聴",
                    "流し満貫",
                    "九種九牌",
                    "四風連打",
                    "四家立直",
                    "三家和了",
                    "四槓散了",
                    "不明",
                ]
            )


def _structural_json(rng: random.Random, doc: Any) -> None:
    """The ``test_fuzz.py`` edit: a value somewhere replaced or deleted."""
    parent: Any = None
    key: Any = None
    node: Any = doc
    for _ in range(rng.randint(1, 6)):
        if isinstance(node, list) and node:
            parent, key = node, rng.randrange(len(node))
        elif isinstance(node, dict) and node:
            parent, key = node, rng.choice(sorted(node))
        else:
            break
        node = parent[key]
    if parent is None:
        return
    if isinstance(parent, list) and rng.random() < 0.5:
        del parent[key]
    else:
        parent[key] = rng.choice([None, "x", 0, -1, 61, 2**70, [], {}, [1, 2], "和了"])


def mutate_json(rng: random.Random, data: bytes, recorded: bool = False) -> bytes:
    """``data`` (a tenhou.net/6 document) with one to three edits, mostly semantic;
    with ``recorded``, one edit of a recorded value."""
    doc = json.loads(data)
    if recorded:
        _semantic_json(rng, doc, recorded=True)
        return json.dumps(doc, ensure_ascii=False).encode("utf-8")
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        (_structural_json if rng.random() < 0.1 else _semantic_json)(rng, doc)
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """A cut or a few flipped bytes."""
    if rng.random() < 0.5 or not data:
        return data[: rng.randrange(len(data) + 1)]
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def mutated(rng: random.Random, data: bytes, suffix: str, recorded: float = 0.5) -> bytes:
    """One mutated copy of a source log (plain bytes), gzipped now and then as
    downloads are; a ``recorded`` share of them with one edit of a recorded value."""
    pick: Callable[..., bytes]
    if rng.random() < 0.04:
        out = mutate_bytes(rng, data)
    else:
        pick = mutate_json if suffix == ".json" else mutate_xml
        try:
            out = pick(rng, data, rng.random() < recorded)
        except (etree.XMLSyntaxError, ValueError, RecursionError):  # a broken log
            out = mutate_bytes(rng, data)
    return gzip.compress(out) if suffix == ".xml" and rng.random() < 0.1 else out


RESULT_VALUES = {
    "AGARI": ("hai", "m", "machi", "ten", "yaku", "yakuman", "sc", "doraHai", "doraHaiUra", "ba"),
    "RYUUKYOKU": ("sc", "type", "ba", "hai0", "hai1", "hai2", "hai3"),
    "INIT": ("seed", "ten"),
}
"""The recorded values ``each_recorded_edit`` edits, element by element."""


def each_recorded_edit(rng: random.Random, data: bytes, limit: int) -> list[bytes]:
    """Up to ``limit`` copies of an mjlog, each with one recorded value of one
    result (or deal) edited, every kind of value in turn: the random edits reach a
    game with nothing else wrong only now and then, and the core audits just those
    games itself."""
    root = etree.fromstring(data)
    places = [
        (i, name)
        for i, el in enumerate(root)
        for name in RESULT_VALUES.get(el.tag, ())
        if el.get(name) is not None
    ]
    rng.shuffle(places)
    by_name: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for place in places:
        by_name.setdefault((root[place[0]].tag, place[1]), []).append(place)
    order = [p for group in zip(*by_name.values(), strict=False) for p in group]
    order += [p for p in places if p not in order]
    out = []
    for i, name in order[:limit]:
        copy = etree.fromstring(data)
        el = copy[i]
        if name == "type":
            el.set(name, rng.choice(["yao9", "reach4", "ron3", "kan4", "kaze4", "nm"]))
        else:
            parts = el.get(name).split(",")
            j = rng.randrange(len(parts))
            if name == "sc" and len(parts) > 1:  # a payment (the scores before, now and then)
                j = j | 1 if j + 1 < len(parts) and rng.random() < 0.75 else j
            parts[j] = _edit_number(rng, parts[j], name in TILE_LISTS)
            el.set(name, ",".join(parts))
        out.append(etree.tostring(copy))
    return out
