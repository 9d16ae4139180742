"""``audit(paths)``: audit files in this process and gather one ``AuditReport``.

Owns the in-memory path from inputs to report: expand the paths, run the per-file
auditor, build the tables.  The parallel, on-disk path is ``run``.

Must not: write files or hold table logic (``report.tables``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from replay_audit.auditing.rows import FileAudit
from replay_audit.model.rules.presets import load_rules
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.report.audit_report import AuditReport


def iter_file_audits(
    paths: Iterable[str | Path],
    rules: RuleSet | str | None = None,
    *,
    strict: bool = False,
    with_facts: bool = True,
) -> Iterator[FileAudit]:
    # (here: reading a stored run imports ``report`` without the audit)
    from replay_audit.auditing.auditor import audit_file
    from replay_audit.io.paths import iter_log_paths

    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    for path in iter_log_paths(paths):
        yield audit_file(path, rule_set, strict=strict, with_facts=with_facts)


def audit(
    paths: str | Path | Iterable[str | Path],
    rules: RuleSet | str | None = None,
    *,
    strict: bool = False,
) -> AuditReport:
    """Audit files, folders or globs; one ``AuditReport`` over all of them.

    ``rules`` is a ``RuleSet``, a preset name or a TOML file; ``None`` detects
    the rules of each game from the log itself.
    """
    if isinstance(paths, str | Path):
        paths = [paths]
    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    name = rule_set.name if rule_set is not None else "auto"
    return AuditReport.from_file_audits(
        iter_file_audits(paths, rule_set, strict=strict), rules=name
    )
