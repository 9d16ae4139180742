"""The statistics package imports pandas only for its aggregation: auditing a file
(which computes the per-player facts) never does, and every public name of
``replay_audit.stats`` still resolves, the aggregation's on first use."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import replay_audit.stats as stats
from replay_audit.stats import aggregate
from tests.conftest import FIXTURES

AGGREGATION = (
    "combine",
    "counters",
    "derive",
    "fact_frames",
    "games_table",
    "integer_counts",
    "log_day",
    "players",
)


def test_auditing_a_file_with_its_facts_imports_no_pandas() -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from replay_audit.auditing.auditor import audit_file
        import replay_audit.stats
        fa = audit_file({str(FIXTURES / "4p_riichi_double_ron.2024050112gm-00a9-0000-d0b1e2f3.xml")!r})
        assert fa.hand_facts and fa.game_facts and fa.score_history
        print("pandas" in sys.modules)
        replay_audit.stats.players  # an aggregation name: now pandas is imported
        print("pandas" in sys.modules)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["False", "True"]


def test_every_public_name_resolves_to_its_module_object() -> None:
    for name in stats.__all__:
        assert getattr(stats, name) is not None
        assert name in dir(stats)
    for name in AGGREGATION:
        assert getattr(stats, name) is getattr(aggregate, name)
    # the fact functions, not the modules of the same name
    assert stats.game_facts.__module__ == "replay_audit.stats.game_facts"
    assert callable(stats.hand_facts) and callable(stats.score_history)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_statistic"):
        stats.no_such_statistic  # noqa: B018
