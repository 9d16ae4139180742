"""The resume key of one file: its content, its rules and the code that audits it.

Owns ``Worker`` (the per-file function a run calls), ``rules_key``, the
fingerprints of the package's sources (``code_fingerprint``), ``work_key`` and
``file_sha256``.  A rerun reuses a file's rows only when every part of the key is
equal.

Must not: read or write the store, or audit anything.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit
from replay_audit.model.rules.ruleset import RuleSet

Worker = Callable[..., FileAudit]
"""``worker(path, rules, strict=...) -> FileAudit``; top-level so it pickles.  The
package's own workers also take ``stored_digest=True`` (``run.chunk._DIGESTING``)."""


def rules_key(rules: RuleSet | None) -> tuple[str, str]:
    """(name, fingerprint) of the rules a file is audited under.

    The fingerprint catches two rule sets with one name but different fields (a
    preset with ``--rule`` overrides); ``None`` means "detect per game" (``auto``).
    """
    if rules is None:
        return "auto", "auto"
    return rules.name, hashlib.sha256(repr(rules).encode()).hexdigest()[:16]


def sources_fingerprint(root: Path) -> str:
    """A hash of every ``.py`` and ``.toml`` file under ``root``: names and bytes."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml") and p.is_file()):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


@functools.cache
def code_fingerprint() -> str:
    """The auditor's own code: ``sources_fingerprint`` of this package.

    A result is only as good as the code that computed it, so a resumed run must not
    reuse rows written by another version (a fixed scoring bug would otherwise stay
    in the report); ``SCHEMA_VERSION`` alone only changes when the tables do. The
    hash costs a few milliseconds, once per process.
    """
    return sources_fingerprint(Path(__file__).resolve().parents[1])


def work_key(worker: Worker) -> str:
    """The code half of the resume key: the package's sources and, for any worker
    but ``audit_file``, the worker's name, so rows of a parse-and-replay check
    (``validate_file``) are never taken for a full audit's, nor the reverse."""
    if worker is audit_file:
        return code_fingerprint()
    # the bare name: a module's name depends on how it was imported (a test module
    # is ``tests.test_x`` under pytest and ``test_x`` in a script)
    name = getattr(worker, "__qualname__", None) or type(worker).__qualname__
    return f"{code_fingerprint()}+{name}"


def file_sha256(path: str | Path) -> str:
    """SHA-256 of the bytes on disk (compressed or not): the content half of the key.

    For an archive member (``"<db>::<log_id>"``, see ``archive``) it is the row's
    stored content, so changing one row re-audits that log alone.
    """
    from replay_audit.io.archive import split_member, stored_bytes
    from replay_audit.model.errors import LogFormatError

    member = split_member(path)
    if member is not None:
        try:
            return hashlib.sha256(stored_bytes(*member)).hexdigest()
        except LogFormatError as exc:  # missing row, no content: unreadable, like a file
            raise OSError(str(exc)) from exc
    h = hashlib.sha256()
    with open(path, "rb", buffering=0) as f:  # (a log is read in one call: no buffer)
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()
