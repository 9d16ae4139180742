"""Old import paths (before the layout by layers, issue 18) keep working for one
release: each resolves to the module that now holds its names, the same object,
with a DeprecationWarning naming the new path."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
import types
import warnings

import pytest

import replay_audit
from replay_audit._compat import MOVED


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_old_path_is_the_new_module_with_a_warning(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new
    assert module.__spec__ is not None and module.__spec__.name == new


def test_the_warning_points_at_the_importing_line() -> None:
    sys.modules.pop("replay_audit.tiles", None)
    with pytest.warns(DeprecationWarning) as caught:
        import replay_audit.tiles  # noqa: F401
    assert caught[0].filename == __file__


def test_old_names_import_from_old_paths() -> None:
    """The names users imported from the old modules, by the old paths."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from replay_audit.audit import FileAudit, audit_file
        from replay_audit.html import render_page
        from replay_audit.report_read import read_report
        from replay_audit.report_stream import write_json
        from replay_audit.rules import PRESETS, RuleSet, rules_for_csrule, rules_for_go_type
        from replay_audit.runner import (
            INDEX_NAME,
            PARTS_DIR,
            StoredAuditReport,
            audit_files,
            code_fingerprint,
            run_audit,
        )
        from replay_audit.tiles import parse_tiles
    assert callable(audit_file) and FileAudit.__name__ == "FileAudit"
    assert isinstance(PRESETS["tenhou-4p"], RuleSet)
    assert rules_for_go_type(169).name == PRESETS["tenhou-4p"].name
    assert callable(rules_for_csrule) and callable(render_page) and callable(read_report)
    assert callable(write_json) and callable(run_audit) and callable(audit_files)
    assert callable(code_fingerprint) and StoredAuditReport.__name__ == "StoredAuditReport"
    assert (INDEX_NAME, PARTS_DIR) == ("index.jsonl", "parts")
    assert parse_tiles("1m")


def test_paths_that_became_packages_need_no_alias() -> None:
    """``io``, ``replay``, ``report``, ``cli`` and the two parsers kept their names as
    packages that re-export the old modules' names, without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        from replay_audit.cli import EXIT_CLEAN, main
        from replay_audit.io import iter_games, read_log
        from replay_audit.parsers.tenhou_json import parse_tenhou_json
        from replay_audit.parsers.tenhou_xml import parse_tenhou_xml
        from replay_audit.replay import GameReplay, replay_game
        from replay_audit.report import TABLES, AuditReport, audit
    assert EXIT_CLEAN == 0 and callable(main) and callable(iter_games) and callable(read_log)
    assert callable(parse_tenhou_json) and callable(parse_tenhou_xml)
    assert callable(replay_game) and GameReplay.__name__ == "GameReplay"
    assert "files" in TABLES and callable(audit) and AuditReport.__name__ == "AuditReport"


def test_the_audit_function_survives_the_old_audit_module() -> None:
    """``replay_audit.audit`` stays the function when ``replay_audit.audit`` (the old
    module path, now an alias of ``auditing``) is imported."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        importlib.import_module("replay_audit.audit")
    assert callable(replay_audit.audit)
    assert not isinstance(replay_audit.audit, types.ModuleType)


def test_new_paths_import_without_warnings() -> None:
    """The package never goes through its own old paths: importing every module of
    the new layout warns about nothing."""
    script = textwrap.dedent(
        """
        import importlib, pkgutil, warnings
        warnings.simplefilter("error", DeprecationWarning)
        import replay_audit
        for m in pkgutil.walk_packages(replay_audit.__path__, "replay_audit."):
            if not m.name.endswith(("dask_engine", "__main__")):
                importlib.import_module(m.name)
        print("ok")
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"
