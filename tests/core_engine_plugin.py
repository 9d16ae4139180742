"""A pytest plugin: the compiled core as the scoring engine (``-p tests.core_engine_plugin``).

``tests/test_core_scoring.py`` runs the scoring golden tests a second time with it, so
the same expectations hold for both engines without a second copy of those tests.
Before any test module is imported, it replaces ``replay_audit.scoring.hand.score_win``
and ``replay_audit.scoring.payments.win_deltas`` with ``replay_audit.scoring.core``'s
functions (which fall back to the Python ones they bound first, for Toutenkou and
declined inputs), so every ``from replay_audit.scoring.hand import score_win`` in a test,
and every caller that looks the function up when it runs, gets the core.  With
``CORE_ENGINE_COUNTS`` set, it writes how many calls the core could answer.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest

COUNTS: Counter[str] = Counter()


def pytest_configure(config: pytest.Config) -> None:
    from replay_audit.scoring import core as scoring_core
    from replay_audit.scoring import hand, payments

    scoring_core._Python.load()  # bind the Python engine before it is swapped out

    def score_win(ctx: Any, rules: Any) -> Any:
        COUNTS["score_win"] += 1
        if scoring_core.core_rules(rules) is not None:
            COUNTS["score_win_core"] += 1
        return scoring_core.score_win(ctx, rules)

    def win_deltas(value: Any, **kwargs: Any) -> Any:
        COUNTS["win_deltas"] += 1
        if scoring_core.core_rules(kwargs["rules"]) is not None:
            COUNTS["win_deltas_core"] += 1
        return scoring_core.win_deltas(value, **kwargs)

    hand.score_win = score_win  # type: ignore[assignment]
    payments.win_deltas = win_deltas  # type: ignore[assignment]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("CORE_ENGINE_COUNTS")
    if path:
        keys = ("score_win", "score_win_core", "win_deltas", "win_deltas_core")
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(f"{key} {COUNTS[key]}\n" for key in keys)
