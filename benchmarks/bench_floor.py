"""How fast could a pure-Python audit be?  A measured lower bound, against a bare lxml parse.

Issue 9 asks for a full audit within 4x a bare lxml parse of the same files.  This
script measures, in one run over the same bytes, the cheapest pure-Python versions
of the steps no audit can skip, each as a ratio to the lxml reference:

* ``lxml``    -- gunzip + ``lxml.etree.fromstring`` + iterate every element (the
                 reference, as in ``bench_audit.py``);
* ``tokens``  -- gunzip + one compiled regular expression over the document
                 (``findall``): the cheapest way to see every tag in Python, cheaper
                 than lxml because it builds no tree;
* ``moves``   -- ``tokens`` plus the least a replay does per move: each INIT's four
                 hands decoded, each draw appended to and each discard removed from
                 its seat's hand list.  No calls, riichi, waits, dora, results or
                 checks of any kind;
* ``bulk``    -- the moves again, without a per-move Python step: per hand and seat,
                 discards and draws as integer lists from a regular expression and
                 one set check (ignores the order of moves, so weaker than a replay);
* ``walls``   -- each hand's wall rebuilt from the game's seed with
                 ``replay_audit.wall.iter_walls`` (MT19937 + SHA-512 + the shuffle:
                 already at the floor of a Python loop, see README.md);
* ``scoring`` -- every win scored once by ``score_win`` with cold caches, on contexts
                 prepared before the clock starts (as in ``bench_scoring.py``).

``moves + walls + scoring`` is a floor: a real audit also decodes calls, riichi,
dora and results, checks every move, computes waits, furiten and tenpai, compares
every recorded value, derives per-player facts and writes the report.  The script
prints what the 4x target leaves for all of that.  Nothing is asserted.

Usage (from the project root)::

    python benchmarks/bench_floor.py                 # the Phoenix corpus folder
    python benchmarks/bench_floor.py --limit 600 --repeat 5
"""

from __future__ import annotations

import argparse
import gc
import gzip
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree

from replay_audit.scoring import decompose, points
from replay_audit.scoring.hand import score_win
from replay_audit.wall import iter_walls

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"

_TAG = re.compile(rb"<([A-Za-z]+)(\d*)([^>]*)>")
_HAI = re.compile(rb'hai(\d)="([^"]*)"')
_SEED = re.compile(rb'<SHUFFLE seed="([^"]+)"')
_DRAWS = {ord(c): i for i, c in enumerate("TUVW")}
_DISCARDS = {ord(c): i for i, c in enumerate("DEFG")}


def _unzipped(blobs: list[bytes]) -> list[bytes]:
    return [gzip.decompress(b) if b[:2] == b"\x1f\x8b" else b for b in blobs]


def run_lxml(blobs: list[bytes]) -> int:
    elements = 0
    for blob in blobs:
        data = gzip.decompress(blob) if blob[:2] == b"\x1f\x8b" else blob
        for _ in etree.fromstring(data).iter():
            elements += 1
    return elements


def run_tokens(blobs: list[bytes]) -> int:
    tags = 0
    for blob in blobs:
        data = gzip.decompress(blob) if blob[:2] == b"\x1f\x8b" else blob
        tags += len(_TAG.findall(data))
    return tags


def run_moves(blobs: list[bytes]) -> int:
    """Tokens plus one list operation per draw and discard; returns the moves seen."""
    moves = 0
    draws, discards = _DRAWS, _DISCARDS
    for blob in blobs:
        data = gzip.decompress(blob) if blob[:2] == b"\x1f\x8b" else blob
        hands: list[list[int]] = [[], [], [], []]
        for name, number, rest in _TAG.findall(data):
            if number and len(name) == 1:
                c = name[0]
                seat = draws.get(c)
                if seat is not None:
                    hands[seat].append(int(number))
                    moves += 1
                    continue
                seat = discards.get(c)
                if seat is not None:
                    hands[seat].remove(int(number))
                    moves += 1
            elif name == b"INIT":
                hands = [[], [], [], []]
                for seat, tiles in _HAI.findall(rest):
                    if tiles:
                        hands[int(seat)] = [int(t) for t in tiles.split(b",")]
    return moves


_SEAT_MOVES = tuple(
    (re.compile(rb"<" + d + rb"(\d+)/>"), re.compile(rb"<" + t + rb"(\d+)/>"))
    for d, t in zip((b"D", b"E", b"F", b"G"), (b"T", b"U", b"V", b"W"), strict=True)
)


def run_moves_bulk(blobs: list[bytes]) -> int:
    """Moves seen seat by seat in bulk: per hand and seat, the discards and draws as
    two integer lists (``findall`` + ``map(int)``, C loops) and one set check that
    every discard was dealt or drawn.  Order is ignored: cheaper than any replay."""
    moves = 0
    for blob in blobs:
        data = gzip.decompress(blob) if blob[:2] == b"\x1f\x8b" else blob
        for hand in data.split(b"<INIT ")[1:]:
            dealt = dict(_HAI.findall(hand[: hand.index(b">")]))
            for seat, (discard_re, draw_re) in enumerate(_SEAT_MOVES):
                discards = list(map(int, discard_re.findall(hand)))
                draws = list(map(int, draw_re.findall(hand)))
                held = set(draws)
                if seat_tiles := dealt.get(str(seat).encode()):
                    held.update(map(int, seat_tiles.split(b",")))
                if not held.issuperset(discards):
                    raise ValueError("a discard that was never held")
                moves += len(discards) + len(draws)
    return moves


def run_walls(blobs: list[bytes]) -> int:
    """One wall per INIT, from the game's SHUFFLE seed (games without one are skipped)."""
    walls = 0
    for data in blobs:
        m = _SEED.search(data)
        if m is None:
            continue
        players = 3 if b'<GO type="' in data and _sanma(data) else 4
        source = iter_walls(m.group(1).decode(), players)
        for _ in range(data.count(b"<INIT ")):
            next(source)
            walls += 1
    return walls


def _sanma(data: bytes) -> bool:
    m = re.search(rb'<GO type="(\d+)"', data)
    return bool(m and int(m.group(1)) & 0x10)


def _wins(folder: Path, limit: int | None) -> list[tuple[Any, Any]]:
    """Every win's context and rules, read as ``bench_scoring.py`` reads them."""
    from bench_scoring import _load_corpus_reader  # this folder is on sys.path

    reader = _load_corpus_reader()
    paths = sorted(folder.rglob("*.xml.gz"))[:limit]
    return [(w.ctx, w.rules) for p in paths for w in reader._read_wins(p, folder)]


def run_scoring(wins: list[tuple[Any, Any]]) -> int:
    decompose.clear_caches()
    points.clear_caches()
    for ctx, rules in wins:
        score_win(ctx, rules)
    return len(wins)


def _best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    best, out = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT_INPUT)
    ap.add_argument("--limit", type=int, default=None, help="only the first N files")
    ap.add_argument("--repeat", type=int, default=3, help="best of N passes per step")
    args = ap.parse_args()

    paths = sorted(p for p in args.folder.rglob("*") if p.name.endswith((".xml", ".xml.gz")))
    paths = paths[: args.limit]
    blobs = [p.read_bytes() for p in paths]
    plain = _unzipped(blobs)
    wins = _wins(args.folder, args.limit)
    gc.disable()  # as the auditor does while it works on a file
    lx, elements = _best(lambda: run_lxml(blobs), args.repeat)
    tok, tags = _best(lambda: run_tokens(blobs), args.repeat)
    mv, moves = _best(lambda: run_moves(blobs), args.repeat)
    bulk, bulk_moves = _best(lambda: run_moves_bulk(blobs), args.repeat)
    wl, walls = _best(lambda: run_walls(plain), args.repeat)
    sc, scored = _best(lambda: run_scoring(wins), args.repeat)
    gc.enable()

    def line(name: str, seconds: float, what: str) -> None:
        print(f"{name:<26} {seconds:7.3f} s  {seconds / lx:5.2f}x   {what}")

    print(f"{len(paths)} files, best of {args.repeat}; bytes read before the clock starts")
    line("bare lxml parse", lx, f"{elements:,} elements")
    line("regex tokens", tok, f"{tags:,} tags")
    line("tokens + moves", mv, f"{moves:,} draws and discards")
    line("moves in bulk", bulk, f"{bulk_moves:,} draws and discards")
    line("walls", wl, f"{walls:,} walls")
    line("scoring (cold)", sc, f"{scored:,} wins")
    floor = min(mv, bulk) + wl + sc
    line("floor: moves+walls+scoring", floor, "the faster moves line")
    left = 4 * lx - floor
    print(
        f"4x budget {4 * lx:.3f} s; left for everything else: {left:.3f} s "
        f"({1000 * left / max(len(paths), 1):.3f} ms per file)"
    )


if __name__ == "__main__":
    main()
