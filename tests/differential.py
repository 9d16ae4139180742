"""Auditing one folder with the compiled core and without it, in subprocesses, for
``test_differential_fuzz.py`` and longer campaigns by hand.

The audit without the core runs under the ``NoCore`` import hook of
``test_core_build.py``: ``replay_audit._core`` cannot be imported, so every step
runs its pure-Python reference.  Each run prints every report table as its cells' text
(what the CSV writer writes), rows sorted, per file where the table names the file, so two runs compare table by
table and a difference names the log it is in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("files", "games", "hands", "findings", "hand_facts", "game_facts", "score_history")

NO_CORE = """
import importlib.abc, sys

class NoCore(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "replay_audit._core":
            raise ImportError("no compiled core in this run")
        return None

sys.meta_path.insert(0, NoCore())
"""

AUDIT = """
import json, sys, traceback
import replay_audit
from replay_audit import native

def table_texts(report):
    out = {}
    for name in TABLES:
        df = getattr(report, name)
        out[f"{name}|columns"] = [list(map(str, df.columns)), list(map(str, df.dtypes))]
        key = list(df.columns).index("file") if "file" in df.columns else None
        for row in sorted([str(x) for x in row] for row in df.values.tolist()):
            out.setdefault(f"{name}|{row[key] if key is not None else ''}", []).append(row)
    return out

paths = json.loads(sys.argv[1])
spec = json.loads(sys.argv[2])
result = {"have_core": native.HAVE_CORE}
try:
    from replay_audit.model.rules.presets import load_rules
    rules = load_rules(spec[0], spec[1]) if spec else None
    result["tables"] = table_texts(replay_audit.audit(paths, rules))
except Exception:
    result["error"] = traceback.format_exc()
print(json.dumps(result))
"""


def audit_texts(
    paths: list[Path], core: bool, rules: tuple[str, dict[str, str]] | None = None
) -> dict:
    """The report tables of ``paths`` audited in a fresh interpreter, by the compiled
    core (``core``) or by the pure-Python code alone: ``{"table|file": rows}``, or an
    ``error`` where ``audit()`` raised.  ``rules``: a preset and its ``--rule``
    overrides, for every log (None: each log's own)."""
    code = ("" if core else NO_CORE) + f"TABLES = {TABLES!r}\n" + AUDIT
    args = [json.dumps([str(p) for p in paths]), json.dumps(rules)]
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "REPLAY_AUDIT_PURE_PYTHON": "1"},
        check=False,
    )
    if proc.returncode != 0:
        return {"error": proc.stderr[-4000:]}
    out = json.loads(proc.stdout)
    assert out["have_core"] is core
    return out


def differences(a: dict, b: dict) -> list[str]:
    """The ``table|file`` keys whose rows differ (or is in one run only)."""
    if "error" in a or "error" in b:
        return ["error"]
    ta, tb = a["tables"], b["tables"]
    return sorted(k for k in set(ta) | set(tb) if ta.get(k) != tb.get(k))
