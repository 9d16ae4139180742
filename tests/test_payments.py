"""Settlement of wins and draws: golden cases from the rules docs, seed 004 and real logs."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replay_audit.model.rules.detect import rules_for_go_type
from replay_audit.model.rules.presets import PRESETS, load_rules
from replay_audit.model.rules.ruleset import RuleSet
from replay_audit.scoring.context import WinValue
from replay_audit.scoring.payments import (
    base_payments,
    conservation_ok,
    draw_deltas,
    exhaustive_draw_deltas,
    nagashi_deltas,
    win_deltas,
)

T4 = PRESETS["tenhou-4p"]
T3 = PRESETS["tenhou-3p"]
MS4 = PRESETS["majsoul-4p"]
RULEFILES = Path(__file__).resolve().parents[1] / "replay_audit" / "rulefiles"
SITE = load_rules(RULEFILES / "sanma-site.toml")


def hand_base(han: int, fu: int, yakuman: int = 0) -> int:
    """Base points of a hand (test-side table, independent of the scorer)."""
    if yakuman:
        return 8000 * yakuman
    if han >= 13:
        return 8000
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    return min(2000, fu * 2 ** (2 + han))


def value(han: int, fu: int, *, yakuman: tuple[int, ...] = ()) -> WinValue:
    """A WinValue with only ``base`` set: ``win_deltas`` derives the payment split
    from it, for the dealer or not as the case may be."""
    base = hand_base(han, fu, len(yakuman))
    return WinValue(
        han=han,
        fu=fu,
        points=0,
        limit=0,
        yakuman=yakuman,
        yakuman_count=len(yakuman),
        base=base,
    )


def settle(v: WinValue, rules: RuleSet = T4, **kw: object) -> tuple[int, ...]:
    args: dict[str, object] = {
        "dealer": 0,
        "players": rules.players,
        "honba": 0,
        "sticks": 0,
        "first_winner": True,
        "pao_seat": None,
        "rules": rules,
    }
    args.update(kw)
    return win_deltas(v, **args)  # type: ignore[arg-type]


# ----------------------------------------------------------------- four-player basics


def test_non_dealer_30fu_1han_tsumo_collects_1100_in_4p() -> None:
    assert settle(value(1, 30), winner=1, from_seat=1) == (-500, 1100, -300, -300)


def test_dealer_mangan_tsumo_4000_all() -> None:
    assert settle(value(5, 30), winner=0, from_seat=0) == (12000, -4000, -4000, -4000)


def test_ron_honba_300_each_and_sticks_to_winner() -> None:
    # 3h30f non-dealer ron 3900 at 2 honba with 1 stick: +3900 + 600 + 1000.
    d = settle(value(3, 30), winner=2, from_seat=1, honba=2, sticks=1)
    assert d == (0, -4500, 5500, 0)


def test_tsumo_honba_100_per_payer() -> None:
    d = settle(value(2, 30), winner=3, from_seat=3, honba=1)
    assert d == (-1100, -600, -600, 2300)


def test_value_split_fields_take_precedence_over_base() -> None:
    # The scorer's own split is used as given (here a 4h30f kiriage mangan room).
    v = WinValue(han=4, fu=30, points=8000, limit=1, base=1920, ron_payment=8000)
    assert settle(v, winner=1, from_seat=2) == (0, 8000, -8000, 0)


# ---------------------------------------------------------------- double ron


def test_double_ron_only_first_winner_takes_honba_and_sticks() -> None:
    # 2020052700gm-00a9-0000-75a4695c, ba="2,2": first winner +10600 = 8000 + 600 + 2000,
    # second winner +1300 only.
    first = settle(value(5, 30), winner=1, from_seat=0, dealer=3, honba=2, sticks=2)
    second = settle(
        value(1, 40), winner=2, from_seat=0, dealer=3, honba=2, sticks=2, first_winner=False
    )
    assert first[1] == 10600 and first[0] == -8600
    assert second == (-1300, 0, 1300, 0)
    assert sum(first) == 2000 and sum(second) == 0


# ---------------------------------------------------------------------- pao


def test_pao_tsumo_daisangen_tsuuiisou_at_3_honba_pao_pays_64900() -> None:
    # 2019103023gm-00a9-0000-f90e0fe9: ten="50,64000,5" yakuman="39,42" paoWho="2",
    # ba="3,0", sc deltas +64900 / -64900.
    v = value(26, 50, yakuman=(39, 42))
    d = settle(v, winner=0, from_seat=0, dealer=1, honba=3, pao_seat=2)
    assert d == (64900, 0, -64900, 0)


def test_pao_tsumo_pantheon_one_honba_one_stick() -> None:
    # pantheon pao_tsumo.xml ba="1,1": pao -32300, winner +33300.
    d = settle(value(13, 40, yakuman=(39,)), winner=1, from_seat=1, dealer=0, honba=1,
               sticks=1, pao_seat=3)  # fmt: skip
    assert d == (0, 33300, 0, -32300)


def test_pao_ron_split_50_50_with_discarder() -> None:
    # pantheon pao_ron.xml: who=1 fromWho=2 paoWho=3, discarder -16000, pao -16000.
    d = settle(value(13, 40, yakuman=(39,)), winner=1, from_seat=2, pao_seat=3)
    assert d == (0, 32000, -16000, -16000)


def test_pao_ron_liable_seat_pays_all_honba() -> None:
    d = settle(value(13, 40, yakuman=(39,)), winner=1, from_seat=2, pao_seat=3, honba=2,
               sticks=1)  # fmt: skip
    assert d == (0, 33600, -16000, -16600)


def test_pao_ron_by_the_liable_seat_itself_pays_everything() -> None:
    d = settle(value(13, 40, yakuman=(39,)), winner=1, from_seat=3, pao_seat=3, honba=1)
    assert d == (0, 32300, 0, -32300)


def test_pao_who_equal_to_winner_means_no_pao() -> None:
    # tenhou.net/6 JSON writes paoWho == who when there is no pao.
    d = settle(value(13, 40, yakuman=(39,)), winner=1, from_seat=2, pao_seat=1)
    assert d == (0, 32000, -32000, 0)


def test_majsoul_pao_covers_only_the_pao_yakuman() -> None:
    # Daisangen (pao) + tsuuiisou ron: 64000, pao part 32000 split, rest on the discarder.
    d = settle(value(26, 50, yakuman=(39, 42)), rules=MS4, winner=1, from_seat=2, pao_seat=3)
    assert d == (0, 64000, -48000, -16000)


# ------------------------------------------------------------- three-player (seed 004)


def test_seed004_tsumo_loss_non_dealer_30fu_1han_collects_800() -> None:
    # "uno tsumo di un non-mazziere con 30 fu 1 han incassa 500 dal mazziere e 300
    # dall'altro, 800 in tutto."
    for rules in (T3, SITE):
        assert settle(value(1, 30), rules, winner=1, from_seat=1) == (-500, 800, -300)


def test_3p_dealer_tsumo_and_yakuman_tsumo_loss() -> None:
    assert settle(value(2, 30), T3, winner=0, from_seat=0) == (2000, -1000, -1000)
    assert sum(settle(value(13, 40, yakuman=(47,)), T3, winner=2, from_seat=2)[:3]) == 0
    assert settle(value(13, 40, yakuman=(47,)), T3, winner=2, from_seat=2)[2] == 24000
    assert settle(value(13, 40, yakuman=(47,)), T3, winner=0, from_seat=0)[0] == 32000


def test_3p_ron_is_the_four_player_amount() -> None:
    assert settle(value(6, 30), T3, winner=1, from_seat=2) == (0, 12000, -12000)
    assert settle(value(5, 30), T3, winner=0, from_seat=2) == (12000, 0, -12000)


def test_tenhou_3p_honba_200_on_ron_100_per_tsumo_payer() -> None:
    # 2014 3p log: ba="2,3", 2600 ron -> discarder -3000, winner +6000.
    v = WinValue(han=2, fu=40, points=2600, limit=0, base=640, ron_payment=2600)
    assert settle(v, T3, winner=0, from_seat=1, dealer=2, honba=2, sticks=3) == (6000, -3000, 0)
    assert settle(value(1, 30), T3, winner=1, from_seat=1, honba=1) == (-600, 1000, -400)


def test_seed004_site_honba_1000_on_ron_500_per_tsumo_payer() -> None:
    # "ogni honba aggiunge 1.000 al ron, o 500 a testa nello tsumo."
    assert settle(value(1, 30), SITE, winner=1, from_seat=2, honba=1) == (0, 2000, -2000)
    assert settle(value(1, 30), SITE, winner=1, from_seat=1, honba=2) == (-1500, 2800, -1300)


def test_3p_without_tsumo_loss_splits_the_north_share() -> None:
    rules = RuleSet(name="x", players=3, uma=(20, 0, -20), tsumo_loss=False)
    assert settle(value(5, 30), rules, winner=1, from_seat=1) == (-5000, 8000, -3000)
    assert settle(value(5, 30), rules, winner=0, from_seat=0) == (12000, -6000, -6000)


# ---------------------------------------------------------------------- draws


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        ((True, False, False, False), (3000, -1000, -1000, -1000)),
        ((True, True, False, False), (1500, 1500, -1500, -1500)),
        ((True, True, True, False), (1000, 1000, 1000, -3000)),
        ((False,) * 4, (0, 0, 0, 0)),
        ((True,) * 4, (0, 0, 0, 0)),
    ],
)
def test_4p_noten_pool_3000(tenpai: tuple[bool, ...], expected: tuple[int, ...]) -> None:
    assert exhaustive_draw_deltas(tenpai, 4, T4) == expected


@pytest.mark.parametrize("rules", [T3, SITE], ids=["tenhou-3p", "seed004-site"])
def test_seed004_3p_noten_2000_total(rules: RuleSet) -> None:
    # "Un solo giocatore in tenpai riceve 2.000 (1.000 da ciascuno degli altri); due in
    # tenpai ricevono 1.000 a testa (il giocatore noten paga 2.000)."
    assert exhaustive_draw_deltas([False, True, False], 3, rules) == (-1000, 2000, -1000)
    assert exhaustive_draw_deltas([True, False, True], 3, rules) == (1000, -2000, 1000)
    # sanma2.xml: sc="310,-10,530,20,200,-10,0,0"
    assert exhaustive_draw_deltas([False, True, False, False], 3, rules) == (-1000, 2000, -1000)


def test_nagashi_non_dealer_with_tenpai_players_still_no_noten() -> None:
    # Real tag: deltas [-2000,-2000,8000,-4000] although two players were tenpai.
    assert nagashi_deltas([False, False, True, False], 3, 4, T4) == (-2000, -2000, 8000, -4000)
    kw = {"tenpai": [True, True, False, False], "nagashi": [False, False, True, False]}
    assert draw_deltas("nm", dealer=3, players=4, rules=T4, **kw) == (-2000, -2000, 8000, -4000)


def test_nagashi_dealer_and_double_nagashi_offset() -> None:
    assert nagashi_deltas([True, False, False, False], 0, 4, T4) == (12000, -4000, -4000, -4000)
    # Dealer 0 and seat 1 both: 12000 - 2000... each paid in full.
    assert nagashi_deltas([True, True, False, False], 0, 4, T4) == (8000, 4000, -6000, -6000)


def test_3p_nagashi_uses_tsumo_loss_mangan() -> None:
    assert nagashi_deltas([False, True, False], 0, 3, T3) == (-4000, 6000, -2000)


@pytest.mark.parametrize("kind", ["yao9", "reach4", "ron3", "kan4", "kaze4"])
def test_abortive_draws_move_nothing(kind: str) -> None:
    d = draw_deltas(kind, tenpai=[True] * 4, nagashi=[True] * 4, dealer=0, players=4, rules=T4)
    assert d == (0, 0, 0, 0)


# ------------------------------------------------------------------- properties

HANFU = st.one_of(
    st.tuples(st.integers(1, 4), st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110])),
    st.tuples(st.integers(5, 13), st.just(30)),
)


@st.composite
def win_case(draw: st.DrawFn) -> dict[str, object]:
    rules = draw(st.sampled_from([T4, T3, MS4, SITE]))
    players = rules.players
    winner = draw(st.integers(0, players - 1))
    from_seat = draw(st.integers(0, players - 1))
    yakuman = draw(st.sampled_from([(), (39,), (39, 42), (49,)]))
    han, fu = draw(HANFU)
    pao = draw(st.one_of(st.none(), st.integers(0, players - 1))) if yakuman else None
    return {
        "value": value(han, fu, yakuman=yakuman),
        "winner": winner,
        "from_seat": from_seat,
        "dealer": draw(st.integers(0, players - 1)),
        "players": players,
        "honba": draw(st.integers(0, 8)),
        "sticks": draw(st.integers(0, 6)),
        "first_winner": draw(st.booleans()),
        "pao_seat": pao,
        "rules": rules,
    }


@given(win_case())
def test_win_deltas_create_only_the_first_winners_sticks(case: dict[str, object]) -> None:
    d = win_deltas(**case)  # type: ignore[arg-type]
    sticks = case["sticks"] if case["first_winner"] else 0
    assert conservation_ok(d, sticks)  # type: ignore[arg-type]
    assert len(d) == case["players"]
    winner = case["winner"]
    assert d[winner] > 0  # type: ignore[index]
    assert all(x <= 0 for s, x in enumerate(d) if s != winner)


@given(
    st.sampled_from([T4, T3, SITE]),
    st.lists(st.booleans(), min_size=4, max_size=4),
    st.lists(st.booleans(), min_size=4, max_size=4),
    st.integers(0, 3),
    st.sampled_from(["exhaustive", "nm", "yao9", "kan4"]),
)
def test_draw_deltas_sum_to_zero(
    rules: RuleSet, tenpai: list[bool], nagashi: list[bool], dealer: int, kind: str
) -> None:
    players = rules.players
    dealer %= players
    d = draw_deltas(
        kind,
        tenpai=tenpai[:players],
        nagashi=nagashi[:players],
        dealer=dealer,
        players=players,
        rules=rules,
    )
    assert conservation_ok(d, 0)
    assert len(d) == players


def test_base_payments_table_spot_checks() -> None:
    assert base_payments(1920, dealer_win=False) == (7700, 3900, 2000)
    assert base_payments(1920, dealer_win=True) == (11600, 3900, 0)
    assert base_payments(320, dealer_win=False) == (1300, 700, 400)


# ------------------------------------------------------------------------ corpus

_TAG = re.compile(r"<(GO|INIT|AGARI|RYUUKYOKU|N|[DEFG]\d+)\b([^>]*)>")
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_TERMINAL_OR_HONOR = {0, 8, 9, 17, 18, 26, *range(27, 34)}


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",")] if text else []


def _recorded_value(a: dict[str, str], chip_room: bool) -> tuple[WinValue, int]:
    """The recorded fu/han as a WinValue (base only), and the recorded ten[1].

    This checks settlement (honba, sticks, pao, double ron, tsumo loss) against
    Tenhou's own ``sc``; the hand value itself is the scorer's business."""
    fu, points, _ = _ints(a["ten"])
    yakuman = tuple(_ints(a.get("yakuman", "")))
    yaku = _ints(a.get("yaku", ""))
    han = 13 * len(yakuman) if yakuman else sum(yaku[1::2])
    base = hand_base(han, fu, len(yakuman))
    if chip_room and (han, fu) in ((4, 30), (3, 60)):
        base = 2000  # chip rooms pay kiriage mangan (scoring-rules.md §7)
    v = WinValue(
        han=han, fu=fu, points=0, limit=0, yakuman=yakuman, yakuman_count=len(yakuman), base=base
    )
    return v, points


@pytest.mark.corpus
def test_every_corpus_payment_is_reproduced(corpus: Path) -> None:
    files = sorted((corpus / "tenhou-xml").rglob("*.xml.gz")) + sorted(
        (corpus / "pairs").glob("*.xml.gz")
    )
    wins = draws = nagashi = 0
    problems: list[str] = []
    for path in files:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
        rules = T4
        chip_room = False
        dealer = 0
        first = True
        discards: list[list[int]] = [[], [], [], []]
        called = [False] * 4
        last_discarder = -1
        for m in _TAG.finditer(text):
            tag, a = m.group(1), dict(_ATTR.findall(m.group(2)))
            if tag == "GO":
                go = int(a.get("type", "0"))
                # the shipped detection: ratio1.xml (GO 1569, both chip bits) pays
                # 1500 per honba on ron, chip.xml (GO 553, 0x200 only) the usual 300
                rules, chip_room = rules_for_go_type(go), bool(go & 0x600)
            elif tag == "INIT":
                dealer, first = int(a["oya"]), True
                discards, called, last_discarder = [[], [], [], []], [False] * 4, -1
            elif tag[0] in "DEFG" and tag[1:].isdigit():
                last_discarder = "DEFG".index(tag[0])
                discards[last_discarder].append(int(tag[1:]) // 4)
            elif tag == "N":
                code = int(a["m"])
                takes_discard = bool(code & 0x4 or code & 0x8) or (not code & 0x3C and code & 0x3)
                if takes_discard and last_discarder >= 0:
                    called[last_discarder] = True
            elif tag in ("AGARI", "RYUUKYOKU"):
                sc = _ints(a["sc"])[:8]
                recorded = tuple(100 * x for x in sc[1::2])[: rules.players]
                honba, sticks = _ints(a["ba"])
                if tag == "AGARI":
                    wins += 1
                    v, points = _recorded_value(a, chip_room)
                    who, from_who = int(a["who"]), int(a["fromWho"])
                    pao = int(a["paoWho"]) if "paoWho" in a else None
                    computed = win_deltas(v, winner=who, from_seat=from_who, dealer=dealer,
                                          players=rules.players, honba=honba, sticks=sticks,
                                          first_winner=first, pao_seat=pao, rules=rules)  # fmt: skip
                    if pao is None and first and sum(computed) - computed[who] != -points - (
                        honba * (rules.honba_ron if who != from_who else
                                 rules.honba_tsumo * (rules.players - 1))
                    ):  # fmt: skip
                        problems.append(f"{path.name} @{m.start()}: test-side base vs ten {points}")
                    first = False
                else:
                    draws += 1
                    kind = a.get("type", "exhaustive")
                    tenpai = [f"hai{s}" in a for s in range(4)]
                    eligible = [
                        bool(discards[s]) and not called[s]
                        and all(k in _TERMINAL_OR_HONOR for k in discards[s])
                        for s in range(4)
                    ]  # fmt: skip
                    nagashi += kind == "nm"
                    computed = draw_deltas(kind, tenpai=tenpai, nagashi=eligible, dealer=dealer,
                                           players=rules.players, rules=rules)  # fmt: skip
                if computed != recorded:
                    problems.append(f"{path.name} {tag}@{m.start()}: {computed} != {recorded}")
    assert problems == []
    assert wins > 24000 and draws > 4300 and nagashi >= 10
