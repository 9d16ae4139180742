"""Rule-variant fixtures (issue #7): each hand-made game audits clean under the rules
it was written for and produces findings of the expected kind under the wrong ones.

The fixtures in ``fixtures/`` were written by hand; every recorded value (``ten``,
``yaku``, ``sc``, ``owari``) was worked out from the rules, and the hand values are
cross-checked here against the ``mahjong`` package (2.1.0), never against our engine.

* ``3p_kita_tsumo_loss_2024...gm-00b9-...xml`` (GO 185, Tenhou three-player): E1 seat 1
  sets a North aside (kita, replacement draw) and wins by tsumo, menzen tsumo +
  nukidora, 30 fu 2 han = 1000 + 500 (tsumo loss: 1500, not 2000); E2 an exhaustive
  draw with two tenpai (2000 pool: -2000 / +1000 / +1000); E2-1 a daisangen ron with
  one honba (32000 + 200) that busts seat 0; owari exact to 0.1 (2024 id in the name).
* ``4p_double_yakuman.xml`` (GO 169): suuankou tanki + tsuuiisou ron, Tenhou's
  cumulative single count (``yakuman="41,42"``, 64000); seat 2 busts.
* ``toutenkou_north_gari.xml`` (GO 2064 = 0x810: COM table, tonpuu, three players,
  red fives, open tanyao, Toutenkou): three wins, two with a North set aside as gari.
  No real Toutenkou log exists, so this project fixes how its values are recorded:
  one Toutenkou point is written where Tenhou writes hundreds (INIT ``ten``, ``sc``,
  ``owari`` scores; the game starts at ``ten="0,0,0,0"``), AGARI ``ten`` is
  ``0,points x 100,0`` (no fu, no limit; a tsumo's total covers both payers), and
  ``yaku`` lists the regular yaku and dora with their han as points followed by the
  bonus ids 55-66 with their points (56 menzen, 57 ron, 62 gari, 66 banban, ...).
  The ``owari`` points are what the preset's zero start/return/uma/oka give:
  the score in log units / 1000.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit
from replay_audit.cli import EXIT_CLEAN, EXIT_MISMATCH, main
from replay_audit.model.rules.presets import load_rules
from replay_audit.parsers.tenhou_xml import parse_tenhou_xml

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SANMA = FIXTURES / "3p_kita_tsumo_loss_2024030112gm-00b9-0000-3a7c0f19.xml"
DOUBLE_YAKUMAN = FIXTURES / "4p_double_yakuman.xml"
TOUTENKOU = FIXTURES / "toutenkou_north_gari.xml"
TOUTENKOU_MANZU = FIXTURES / "toutenkou_manzu_gari.xml"
SITE_RULES = Path(__file__).resolve().parents[1] / "replay_audit" / "rulefiles" / "sanma-site.toml"


def _fields(fa: FileAudit) -> set[tuple[str, str]]:
    return {(f["category"], f["field"]) for f in fa.findings}


def _clean(fa: FileAudit, rules: str, results: int) -> None:
    assert fa.status == "ok", fa.findings
    assert fa.findings == []
    assert fa.games[0]["rules"] == rules
    assert len(fa.hands) == results
    for row in fa.hands:
        assert row["comp_deltas"] == row["rec_deltas"]


# ------------------------------------------------------------ three-player Tenhou


def test_3p_kita_tsumo_loss_game_audits_clean_under_detected_tenhou_3p() -> None:
    fa = audit_file(SANMA)
    _clean(fa, "tenhou-3p", 3)
    tsumo, draw, ron = fa.hands
    assert (tsumo["result"], tsumo["comp_points"], tsumo["comp_deltas"]) == (
        "tsumo",
        1500,
        "-1000,1500,-500",
    )
    assert tsumo["comp_yaku"] == "0,1,52,1"  # menzen tsumo + the kita folded into dora
    assert (draw["result"], draw["comp_deltas"]) == ("exhaustive", "-2000,1000,1000")
    assert (ron["honba"], ron["comp_deltas"]) == (1, "-32200,0,32200")


def test_3p_game_under_site_rules_flags_the_1000_point_honba() -> None:
    fa = audit_file(SANMA, str(SITE_RULES))
    assert fa.status == "mismatch"
    deltas = {(f["hand"], f["seat"], f["recorded"], f["computed"]) for f in fa.findings}
    assert ("E2-1", 0, "-32200", "-33000") in deltas
    assert ("payment", "delta") in _fields(fa)
    assert ("final", "final_score") in _fields(fa)


def test_3p_game_under_majsoul_3p_flags_the_uma() -> None:
    fa = audit_file(SANMA, "majsoul-3p")
    assert _fields(fa) == {("final", "final_points")}


def test_3p_game_under_tenhou_4p_is_reported_not_audited() -> None:
    fa = audit_file(SANMA, "tenhou-4p")
    assert fa.status == "mismatch"
    assert _fields(fa) == {("rules", "players")}


# ----------------------------------------------------------------- double yakuman


def test_4p_double_yakuman_audits_clean_under_tenhou_cumulative_count() -> None:
    fa = audit_file(DOUBLE_YAKUMAN)
    _clean(fa, "tenhou-4p", 1)
    assert fa.hands[0]["comp_points"] == 64000
    assert fa.hands[0]["comp_yaku"] == "41,42"


def test_4p_double_yakuman_under_majsoul_counts_suuankou_tanki_twice() -> None:
    fa = audit_file(DOUBLE_YAKUMAN, "majsoul-4p")
    points = [f for f in fa.findings if (f["category"], f["field"]) == ("hand_value", "points")]
    assert [(p["recorded"], p["computed"]) for p in points] == [("64000", "96000")]
    assert ("payment", "delta") in _fields(fa)


def test_4p_double_yakuman_under_single_yakuman_cap() -> None:
    rules = load_rules("tenhou-4p", {"yakuman": "single"})
    fa = audit_file(DOUBLE_YAKUMAN, rules)
    points = [f for f in fa.findings if (f["category"], f["field"]) == ("hand_value", "points")]
    assert [(p["recorded"], p["computed"]) for p in points] == [("64000", "32000")]


def test_cli_audit_exit_codes_follow_the_preset(tmp_path: Path) -> None:
    common = ["-q", "-j", "1", "--format", "csv"]
    ok = main(["audit", str(DOUBLE_YAKUMAN), *common, "--out", str(tmp_path / "a")])
    bad = main(
        [
            "audit",
            str(DOUBLE_YAKUMAN),
            "--rules",
            "majsoul-4p",
            *common,
            "--out",
            str(tmp_path / "b"),
        ]
    )
    assert (ok, bad) == (EXIT_CLEAN, EXIT_MISMATCH)


# ---------------------------------------------------------------------- Toutenkou


def test_toutenkou_game_audits_clean_under_detected_toutenkou() -> None:
    fa = audit_file(TOUTENKOU)
    _clean(fa, "toutenkou", 3)
    assert [h["comp_points"] for h in fa.hands] == [1300, 1200, 1700]
    assert [h["comp_deltas"] for h in fa.hands] == [
        "0,1300,-1300",
        "-600,-600,1200",
        "1700,-1700,0",
    ]


def test_toutenkou_game_under_tenhou_3p_scores_han_and_fu_instead() -> None:
    fa = audit_file(TOUTENKOU, "tenhou-3p")
    fields = _fields(fa)
    assert {("hand_value", "points"), ("hand_value", "yaku"), ("payment", "delta")} <= fields
    assert all(f["category"] != "replay" for f in fa.findings)


def test_toutenkou_manzu_gari_red_five_set_aside_counts_twice() -> None:
    """1m and red 5m set aside (gari 2 + the red gari's extra point, id 61) and a 5m
    indicator that makes nothing dora: haku 1 + menzen 1 + ron 8 + 3 + banban 2 = 15."""
    fa = audit_file(TOUTENKOU_MANZU)
    assert fa.status == "ok", fa.findings
    assert fa.hands[0]["comp_points"] == 1500


# ------------------------------------------- hand values against the mahjong package


def _mahjong_value(
    tiles: tuple[int, ...],
    win: int,
    *,
    tsumo: bool,
    dora: tuple[int, ...],
    seat_wind: int,
    three: bool = False,
    nuki: int = 0,
) -> tuple[int, int, int]:
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

    config = HandConfig(
        is_tsumo=tsumo,
        player_wind=EAST + seat_wind,
        round_wind=EAST,
        num_nuki_dora=nuki,
        options=OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=True,
            has_double_yakuman=False,
            is_three_player=three,
        ),
    )
    r = HandCalculator().estimate_hand_value(
        list(tiles), win, dora_indicators=list(dora), config=config
    )
    assert r.error is None, r.error
    return r.han, r.fu, r.cost["total"]


def _wins(path: Path) -> list:
    from replay_audit.model.events import RecordedWin

    game = parse_tenhou_xml(path.read_bytes(), str(path))
    return [ev for h in game.hands for ev in h.events if isinstance(ev, RecordedWin)]


def test_recorded_hanfu_values_agree_with_the_mahjong_package() -> None:
    kita_tsumo, daisangen = _wins(SANMA)
    han, fu, _ = _mahjong_value(
        kita_tsumo.hand, kita_tsumo.win_tile, tsumo=True, dora=(1,), seat_wind=1, three=True, nuki=1
    )
    assert (han, fu) == (kita_tsumo.han, kita_tsumo.fu) == (2, 30)
    han, _, cost = _mahjong_value(
        daisangen.hand, daisangen.win_tile, tsumo=False, dora=(2,), seat_wind=1, three=True
    )
    assert (han, cost) == (13, daisangen.points) == (13, 32000)
    (double,) = _wins(DOUBLE_YAKUMAN)
    han, _, cost = _mahjong_value(
        double.hand, double.win_tile, tsumo=False, dora=(60,), seat_wind=1
    )
    assert (han, cost) == (26, double.points) == (26, 64000)


def test_toutenkou_regular_yaku_han_agree_with_the_mahjong_package() -> None:
    """The regular part of each Toutenkou win (yaku ids < 55) is plain riichi han; the
    gari set aside are left out of the mahjong package's count (they are bonuses)."""
    seat_winds = (1, 1, 1)  # winner relative to the dealer in E1, E2 and E3
    for ev, wind in zip(_wins(TOUTENKOU), seat_winds, strict=True):
        regular = sum(h for i, h in ev.yaku if i < 55)
        han, _, _ = _mahjong_value(
            ev.hand, ev.win_tile, tsumo=ev.tsumo, dora=ev.dora, seat_wind=wind, three=True
        )
        assert han == regular


# ----------------------------------------------------------------- corpus sanma


@pytest.mark.corpus
def test_corpus_three_player_games_audit_clean_under_tenhou_3p(corpus: Path) -> None:
    paths = sorted((corpus / "tenhou-xml" / "excerpts").glob("*00b9*"))
    assert paths
    for p in paths:
        fa = audit_file(p, "tenhou-3p")
        assert fa.status == "ok", (p.name, fa.findings[:3])
        assert fa.games[0]["players"] == 3
