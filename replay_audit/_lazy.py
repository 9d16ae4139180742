"""Names a package re-exports, imported on first use.

A package's ``__init__`` that imported its modules eagerly made every reader of one
small module pay for the whole package (``replay-audit players`` on a stored run
imported the auditor and the replay's rooms through ``auditing`` and ``replay``).
``lazy_names`` gives such a package the module ``__getattr__`` (PEP 562) that imports
a name's module when the name is first asked for.

Must not: import any module of the package itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name of ``exports`` read from its
    submodule (``exports[name]``, relative to the package) when first asked for; any
    other name is an ``AttributeError``, as for a module without it."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
