"""The compiled core and the pure-Python code audit damaged and edited logs alike.

``test_core_build.py`` holds the two paths equal on the fixtures, and the
``test_core_*`` files on the corpus: clean logs.  A room of the core that takes a
wrong recorded value on trust, or finds another difference than the reference,
shows only on a log that is wrong; this test makes such logs and audits them both
ways.  The logs are the fixtures and, when the shared corpus is present, some of
its Phoenix, special and tenhou.net/6 logs, mutated by ``tests/log_mutations.py``
(bytes, elements and values broken; moves, melds, riichi, deals and results
changed while the document stays well-formed), plus, for a few clean logs, one
copy per recorded value of a result with that value edited: the games in which
nothing else is wrong are those the core audits in one call
(``auditing.game._GameAuditor._in_one_call``), where a missed decline would hide
the finding.  One folder, audited in two subprocesses, one of them under the
``NoCore`` hook (``tests/differential.py``); every report table must be the same,
file by file, and no finding may be an ``internal_error``.

Bounded: a fixed seed and one batch of some 350 logs, about 13 s.  ``REPLAY_AUDIT_DIFF_FUZZ_LOGS=5000``
runs a longer random search (batches of 300 logs, a new seed each run, printed).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from tests.conftest import CORPUS, FIXTURES
from tests.differential import audit_texts, differences
from tests.log_mutations import each_recorded_edit, mutated
from tests.logedit import read_bytes

LONG = os.environ.get("REPLAY_AUDIT_DIFF_FUZZ_LOGS")
LOGS = int(LONG or "240")
BATCH = 300
SEED = random.randrange(1 << 30) if LONG else 13
"""A fixed seed for the suite; a new one for a longer search (printed on failure)."""


def _sources() -> tuple[list[tuple[str, Path]], list[Path]]:
    """Every source log (``.xml`` or ``.json``, and its path), and the clean mjlogs
    whose recorded values are edited one at a time."""
    logs = [p for p in sorted(FIXTURES.rglob("*")) if p.suffix in (".xml", ".json")]
    clean = [FIXTURES / "4p_riichi_double_ron.2024050112gm-00a9-0000-d0b1e2f3.xml"]
    clean += [FIXTURES / "3p_kita_tsumo_loss_2024030112gm-00b9-0000-3a7c0f19.xml"]
    if CORPUS.is_dir():
        phoenix = sorted((CORPUS / "tenhou-xml" / "phoenix-2024").iterdir())
        logs += phoenix[:: max(1, len(phoenix) // 40)]
        logs += sorted((CORPUS / "tenhou-xml" / "special").iterdir())
        logs += sorted((CORPUS / "tenhou-json").rglob("*.json"))
        clean += [p for p in phoenix[:200] if b"<RYUUKYOKU ba" in read_bytes(p)][:6:2]
        clean += phoenix[1:400:100]
    return [(".json" if p.suffix == ".json" else ".xml", p) for p in logs], clean


def _stem(path: Path) -> str:
    """A source's name without its suffixes: the log id, where the name holds it,
    which dates the game (without it the rules of a game's end have two readings,
    and the auditor, not the core, audits the game)."""
    return path.name.split(".")[0]


def _write_batch(folder: Path, rng: random.Random, count: int, recorded: bool) -> dict[str, str]:
    """``count`` mutated logs written to ``folder`` (and, with ``recorded``, the
    one-edit copies of the clean logs): each file's name -> its source."""
    sources, clean = _sources()
    written: dict[str, str] = {}
    for n in range(count):
        suffix, source = rng.choice(sources)
        name = f"m{n:04d}_{_stem(source)}{suffix}"
        (folder / name).write_bytes(mutated(rng, read_bytes(source), suffix))
        written[name] = source.name
    for k, source in enumerate(clean if recorded else []):
        for n, data in enumerate(each_recorded_edit(rng, read_bytes(source), 16)):
            name = f"r{k:02d}-{n:02d}_{_stem(source)}.xml"
            (folder / name).write_bytes(data)
            written[name] = source.name
    return written


def _internal_errors(run: dict) -> list[str]:
    return [
        f"{key}: {row}"
        for key, rows in run["tables"].items()
        if key.startswith("findings|") and not key.endswith("|columns")
        for row in rows
        if "internal_error" in row
    ]


def test_core_and_python_audit_mutated_logs_alike(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    for batch in range(-(-LOGS // BATCH)):
        folder = tmp_path / f"batch{batch}"
        folder.mkdir()
        count = min(BATCH, LOGS - batch * BATCH)
        written = _write_batch(folder, rng, count, recorded=batch == 0)
        paths = sorted(folder.iterdir())
        core, python = audit_texts(paths, core=True), audit_texts(paths, core=False)
        assert "error" not in core, core.get("error")
        assert "error" not in python, python.get("error")
        diff = differences(core, python)
        where = [f"{key} (from {written.get(Path(key.split('|')[1]).name)})" for key in diff]
        assert not diff, f"seed {SEED}, batch {batch}: the two paths differ in {where}"
        crashes = _internal_errors(core) + _internal_errors(python)
        assert not crashes, f"seed {SEED}, batch {batch}: {crashes[:3]}"
