"""The "peer script" of issue 19: a regular expression over the mjlog plus the ``mahjong``
package rescoring every recorded win, against our audit, one core, same files, one run.

Issue 19 asks the compiled audit to be at least 3x faster end to end than this peer.
The peer is what a researcher would write in an afternoon: read and gunzip each file,
find the GO, INIT and AGARI tags with one regular expression, decode the tiles and the
meld fields of each win, and score it with ``mahjong`` 2.1.0's ``HandCalculator``,
configured for Tenhou as in ``anchors.md`` §4.2 (situational flags from the recorded
yaku ids); it counts the wins whose fu or points differ from the log's ``ten``.  It
checks nothing else: no replay, no wall, no payments, no final scores.

Timed over the same files (read from disk, page cache warm), best of ``--repeat``:

* ``bare lxml parse``: read + gunzip + ``lxml.etree.fromstring`` + iterate (the reference);
* ``peer script``;
* ``audit_file`` for each file (parse, replay, scoring, comparison, per-player facts);
* ``audit_files(jobs=1)`` writing Parquet parts, plus ``summary()`` (``bench_audit.py``'s
  "audit, 1 job", here in this process).

    python benchmarks/bench_peer.py [folder] [--limit N] [--repeat N]
"""

from __future__ import annotations

import argparse
import gzip
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"

_TAG = re.compile(rb"<(GO|INIT|AGARI) ([^>]*?)/?>")
_ATTR = re.compile(rb'(\w+)="([^"]*)"')
_FLAGS = {1: "riichi", 21: "double_riichi", 2: "ippatsu", 3: "chankan", 4: "rinshan"}
_FLAGS |= {5: "haitei", 6: "houtei", 37: "tenhou", 38: "chiihou"}


def _ints(value: bytes | None) -> list[int]:
    return [int(x) for x in value.split(b",")] if value else []


class Peer:
    """The peer script's state: ``mahjong``'s classes, imported once."""

    def __init__(self) -> None:
        from mahjong.constants import EAST
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
        from mahjong.meld import Meld

        self.east = EAST
        self.calc = HandCalculator.estimate_hand_value
        self.config = HandConfig
        self.rules = OptionalRules
        self.meld = Meld

    def meld_tiles(self, m: int) -> tuple[Any, list[int]] | None:
        """A Tenhou meld field as (``mahjong`` meld type and openness, tiles); ``None``
        for a kita (North set aside in three-player)."""
        mj = self.meld
        if m & 0x4:  # chi
            t = (m >> 10) // 3
            low = 9 * (t // 7) + t % 7
            return (mj.CHI, True), [4 * (low + i) + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        if m & 0x18:  # pon, or a pon made a kan (kakan)
            k = (m >> 9) // 3
            if m & 0x8:
                unused = (m >> 5) & 3
                return (mj.PON, True), [4 * k + c for c in range(4) if c != unused]
            return (mj.SHOUMINKAN, True), [4 * k + c for c in range(4)]
        if m & 0x20:
            return None
        k = (m >> 8) // 4  # daiminkan, or ankan when called from oneself
        return (mj.KAN, bool(m & 3)), [4 * k + c for c in range(4)]

    def run(self, paths: list[Path]) -> tuple[int, int]:
        """Score every win of every file; returns (wins, wins differing from ``ten``)."""
        wins = differ = 0
        for path in paths:
            data = gzip.decompress(path.read_bytes())
            options = None
            players = 4
            dealer = round_wind = 0
            for tag, attrs in _TAG.findall(data):
                a = dict(_ATTR.findall(attrs))
                if tag == b"GO":
                    go = int(a[b"type"])
                    players = 3 if go & 0x10 else 4
                    options = self.rules(
                        has_open_tanyao=not go & 0x4,
                        has_aka_dora=not go & 0x2,
                        has_double_yakuman=False,
                        kazoe_limit=0,
                        kiriage=False,
                        fu_for_open_pinfu=True,
                        fu_for_pinfu_tsumo=False,
                        is_three_player=players == 3,
                    )
                elif tag == b"INIT":
                    dealer = int(a[b"oya"])
                    round_wind = _ints(a[b"seed"])[0] // 4
                else:
                    wins += 1
                    differ += self.score(a, options, players, dealer, round_wind)
        return wins, differ

    def score(self, a: dict[bytes, bytes], options: Any, players: int, dealer: int, rw: int) -> int:
        who = int(a[b"who"])
        yaku = _ints(a.get(b"yaku"))
        ids = set(yaku[::2]) | set(_ints(a.get(b"yakuman")))
        flags = {name: yid in ids for yid, name in _FLAGS.items()}
        tiles = _ints(a[b"hai"])
        melds = []
        kita = 0
        for m in _ints(a.get(b"m")):
            decoded = self.meld_tiles(m)
            if decoded is None:
                kita += 1
                continue
            (kind, opened), meld_tiles = decoded
            melds.append(self.meld(kind, tiles=meld_tiles, opened=opened))
            tiles += meld_tiles
        config = self.config(
            is_tsumo=who == int(a[b"fromWho"]),
            is_riichi=flags["riichi"] or flags["double_riichi"],
            is_ippatsu=flags["ippatsu"],
            is_rinshan=flags["rinshan"],
            is_chankan=flags["chankan"],
            is_haitei=flags["haitei"],
            is_houtei=flags["houtei"],
            is_daburu_riichi=flags["double_riichi"],
            is_tenhou=flags["tenhou"],
            is_chiihou=flags["chiihou"],
            player_wind=self.east + (who - dealer) % players,
            round_wind=self.east + rw,
            options=options,
            num_nuki_dora=kita,
        )
        result = self.calc(
            tiles,
            int(a[b"machi"]),
            melds=melds or None,
            dora_indicators=_ints(a.get(b"doraHai")),
            config=config,
            ura_dora_indicators=_ints(a.get(b"doraHaiUra")) or None,
        )
        fu, points, _limit = _ints(a[b"ten"])
        if result.error:
            return 1
        return int(points != result.cost["total"] or (not a.get(b"yakuman") and fu != result.fu))


def run_lxml(paths: list[Path]) -> tuple[int, int]:
    n = 0
    for path in paths:
        for _ in etree.fromstring(gzip.decompress(path.read_bytes())).iter():
            n += 1
    return n, 0


def run_audit_file(paths: list[Path]) -> tuple[int, int]:
    from replay_audit.auditing.auditor import audit_file

    games = findings = 0
    for path in paths:
        result = audit_file(path)
        games += len(result.games)
        findings += len(result.findings)
    return games, findings


def run_runner(paths: list[Path]) -> tuple[int, int]:
    from replay_audit.run.local import audit_files

    with tempfile.TemporaryDirectory() as tmp:
        report = audit_files(paths, jobs=1, out=Path(tmp) / "out")
        summary = report.summary()
    return len(paths), len(summary)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=None, help="only the first N files")
    ap.add_argument("--repeat", type=int, default=3, help="best of N rounds (default 3)")
    args = ap.parse_args()
    paths = sorted(args.folder.glob("*.xml.gz"))[: args.limit]
    peer = Peer()
    steps: dict[str, Callable[[list[Path]], tuple[int, int]]] = {
        "bare lxml parse": run_lxml,
        "peer script (regex + mahjong)": peer.run,
        "audit_file, each file": run_audit_file,
        "audit_files(jobs=1) + summary": run_runner,
    }
    best = dict.fromkeys(steps, float("inf"))
    cpu = dict.fromkeys(steps, float("inf"))
    out: dict[str, tuple[int, int]] = {}
    for _ in range(args.repeat):
        for name, step in steps.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            out[name] = step(paths)
            best[name] = min(best[name], time.perf_counter() - start)
            cpu[name] = min(cpu[name], time.process_time() - start_cpu)
    wins, differ = out["peer script (regex + mahjong)"]
    lx, peer_s = best["bare lxml parse"], best["peer script (regex + mahjong)"]
    print(f"{len(paths)} files, best of {args.repeat}, one process (one core)")
    print(f"peer: {wins} wins scored, {differ} differ from the log's fu/points")
    print(f"{'':32} {'seconds':>8} {'/ lxml':>7} {'/ peer':>7} {'files/s':>8} {'CPU s':>7}")
    for name, seconds in best.items():
        print(
            f"{name:32} {seconds:8.2f} {seconds / lx:6.2f}x {seconds / peer_s:6.2f}x"
            f" {len(paths) / seconds:8.0f} {cpu[name]:7.2f}"
        )
    # what the runner adds to the audit itself: parts, index and summary (a shared
    # machine's noise is smaller in CPU time than in wall time)
    runner, audit = "audit_files(jobs=1) + summary", "audit_file, each file"
    print(
        f"{'runner after audit_file':32} {best[runner] - best[audit]:8.2f}"
        f" {'':7} {'':7} {'':8} {cpu[runner] - cpu[audit]:7.2f}"
    )


if __name__ == "__main__":
    main()
