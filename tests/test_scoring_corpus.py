"""Engine-isolation test: score every AGARI of the real-log corpus from its recorded hand.

This test checks the scoring engine alone, not the replayer.  For each AGARI tag
it builds a ``WinContext`` from the tiles the tag shows (``hai``, ``m``,
``machi``), who won from whom, the INIT dealer and round, and the dora/ura
indicators.  Only the situational flags that cannot be seen in the tiles
(riichi, double riichi, ippatsu, chankan, rinshan, haitei, houtei, tenhou,
chiihou) are taken from the recorded yaku ids; everything compared (han, fu,
points, limit, the yaku list) is then computed by the engine.  The full audit
derives those flags from the moves instead (``replay.py``).

Until the project's XML parser lands, a tiny private reader of GO/INIT/AGARI
tags (lxml plus the meld bit field) keeps this test independent.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree

from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.context import WinContext, WinValue
from replay_audit.scoring.hand import score_win

FLAG_IDS = {
    1: "riichi",
    21: "double_riichi",
    2: "ippatsu",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    37: "tenhou",
    38: "chiihou",
}


@dataclass(frozen=True, slots=True)
class CorpusWin:
    """One AGARI: the context the engine gets and the values Tenhou recorded."""

    where: str
    ctx: WinContext
    rules: RuleSet
    fu: int
    points: int
    limit: int
    yaku: tuple[tuple[int, int], ...]
    yakuman: tuple[int, ...]


def _decode_meld(m: int, who: int) -> Meld:
    """Test-only decoder of the 16-bit meld field (formats.md §3.4)."""
    offset = m & 3
    src = (who + offset) % 4
    if m & 0x4:
        t = m >> 10
        called_i = t % 3
        t //= 3
        low = 9 * (t // 7) + t % 7
        copies = ((m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3)
        tiles = tuple(4 * (low + i) + copies[i] for i in range(3))
        return Meld(MeldKind.CHI, tiles, tiles[called_i], src)
    if m & 0x18:
        t = m >> 9
        called_i = t % 3
        k = t // 3
        fourth = (m >> 5) & 3
        three = tuple(4 * k + c for c in range(4) if c != fourth)
        if m & 0x8:
            return Meld(MeldKind.PON, three, three[called_i], src)
        return Meld(
            MeldKind.KAKAN, tuple(range(4 * k, 4 * k + 4)), three[called_i], src, 4 * k + fourth
        )
    if m & 0x20:
        return Meld(MeldKind.KITA, (m >> 8,))
    tile = m >> 8
    k = tile >> 2
    tiles = tuple(range(4 * k, 4 * k + 4))
    if offset == 0:
        return Meld(MeldKind.ANKAN, tiles)
    return Meld(MeldKind.DAIMINKAN, tiles, tile, src)


def _ints(text: str | None) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",")) if text else ()


def _read_wins(path: Path, root_dir: Path) -> Iterator[CorpusWin]:
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    root = etree.fromstring(data, etree.XMLParser(recover=True, huge_tree=True))
    rules = rules_for_go_type(None)
    players = 4
    dealer = 0
    round_index = 0
    for i, el in enumerate(root):
        tag = el.tag
        if tag == "GO":
            go = int(el.get("type", "0"))
            rules = rules_for_go_type(go)
            players = 3 if go & 0x10 else 4
        elif tag == "INIT":
            seed = _ints(el.get("seed"))
            round_index = seed[0]
            dealer = int(el.get("oya", "0"))
        elif tag == "AGARI":
            who = int(el.get("who", "0"))
            from_who = int(el.get("fromWho", "0"))
            yaku_flat = _ints(el.get("yaku"))
            yaku = tuple(zip(yaku_flat[::2], yaku_flat[1::2], strict=True))
            yakuman = _ints(el.get("yakuman"))
            ids = {y for y, _ in yaku} | set(yakuman)
            flags = {name: yid in ids for yid, name in FLAG_IDS.items()}
            riichi = flags["riichi"] or flags["double_riichi"]
            ten = _ints(el.get("ten"))
            ctx = WinContext(
                tiles=_ints(el.get("hai")),
                melds=tuple(_decode_meld(m, who) for m in reversed(_ints(el.get("m")))),
                win_tile=int(el.get("machi", "0")),
                tsumo=who == from_who,
                seat=who,
                dealer=dealer,
                round_wind=round_index // 4,
                players=players,
                dora_indicators=_ints(el.get("doraHai")),
                ura_indicators=_ints(el.get("doraHaiUra")) if riichi else (),
                **flags,
            )
            where = f"{path.relative_to(root_dir)}#{i}"
            yield CorpusWin(where, ctx, rules, ten[0], ten[1], ten[2], yaku, yakuman)


def corpus_wins(corpus: Path) -> Iterator[CorpusWin]:
    """Every AGARI of the corpus's XML files (pairs/ and tenhou-xml/)."""
    for path in sorted(corpus.rglob("*.xml.gz")):
        yield from _read_wins(path, corpus)


def mismatch(win: CorpusWin, value: WinValue) -> str | None:
    """The first field where the engine and Tenhou differ, as a short class name."""
    if value.error:
        return f"error:{value.error}"
    if tuple(sorted(win.yakuman)) != tuple(sorted(value.yakuman)):
        return "yakuman"
    if {y for y in win.yaku if y[1]} != {y for y in value.yaku if y[1]}:
        return "yaku"
    rec_han = sum(h for _, h in win.yaku) if win.yaku else 13 * len(win.yakuman)
    if rec_han != value.han:
        return "han"
    if not win.yakuman and win.fu != value.fu:
        return "fu"
    if win.points != value.points:
        return "points"
    if win.limit != value.limit:
        return "limit"
    return None


@pytest.mark.corpus
def test_every_corpus_win_scores_as_tenhou_recorded(corpus: Path) -> None:
    classes: Counter[str] = Counter()
    examples: dict[str, str] = {}
    total = 0
    for win in corpus_wins(corpus):
        total += 1
        cls = mismatch(win, score_win(win.ctx, win.rules))
        if cls:
            classes[cls] += 1
            examples.setdefault(cls, win.where)
    assert total > 0
    assert not classes, f"{sum(classes.values())}/{total} differ: {dict(classes)} e.g. {examples}"
