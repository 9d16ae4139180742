"""Issue 17, a new user's first hour: the library names, payments of three-player
tables without tsumo loss, and Toutenkou wins explained."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from replay_audit.model.rules.presets import PRESETS, with_overrides
from replay_audit.scoring.explain import explain
from replay_audit.scoring.hand import context_from_notation, score_win
from replay_audit.scoring.payments import win_deltas

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def test_every_exported_name_is_what_it_says_every_time() -> None:
    """``replay_audit.audit`` stays the function after the submodule of that name is
    imported, whichever way it is imported; checked in a fresh interpreter, where
    the first import is what used to replace it."""
    script = textwrap.dedent(
        f"""
        import importlib, pkgutil, types
        import replay_audit
        log = {str(FIXTURES / "4p_double_yakuman.xml")!r}
        first = replay_audit.audit([log])
        second = replay_audit.audit([log])
        assert len(first.files) == len(second.files) == 1
        from replay_audit import audit
        assert callable(audit) and not isinstance(audit, types.ModuleType), audit
        from replay_audit.audit import audit_file  # the old path still works
        assert audit_file.__module__.startswith("replay_audit.auditing."), audit_file.__module__
        for m in pkgutil.walk_packages(replay_audit.__path__, "replay_audit."):
            if not m.name.endswith(("dask_engine", "cli")):
                importlib.import_module(m.name)
        for name in replay_audit.__all__:
            value = getattr(replay_audit, name)
            assert not isinstance(value, types.ModuleType), name
            home = importlib.import_module(replay_audit._EXPORTS[name])
            assert value is getattr(home, name), name
        assert replay_audit.audit([log]).files["status"].tolist() == ["ok"]
        print("ok")
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"


# ---------------------------------------------------------------- payments


def test_three_player_without_tsumo_loss_pays_the_north_share_once() -> None:
    """A non-dealer mangan tsumo under 3-player rules that split the North's share
    takes 5,000 + 3,000 = 8,000, not 11,000; the deltas have three entries."""
    rules = with_overrides(PRESETS["tenhou-3p"], {"tsumo_loss": False, "name": "north-split"})
    ctx = context_from_notation(
        "123p456p789p11s99s",
        "9s",
        tsumo=True,
        seat=1,
        dealer=0,
        players=3,
        riichi=True,
        ippatsu=True,
    )
    value = score_win(ctx, rules)
    assert value.limit == 1  # riichi ippatsu tsumo ittsu: mangan
    d = win_deltas(
        value,
        winner=1,
        from_seat=1,
        dealer=0,
        players=3,
        honba=0,
        sticks=0,
        first_winner=True,
        pao_seat=None,
        rules=rules,
    )
    assert d == (-5000, 8000, -3000)
    assert value.points == 8000


def test_four_player_deltas_keep_four_entries() -> None:
    ctx = context_from_notation("234m345p456s2267s", "8s", tsumo=True, seat=1, dealer=0)
    v = score_win(ctx, PRESETS["tenhou-4p"])
    d = win_deltas(
        v,
        winner=1,
        from_seat=1,
        dealer=0,
        players=4,
        honba=0,
        sticks=0,
        first_winner=True,
        pao_seat=None,
        rules=PRESETS["tenhou-4p"],
    )
    assert d == (-1300, 2700, -700, -700)


# ---------------------------------------------------------------- Toutenkou


def test_explain_counts_a_toutenkou_win_in_points() -> None:
    ctx = context_from_notation(
        "123p456p789s1s777z", "1s", tsumo=True, seat=1, dealer=0, players=3, melds=["kita:4z"]
    )
    text = explain(ctx, score_win(ctx, PRESETS["toutenkou"]))
    assert text.splitlines() == [
        "menzen tsumo 1",
        "chun 1",
        "menzen 1",
        "gari 1",
        "banban 2",
        "6 points per payer",
        "tsumo: each of 2 pays 6 points",
    ]


def test_explain_command_on_a_toutenkou_log() -> None:
    from replay_audit.cli import main

    assert main(["explain", str(FIXTURES / "toutenkou_north_gari.xml")]) == 0
