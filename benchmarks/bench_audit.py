"""Benchmark the audit runner: speed against a bare parse, parallel speed-up, memory.

Every measurement runs in a fresh subprocess, so import caches and peak-RSS
counters start clean:

* ``lxml``    -- read + gunzip + ``lxml.etree.fromstring`` + iterate every element:
                 the floor any XML audit pays;
* ``audit``   -- ``runner.audit_files`` with ``--jobs 1`` and with ``--jobs N``,
                 rows streamed to Parquet parts in a temporary folder;
* ``memory``  -- the same streamed run, plus writing the report in the
                 ``--formats`` given (default ``csv``; ``csv,json,html`` as the CLI
                 would write them), over 1x and 4x the input (4x = each file
                 listed four times under different symlink names), peak RSS of
                 the parent and of the largest worker (``getrusage``) and, when
                 ``psutil`` is installed, of the whole process tree sampled
                 every 20 ms.

Usage (from the project root)::

    python benchmarks/bench_audit.py                      # the Phoenix corpus folder
    python benchmarks/bench_audit.py --limit 500 --jobs 2 # a quicker subset
    python benchmarks/bench_audit.py --skip-memory --repeat 3
    python benchmarks/bench_audit.py --skip-speed --formats csv,json,html  # memory only

The machine should be quiet: other processes on the same cores lower the
speed-up figure.  ``--repeat N`` runs N rounds of the three speed measurements
(lxml, 1 job, N jobs, each in its own fresh subprocess, in turn) and keeps the
fastest of each, the run least disturbed by other processes; it also prints each
round's own speed-up and their median, since on a shared machine two best-ofs
taken minutes apart can catch different loads.  Nothing here is asserted; the
figures go to the README.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = ROOT.parent / "shared" / "corpus" / "tenhou-xml" / "phoenix-2024"


# ------------------------------------------------------------- measurements


def _lxml(files: list[str]) -> dict[str, Any]:
    import gzip

    from lxml import etree

    start = time.perf_counter()
    elements = 0
    for f in files:
        data = Path(f).read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        root = etree.fromstring(data)
        for _ in root.iter():
            elements += 1
    return {"seconds": time.perf_counter() - start, "elements": elements}


def _audit(files: list[str], jobs: int, formats: tuple[str, ...] = ()) -> dict[str, Any]:
    from replay_audit.run.local import audit_files

    with tempfile.TemporaryDirectory(prefix="bench-audit-") as tmp:
        start = time.perf_counter()
        report = audit_files(files, jobs=jobs, out=Path(tmp) / "out")
        summary = report.summary()
        if formats:  # what ``replay-audit audit`` does next: write the report
            report.write(Path(tmp) / "out", formats)
        seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "files": summary["files"],
        "hands": summary["hands"],
        "files_error": summary["files_error"],
        "findings": summary["findings"],
    }


def _tree_rss_sampler(stop: threading.Event, peak: list[int]) -> None:
    """Sum of RSS over this process and its children, every 20 ms."""
    import psutil

    me = psutil.Process()
    while not stop.is_set():
        total = 0
        with contextlib.suppress(psutil.Error):
            for p in [me, *me.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):  # a worker may exit meanwhile
                    total += p.memory_info().rss
        peak[0] = max(peak[0], total)
        stop.wait(0.02)


def _memory(files: list[str], jobs: int, formats: tuple[str, ...]) -> dict[str, Any]:
    import resource

    peak = [0]
    stop = threading.Event()
    sampler = None
    try:
        import psutil  # noqa: F401

        sampler = threading.Thread(target=_tree_rss_sampler, args=(stop, peak), daemon=True)
        sampler.start()
    except ImportError:
        pass
    result = _audit(files, jobs, formats)
    stop.set()
    if sampler is not None:
        sampler.join()
    result["self_maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result["worker_maxrss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    result["tree_peak_mb"] = peak[0] / 2**20 if sampler is not None else None
    return result


def _child_main(argv: list[str]) -> None:
    mode, jobs, listing = argv[0], int(argv[1]), argv[2]
    formats = tuple(f for f in (argv[3] if len(argv) > 3 else "").split(",") if f)
    files = Path(listing).read_text(encoding="utf-8").split("\n")
    files = [f for f in files if f]
    if mode == "lxml":
        out = _lxml(files)
    elif mode == "audit":
        out = _audit(files, jobs)
    else:
        out = _memory(files, jobs, formats)
    print(json.dumps(out))


# ------------------------------------------------------------- driver


def _run_child(
    mode: str, jobs: int, files: list[str], tmp: Path, formats: str = ""
) -> dict[str, Any]:
    listing = tmp / f"files-{mode}-{jobs}-{len(files)}.txt"
    listing.write_text("\n".join(files), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(jobs), str(listing), formats],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _rounds(
    repeat: int, jobs: int, files: list[str], tmp: Path
) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """``repeat`` rounds of (lxml, audit with 1 job, audit with ``jobs``), run in turn:
    on a shared machine the load drifts from minute to minute, so the runs compared
    in one round are seconds apart, not a whole best-of series apart (the best of
    each kind is printed as before, and each round's own speed-up beside it)."""
    return [
        (
            _run_child("lxml", 1, files, tmp),
            _run_child("audit", 1, files, tmp),
            _run_child("audit", jobs, files, tmp),
        )
        for _ in range(max(1, repeat))
    ]


def _copies(files: list[str], tmp: Path, times: int) -> list[str]:
    """The input listed ``times`` times, each copy under other symlink names."""
    out = []
    for k in range(times):
        folder = tmp / f"copy{k}"
        folder.mkdir(exist_ok=True)
        for f in files:
            link = folder / Path(f).name
            if not link.exists():
                link.symlink_to(Path(f).resolve())
            out.append(str(link))
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "--child":
        _child_main(args[1:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", nargs="?", default=str(DEFAULT_INPUT), help="folder of logs")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("--jobs", type=int, default=2, help="workers of the parallel run")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--skip-speed", action="store_true", help="only the memory runs")
    ap.add_argument(
        "--formats",
        default="csv",
        help="report formats the memory runs write, comma-separated (csv,parquet,json,html)",
    )
    ap.add_argument("--repeat", type=int, default=1, help="best of N runs of each speed figure")
    ns = ap.parse_args(args)
    folder = Path(ns.input)
    if not folder.is_dir():
        print(f"no input folder {folder}", file=sys.stderr)
        return 2
    files = sorted(str(p) for p in folder.iterdir() if p.name.endswith((".xml.gz", ".xml")))
    if ns.limit:
        files = files[: ns.limit]
    print(f"input: {len(files)} files from {folder}  (cpus: {os.cpu_count()}, best of {ns.repeat})")
    with tempfile.TemporaryDirectory(prefix="bench-audit-") as t:
        tmp = Path(t)
        if not ns.skip_speed:
            rounds = _rounds(ns.repeat, ns.jobs, files, tmp)
            lx, one, par = (
                min(kind, key=lambda r: r["seconds"]) for kind in zip(*rounds, strict=True)
            )
            hands = one["hands"]
            print(f"bare lxml parse:      {lx['seconds']:8.2f} s  ({lx['elements']} elements)")
            print(
                f"audit, 1 job:         {one['seconds']:8.2f} s  "
                f"{one['files'] / one['seconds']:7.1f} files/s  {hands / one['seconds']:8.0f} hands/s"
                f"  (errors {one['files_error']}, findings {one['findings']})"
            )
            print(
                f"audit, {ns.jobs} jobs:        {par['seconds']:8.2f} s  "
                f"{par['files'] / par['seconds']:7.1f} files/s  {par['hands'] / par['seconds']:8.0f} hands/s"
            )
            print(f"audit / lxml ratio:   {one['seconds'] / lx['seconds']:8.2f} x  (target <= 4)")
            print(
                f"speed-up {ns.jobs} jobs:     {one['seconds'] / par['seconds']:8.2f} x  (target >= 1.8)"
            )
            pairs = sorted(o["seconds"] / p["seconds"] for _, o, p in rounds)
            print(
                f"speed-up by round:    {' / '.join(f'{r:.2f}' for r in pairs)} x"
                f"  (median {statistics.median(pairs):.2f}: each round's 1 job over its {ns.jobs} jobs)"
            )
        if not ns.skip_memory:
            for times in (1, 4):
                inp = _copies(files, tmp, times)
                m = _run_child("memory", ns.jobs, inp, tmp, ns.formats)
                tree = f"{m['tree_peak_mb']:7.0f} MB" if m["tree_peak_mb"] else "    n/a"
                print(
                    f"memory {times}x ({len(inp)} files, {ns.jobs} jobs): parent {m['self_maxrss_mb']:6.0f} MB, "
                    f"largest worker {m['worker_maxrss_mb']:6.0f} MB, whole tree {tree}  "
                    f"({m['seconds']:.1f} s, writing {ns.formats})"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
