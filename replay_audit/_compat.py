"""Old import paths, kept working for one release (issue 18 moved the modules).

Owns ``MOVED``, the map from each module path the package had before its layout
by layers to the module that now holds its names, and a meta-path finder that
answers an import of an old path with the new module itself (the same object, so
``isinstance`` checks and monkeypatching still act on the real thing) after a
``DeprecationWarning`` naming the new path.  ``replay_audit/__init__.py``
installs the finder.

Paths whose name did not change (``replay_audit.io``, ``replay_audit.replay``,
``replay_audit.report``, ``replay_audit.cli``, ``replay_audit.parsers.tenhou_xml``,
``replay_audit.parsers.tenhou_json``) are packages now, which re-export the old
module's names; they need no alias and warn about nothing.

Must not: import any module of the package at import time (the finder loads the
new module only when an old path is imported), or hold any other logic.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

MOVED: dict[str, str] = {
    "replay_audit.tiles": "replay_audit.model.tiles",
    "replay_audit.meld": "replay_audit.model.meld",
    "replay_audit.events": "replay_audit.model.events",
    "replay_audit.errors": "replay_audit.model.errors",
    "replay_audit.findings": "replay_audit.model.findings",
    "replay_audit.dating": "replay_audit.model.dating",
    "replay_audit.rules": "replay_audit.model.rules",
    "replay_audit.csrule": "replay_audit.model.rules.csrule",
    "replay_audit.majsoul": "replay_audit.model.rules.majsoul",
    "replay_audit.eras": "replay_audit.model.rules.eras",
    "replay_audit.shanten": "replay_audit.scoring.shanten",
    "replay_audit.hand_api": "replay_audit.scoring.hand_api",
    "replay_audit.chips": "replay_audit.scoring.chips",
    "replay_audit.era_readings": "replay_audit.auditing.era_readings",
    "replay_audit.infer_settlement": "replay_audit.auditing.infer_settlement",
    "replay_audit.lobby": "replay_audit.auditing.lobby",
    "replay_audit.audit": "replay_audit.auditing",
    "replay_audit.archive": "replay_audit.io.archive",
    "replay_audit.report_stream": "replay_audit.report.stream",
    "replay_audit.report_read": "replay_audit.report.read",
    "replay_audit.html": "replay_audit.report.html",
    "replay_audit.runner": "replay_audit.run",
    "replay_audit.dask_engine": "replay_audit.run.dask_engine",
}
"""Old module path -> the module that holds its names now."""


class _AliasLoader(importlib.abc.Loader):
    """Loads an old path as the new module: the same module object under both names."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new}; the old path works for one more release",
            DeprecationWarning,
            # warnings skips importlib's own frames: 2 is the line that imported
            stacklevel=2,
        )
        module = importlib.import_module(self.new)
        # importlib writes the alias spec on the module it gets: keep the real one
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._spec  # the module stays what it is


class AliasFinder(importlib.abc.MetaPathFinder):
    """Finds the old module paths of ``MOVED``; every other name goes on to the next finder."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (idempotent)."""
    if not any(isinstance(f, AliasFinder) for f in sys.meta_path):
        sys.meta_path.append(AliasFinder())
