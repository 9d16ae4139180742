"""The per-file worker: read one file, audit each of its games, return rows.

``audit_file`` reads and parses the file (``io``, ``parsers``), audits each game
(``auditing.game``), adds the per-player facts (``stats.facts``) and returns a
``FileAudit`` of plain rows, so it pickles cheaply to process pools and Dask
workers.  In lenient mode nothing raises: an unreadable file becomes one
``parse`` finding and status ``error``.

Must not: compute a value (the replayer and the scorer do) or write a report.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
from pathlib import Path, PurePath
from typing import Any, Protocol

from replay_audit.auditing.game import HandsSink, _finding_row, _game_row, audit_game
from replay_audit.auditing.lobby import TONPUU
from replay_audit.auditing.rows import FileAudit
from replay_audit.io.read import read_stored
from replay_audit.model.errors import LogFormatError
from replay_audit.model.events import (
    Game,
)
from replay_audit.model.findings import INFO, Finding
from replay_audit.model.rules.presets import load_rules
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.parsers.sniff import sniff_format
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
from replay_audit.parsers.tenhou_xml.from_columns import game_from_core
from replay_audit.stats.file_facts import file_facts

# The cyclic garbage collector is held while one file is audited.  A Phoenix
# log becomes thousands of small objects (events, melds, contexts, rows) and none of them
# form cycles, yet every 700 allocations the collector walks the young generation, and
# the older ones as they fill: about a tenth of the audit time, measured on the corpus,
# for nothing collected.  Collection resumes after the file (any cycle an error
# traceback left is then freed).  If the caller has the collector off, it stays off.
# Written out in audit_file and validate_file rather than as a context manager, whose
# generator cost about 2 microseconds a file.


class FactsSink(Protocol):
    """Where the runner's part takes one file's per-player facts straight from the
    core (``report.part_rows.PartRows.facts_sink``), without a dict per row."""

    def take(self, game: Game, source: str) -> list[dict[str, Any]] | None:
        """Write ``game``'s hand facts and score history (``source`` the file) and give
        its game facts' rows; None, nothing written, where the rows are to be made
        as dicts after all (``stats.file_facts.file_facts``)."""

    def drop(self) -> None:
        """Take back what ``take`` wrote: the file failed after it."""


def audit_file(
    path: str | Path,
    rules: RuleSet | str | None = None,
    *,
    strict: bool = False,
    with_facts: bool = True,
    stored_digest: bool = False,
    facts_sink: FactsSink | None = None,
    hands_sink: HandsSink | None = None,
) -> FileAudit:
    """Audit every game in one file.  Never raises in lenient mode: an unreadable
    file becomes one ``parse`` finding and status ``error``.

    ``stored_digest`` also sets ``FileAudit.stored_sha256``, the digest of the bytes
    as stored (before any gunzip): the runner's resume key (``run.chunk``), taken
    from this one read.  Nobody else needs it, and for a gzip file it is a second
    hash, so it is taken only when asked for.

    ``facts_sink`` (the runner's, when it writes parts): the hand facts and score
    history go there instead of the ``FileAudit``, whose two lists stay empty; where
    the sink does not take them, they are the ``FileAudit``'s as without it.

    ``hands_sink`` (the same runner's, for this file): the ``hands`` rows the core
    makes in a game's one call go there, counted in ``FileAudit.hands_written``
    instead of being in ``FileAudit.hands``; the rest are the ``FileAudit``'s."""
    args = (path, rules, strict, with_facts, False, stored_digest, facts_sink, hands_sink)
    if not gc.isenabled():  # the caller has the collector off: it stays off
        return _audit_file(*args)
    gc.disable()  # see the note above audit_file
    try:
        return _audit_file(*args)
    finally:
        gc.enable()


def validate_file(
    path: str | Path,
    rules: RuleSet | str | None = None,
    *,
    strict: bool = False,
    stored_digest: bool = False,
) -> FileAudit:
    """Read, parse and replay one file, without scoring: a quick check that a
    download is whole and consistent (``replay-audit validate``).  Its findings
    are the ``parse`` and replay findings ``audit_file`` reports for the file;
    ``stored_digest`` as there."""
    if not gc.isenabled():
        return _audit_file(path, rules, strict, False, True, stored_digest)
    gc.disable()  # see the note above audit_file
    try:
        return _audit_file(path, rules, strict, False, True, stored_digest)
    finally:
        gc.enable()


def _audit_file(
    path: str | Path,
    rules: RuleSet | str | None,
    strict: bool,
    with_facts: bool,
    replay_only: bool = False,
    stored_digest: bool = False,
    sink: FactsSink | None = None,
    hands_sink: HandsSink | None = None,
) -> FileAudit:
    if isinstance(path, PurePath):  # its text once: the name and os.open both read it
        path = str(path)
    p = display_name(path)
    fa = FileAudit(path=p)
    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    stage = "parse"
    try:
        stored, data = read_stored(path)
        fa.sha256 = hashlib.sha256(data).hexdigest()
        if stored_digest:
            fa.stored_sha256 = fa.sha256 if stored is data else hashlib.sha256(stored).hexdigest()
        fa.format = sniff_format(data)
        game = _parse(data, p, fa.format, strict)
        stage = "replay"
        try:
            _audit_parsed(fa, game, rule_set, strict, with_facts, replay_only, sink, hands_sink)
        except Exception:
            if sink is not None:  # any facts it took are of a file that failed
                sink.drop()
            raise
    except LogFormatError as exc:
        exc.located(source=p)
        if strict:
            raise
        fa.status = "error"
        fa.error = str(exc)
        fa.findings.append(
            _finding_row(
                Finding(
                    category="parse",
                    field=type(exc).__name__,
                    message=exc.message,
                    file=p,
                    log_id=exc.log_id,
                    hand=exc.hand,
                    seq=exc.index,
                )
            )
        )
        return fa
    except OSError as exc:
        if strict:
            raise
        fa.status = "error"
        fa.error = f"{p}: cannot read: {exc}"
        fa.findings.append(_finding_row(Finding("parse", "unreadable", str(exc), file=p)))
        return fa
    except Exception as exc:  # lenient batches never stop on one file
        if strict:
            raise
        message = f"internal error while auditing ({type(exc).__name__}): {str(exc)[:300]}"
        fa.status = "error"
        fa.error = f"{p}: {message}"
        fa.games.clear()
        fa.hands.clear()
        if hands_sink is not None:  # the rows it took go as ``hands`` did
            hands_sink.drop()
        fa.hands_written = 0
        fa.hand_facts.clear()
        fa.game_facts.clear()
        fa.score_history.clear()
        fa.findings.append(_finding_row(Finding(stage, "internal_error", message, file=p)))
    return fa


def display_name(path: str | Path) -> str:
    """The path as reported: a name that is not valid UTF-8 keeps its bytes as
    escapes, so the report tables (CSV, Parquet) can always hold it."""
    text = path if type(path) is str else str(path)
    if text.isascii():  # (nearly every name: nothing to escape, no round trip)
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _audit_parsed(
    fa: FileAudit,
    game: Game,
    rule_set: RuleSet | None,
    strict: bool,
    with_facts: bool,
    replay_only: bool = False,
    sink: FactsSink | None = None,
    hands_sink: HandsSink | None = None,
) -> None:
    p = fa.path
    findings, hand_rows, used = audit_game(
        game, rule_set, replay_only=replay_only, hands_sink=hands_sink
    )
    game_row = _game_row(game, used, findings, hand_rows)
    fa.games.append(game_row)
    fa.hands += hand_rows
    if hands_sink is not None and hands_sink.rows:  # the rows the part took: results too
        fa.hands_written = hands_sink.rows
        game_row["results"] += hands_sink.rows
    if findings:  # most files have none: their checks are skipped
        problems = [f for f in findings if f.category != INFO]
        if strict and problems:
            first = problems[0]
            raise LogFormatError(
                first.message, source=p, log_id=first.log_id, hand=first.hand, index=first.seq
            )
        fa.findings.extend(_finding_row(f) for f in findings)
        damage = [f for f in findings if f.category == "parse"]
        if damage:
            fa.status = "error"
            fa.error = _cause(p, damage)
        elif problems:
            fa.status = "mismatch"
    if with_facts:
        _add_facts(fa, _as_read(game, findings), sink)


def _as_read(game: Game, findings: list[Finding]) -> Game:
    """``game`` with the length its audit read off the log (a Mahjong Soul room that
    does not name it: the ``inferred_length`` note computing ``tonpuu``,
    ``auditing.lobby``), so the facts group it with the games of that length."""
    for f in findings:
        if f.field == "inferred_length" and f.computed == TONPUU and game.meta.hanchan:
            return dataclasses.replace(game, meta=dataclasses.replace(game.meta, hanchan=False))
    return game


def _cause(path: str, damage: list[Finding]) -> str:
    """The ``error`` of a partly read file: its first located damage (a bad seat or
    tile, in hand and event), before what follows from it (the game then ends
    without a result), in the words of ``LogFormatError``."""
    first = min(damage, key=lambda f: (f.hand is None and f.seq is None, f.hand_index or 0))
    return LogFormatError(
        first.message, source=path, log_id=first.log_id, hand=first.hand, index=first.seq
    ).describe()


def _parse(data: bytes, source: str, fmt: str, strict: bool) -> Game:
    if fmt == "tenhou-json":
        from replay_audit.parsers.tenhou_json import parse_tenhou_json

        return parse_tenhou_json(data, source, strict=strict)
    # the core's lazy build: the hands' draws and discards are not made as objects
    # (the audit's readers read them as the core keeps them); what it declines, the
    # Python reader reads (and refuses), as parse_tenhou_xml would after it
    game = game_from_core(data, source, lazy=True)
    if game is not None:
        return game
    return parse_tenhou_xml(data, source, strict=strict, engine="python")


def _add_facts(fa: FileAudit, game: Game, sink: FactsSink | None) -> None:
    """Per-player facts for the statistics layer: its three tables from one call
    (``stats.file_facts``), or the game facts only where ``sink`` takes the other two.
    Only the fact modules are imported: the ``stats`` package's aggregation needs
    pandas, whose import costs more than the facts of hundreds of files."""
    if sink is not None:
        games = sink.take(game, fa.path)
        if games is not None:
            fa.game_facts += games
            return
    hands, games, scores = file_facts(game)
    fa.hand_facts += hands
    fa.game_facts += games
    fa.score_history += scores
