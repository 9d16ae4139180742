"""The shipped rule files for seed 004's site, next to Tenhou's 3-player preset."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from replay_audit.model.rules.presets import PRESETS, load_rules
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.final import final_points
from replay_audit.scoring.payments import exhaustive_draw_deltas, tsumo_shares

RULEFILES = Path(__file__).resolve().parents[1] / "replay_audit" / "rulefiles"
T3 = PRESETS["tenhou-3p"]
IGNORED = {"name", "notes", "extra"}


def differences(a: RuleSet, b: RuleSet) -> dict[str, tuple[object, object]]:
    out = {}
    for f in dataclasses.fields(RuleSet):
        if f.name in IGNORED:
            continue
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if va != vb:
            out[f.name] = (va, vb)
    return out


def test_every_shipped_rule_file_loads() -> None:
    files = sorted(RULEFILES.glob("*.toml"))
    assert {f.stem for f in files} == {
        "sanma-site",
        "sanma-site-10-20",
        "sanma-site-10-30",
        "sanma-site-5-15",
    }
    for f in files:
        rules = load_rules(f)
        assert rules.name == f.stem and rules.players == 3


def test_site_differs_from_tenhou_3p_only_in_honba_aborts_and_kita() -> None:
    # Seed 004: honba 1000 per ron, 500 per tsumo payer (Tenhou 200/100); no four-wind,
    # no four-riichi; nine terminals and four kans still abort (and no triple ron in 3);
    # a kita is not a call (it keeps ippatsu) and a set-aside North cannot be ronned.
    site = load_rules(RULEFILES / "sanma-site.toml")
    assert differences(T3, site) == {
        "honba_ron": (200, 1000),
        "honba_tsumo": (100, 500),
        "abortive_draws": (("yao9", "ron3", "kan4"), ("yao9", "kan4")),
        "kita_breaks_ippatsu": (True, False),
        "kita_ron": (True, False),
    }


@pytest.mark.parametrize(("lobby", "a"), [("5-15", 15), ("10-20", 20), ("10-30", 30)])
def test_site_lobbies_differ_only_in_uma(lobby: str, a: int) -> None:
    site = load_rules(RULEFILES / "sanma-site.toml")
    lobby_rules = load_rules(RULEFILES / f"sanma-site-{lobby}.toml")
    expected = {} if a == 20 else {"uma": ((20, 0, -20), (a, 0, -a))}
    assert differences(site, lobby_rules) == expected


def test_seed004_shared_numbers_hold_for_both() -> None:
    # Start 35000, return 40000, oka 15, tsumo loss, noten 2000, no chi, kita.
    for rules in (T3, load_rules(RULEFILES / "sanma-site.toml")):
        assert (rules.start_points, rules.return_points, rules.oka) == (35000, 40000, 15)
        assert rules.tsumo_loss and not rules.chi and rules.nukidora
        assert tsumo_shares(500, 300, winner=1, dealer=0, players=3, tsumo_loss=True) == (
            500,
            0,
            300,
        )
        assert exhaustive_draw_deltas([True, False, False], 3, rules) == (2000, -1000, -1000)
        _, pts = final_points((35000, 35000, 35000), 0, rules, era="exact")
        assert pts == (30.0, -5.0, -25.0)


def test_overrides_on_top_of_a_rule_file() -> None:
    rules = load_rules(RULEFILES / "sanma-site.toml", {"uma": "25,0,-25"})
    assert rules.uma == (25, 0, -25) and rules.honba_ron == 1000
