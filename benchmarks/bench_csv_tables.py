"""The stored CSV report's four tables written from a stored run, CPU time.

Times ``StoredAuditReport._write_csv_columns`` (``report.csv_columns.write_table_csv``
for files, games, hands and findings: the parts read back, the columns classed, the
rows sorted and written) over a stored run folder (one the runner wrote with
``--out``), best of ``--repeat`` rounds.  Run it with two interpreters in turns for
an A/B (say the system one with main installed, and a branch's venv).

    python benchmarks/bench_csv_tables.py RUN_FOLDER [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from replay_audit.report.stored import StoredAuditReport


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="a stored run's folder (the runner's --out)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    times = []
    for _ in range(args.repeat):
        report = StoredAuditReport.open(args.run)
        with tempfile.TemporaryDirectory() as folder:
            start = time.process_time()
            report._write_csv_columns(Path(folder))
            times.append(time.process_time() - start)
    shown = " ".join(f"{t:.3f}" for t in times)
    print(f"{sys.executable}: {shown} s CPU, best {min(times):.3f} s")


if __name__ == "__main__":
    main()
