"""Issue 17, a new user's first hour on the command line and with the reports:
each test names what a user met and fails without its fix."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import replay_audit
from replay_audit import cli
from replay_audit.cli import main
from replay_audit.stats.aggregate import _in_window


def score_hand(*args: object, **kwargs: object) -> Any:
    from replay_audit.scoring.hand_api import score_hand as score

    return score(*args, **kwargs)  # type: ignore[arg-type]


ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
EAST = FIXTURES / "4p_east_tsumo_ron_draw.2024040112gm-00e1-0000-f1c70001.xml"
FIRST_COMMAND_LOGS = sorted([*FIXTURES.glob("*.xml"), *FIXTURES.glob("*.json")])
JAPANESE = ("天鳳太郎", "麻雀花子", "東南西北", "白發中")


def japanese_log(folder: Path, names: tuple[str, ...] = JAPANESE, stem: str = "jp") -> Path:
    """A copy of a fixture game whose players have Japanese names (URL-encoded, as
    Tenhou writes them)."""
    text = EAST.read_text(encoding="utf-8")
    for seat, (old, new) in enumerate(zip(("Aoi", "Ben", "Chika", "Dai"), names, strict=True)):
        text = text.replace(f'n{seat}="{old}"', f'n{seat}="{urllib.parse.quote(new)}"')
    path = folder / f"{stem}.2024040112gm-00e1-0000-f1c70001.xml"
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------ scoring one hand


def test_score_hand_gives_names_han_fu_items_limit_and_payments() -> None:
    r = score_hand(
        "234m345p456s22678s", win="8s", riichi=True, ippatsu=True, dora="1s", honba=2, sticks=1
    )
    assert r.yaku == (
        ("riichi", 1),
        ("ippatsu", 1),
        ("pinfu", 1),
        ("tanyao", 1),
        ("dora", 2),
        ("ura dora", 0),
    )
    assert (r.han, r.fu, r.limit, r.points) == (6, 30, "haneman", 12000)
    assert r.fu_items == (("base", 20), ("menzen ron", 10))
    # the discarder (East, the seat before South) pays 12,000 + 600 honba; +1,000 stick
    assert r.payments == (-12600, 13600, 0, 0)
    assert "haneman" in r.explain()


def test_score_hand_tsumo_as_dealer_and_yakuman() -> None:
    r = score_hand("11123455678999m", win="5m", tsumo=True, seat_wind="E")
    assert r.yakuman == ("junsei chuuren poutou",)
    assert (r.limit, r.points, r.fu, r.fu_items) == ("yakuman", 48000, 0, ())
    assert r.payments == (48000, -16000, -16000, -16000)


def test_score_hand_three_player_payments_have_three_seats() -> None:
    r = score_hand("123p456p789p11s99s9s", win="9s", tsumo=True, riichi=True, rules="tenhou-3p")
    assert len(r.payments) == 3 and sum(r.payments) == 0


def test_score_hand_no_yaku_is_a_result_not_an_error() -> None:
    r = score_hand("234m345p456s22678s", win="8s", melds=(), tsumo=False)
    assert r.ok  # pinfu tanyao
    r = score_hand("123m456p789s11z777s", win="7s")
    assert not r.ok and r.error == "no_yaku" and r.payments == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"hand": "22345m345p345s789s", "rules": "tenhou-3p"}, "three-player tile set"),
        ({"hand": "2345m345p345s789s"}, "needs 14"),
        ({"hand": "11111m345p345s789s"}, "more than four"),
        ({"hand": "22345m345p345s789s", "dora": "5m5m5m5m"}, "more than four"),
        ({"hand": "22345m345s789s", "melds": ["chi:345p"], "riichi": True}, "closed hand"),
        ({"hand": "22345m345p345s789s", "ippatsu": True}, "ippatsu needs riichi"),
        ({"hand": "22345m345p345s789s", "haitei": True}, "haitei"),
        ({"hand": "22345m345p345s789s", "seat_wind": "N", "rules": "tenhou-3p"}, "3-player"),
        ({"hand": "22305m345p345s789s", "rules": "tenhou-4p", "win": "9m"}, "not in the hand"),
        ({"hand": "22xm"}, "bad tile notation"),
        ({"hand": "22345m345s789s", "melds": ["chi:246p"]}, "not a run"),
    ],
)
def test_score_hand_refuses_hands_that_cannot_exist(kwargs: dict, words: str) -> None:
    from replay_audit.scoring.hand_api import HandError

    kwargs = {"win": "2m", **kwargs}
    with pytest.raises(HandError, match=words):
        score_hand(**kwargs)


def test_score_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "234m345p456s22678s", "--win", "8s", "--tsumo"]) == 0
    out = capsys.readouterr().out
    assert "3 han 20 fu" in out and "dealer pays 1300, others pay 700" in out
    assert main(["score", "22345m345p345s789s", "--win", "2m", "--rules", "tenhou-3p"]) == 2
    assert "three-player tile set" in capsys.readouterr().err
    assert main(["score", "123m456p789s11z777s", "--win", "7s", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"] == "no_yaku"


# ------------------------------------------------------------ command line


def test_players_since_on_a_log_cut_after_its_header(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["players", str(FIXTURES), "--since", "2024-04-01", "-j", "2", "-q"]) == 0
    assert "Chiyo" in capsys.readouterr().out  # 2024-05-01, inside the window
    hf, gf = _in_window(
        pd.DataFrame(), pd.DataFrame({"file": ["a"], "date": ["2024040112"]}), "20240401", None
    )
    assert hf.empty and list(gf["file"]) == ["a"]


def test_audit_names_each_unreadable_file_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(FIXTURES / "bad"), "--out", str(tmp_path / "r"), "-q"]) == 2
    err = capsys.readouterr().err.splitlines()
    listed = [ln for ln in err if ln.startswith("unreadable: ")]
    assert len(listed) == cli.SHOWN_PROBLEMS + 1
    assert "empty.xml: empty file" in listed[1]
    assert listed[-1] == "unreadable: 8 more files (files.csv lists each with its error)"


def test_error_column_names_the_cause_first(tmp_path: Path) -> None:
    assert main(["audit", str(FIXTURES / "bad"), "--out", str(tmp_path), "-q"]) == 2
    files = pd.read_csv(tmp_path / "files.csv").set_index("file")
    seat_4 = str(FIXTURES / "bad" / "seat_4.xml")
    assert files.loc[seat_4, "error"].endswith("hand E1-0, event 6: who=4: seats are 0-3")
    assert files["error"].notna().all()  # every unreadable file says why
    findings = pd.read_csv(tmp_path / "findings.csv")
    first = findings[findings["file"] == seat_4].iloc[0]
    assert first["message"] == "who=4: seats are 0-3"


def test_finding_nothing_is_not_success(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["audit", str(empty), "--out", str(tmp_path / "r")]) == 2
    assert "an empty folder" in capsys.readouterr().err
    assert main(["players", str(empty)]) == 2
    assert "no logs found" in capsys.readouterr().err
    assert main(["validate", str(empty)]) == 2
    assert main(["explain", str(EAST), "--hand", "S9-0"]) == 2
    assert "no hand S9-0" in capsys.readouterr().err and "E4-1" in capsys.readouterr().err + "E4-1"
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo").write_text("nothing here\n")
    assert main(["audit", str(notes), "--out", str(tmp_path / "r2")]) == 2
    assert "1 file, none of them a log" in capsys.readouterr().err


def test_logs_without_an_extension_are_found(tmp_path: Path) -> None:
    import gzip

    shutil.copy(EAST, tmp_path / "2024040112gm-00e1-0000-f1c70001")
    (tmp_path / "game2").write_bytes(gzip.compress((FIXTURES / "json_4p_calls.json").read_bytes()))
    (tmp_path / "notes").write_text("not a log\n")
    assert main(["audit", str(tmp_path), "--out", str(tmp_path / "r"), "-q"]) == 0
    files = pd.read_csv(tmp_path / "r" / "files.csv")
    assert sorted(Path(f).name for f in files["file"]) == [
        "2024040112gm-00e1-0000-f1c70001",
        "game2",
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["--rule", "yakuman=bogus"],
        ["--rule", "aka=7"],
        ["--rule", "kazoe=maybe"],
        ["--rule", "noten_pool=-5"],
        ["--format", "csv,xlsx"],
    ],
)
def test_bad_rule_values_and_options_are_refused(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(EAST), "--out", str(tmp_path), *args]) == 2
    assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "summary.json").exists()  # refused before any work


@pytest.mark.parametrize("jobs", ["0", "-3", "two"])
def test_jobs_must_be_a_positive_number(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["audit", str(EAST), "-j", jobs])
    assert exc.value.code == 2
    assert "-j" in capsys.readouterr().err


def test_summary_records_the_rule_overrides(tmp_path: Path) -> None:
    assert main(["audit", str(EAST), "--out", str(tmp_path), "--rule", "kiriage=true", "-q"]) in (
        0,
        1,
    )
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["rule_overrides"] == {"kiriage": "true"}


def test_report_phase_and_resumed_run_are_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli.common, "_on_terminal", lambda: True)
    args = ["audit", *map(str, FIRST_COMMAND_LOGS), "--out", str(tmp_path), "--format", "csv,html"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert f"writing the report to {tmp_path}/: csv, html" in err
    assert "  html (" in err
    assert main(args) == 0
    err = capsys.readouterr().err
    assert f"resumed: {len(FIRST_COMMAND_LOGS)} files reused" in err


def test_players_out_checks_the_suffix_and_writes_a_real_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = japanese_log(tmp_path)
    assert main(["players", str(log), "--out", str(tmp_path / "x.xlsx"), "-q"]) == 2
    assert "unknown file type .xlsx" in capsys.readouterr().err
    assert not (tmp_path / "x.xlsx").exists()
    (tmp_path / "dir").mkdir()
    assert main(["players", str(log), "--out", str(tmp_path / "dir") + "/", "-q"]) == 2
    assert main(["players", str(log), "--out", str(tmp_path / "p.html"), "-q"]) == 0
    page = (tmp_path / "p.html").read_text(encoding="utf-8")
    assert '<meta charset="utf-8">' in page and "天鳳太郎" in page
    assert "<td>1.0</td>" not in page and "<td>1</td>" in page  # games: a whole number
    assert main(["players", str(log), "--out", str(tmp_path / "p.csv"), "-q"]) == 0
    assert pd.read_csv(tmp_path / "p.csv")["games"].tolist() == [1, 1, 1, 1]
    assert "games,place_1" in (tmp_path / "p.csv").read_text(encoding="utf-8")
    assert ",1.0," not in (tmp_path / "p.csv").read_text(encoding="utf-8").split("\n")[1][:60]


def test_version_and_singular_wording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"replay-audit {replay_audit.__version__}"
    assert main(["validate", str(EAST)]) == 0
    assert "1 file, 4 hands: 1 whole, 0 with problems" in capsys.readouterr().err


def test_players_on_a_terminal_shows_the_top_rows_aligned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = japanese_log(tmp_path)
    assert main(["players", str(log), "--top", "2", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 2 + 1
    assert lines[-1].startswith("(the top 2 of 4 player rows")
    # "games" ends in the same terminal column on every row, wide names or not
    ends = [cli.common._width(ln[: ln.index(" tenhou") + 1]) for ln in lines[1:3]]
    assert len(set(ends)) == 1
    table = cli.text_table(pd.DataFrame({"player": ["天鳳太郎", "Bob"], "games": [12, 3]}))
    assert [cli.common._width(line) for line in table.splitlines()] == [15, 15, 15]


# ------------------------------------------------------------------ reports


def test_hands_table_names_yaku_and_limits_and_says_why_fu_differ(tmp_path: Path) -> None:
    report = replay_audit.audit(
        [
            FIXTURES / "4p_riichi_double_ron.2024050112gm-00a9-0000-d0b1e2f3.xml",
            FIXTURES / "4p_double_yakuman.xml",
        ]
    )
    h = report.hands
    assert "riichi 1" in " ".join(h["comp_yaku_names"].dropna())
    assert set(h["rec_limit_name"].dropna()) >= {"mangan", "yakuman"}
    yakuman = h[h["comp_yaku_names"] == "suuankou tanki, tsuuiisou"].iloc[0]
    assert yakuman["rec_fu"] != yakuman["comp_fu"]
    assert "fu not compared" in yakuman["note"]
    plain = h.loc[h["note"].isna(), "comp_yaku"].dropna()
    assert plain.str.split(",").str[0].astype(int).lt(36).all()


def test_read_report_restores_the_types(tmp_path: Path) -> None:
    report = replay_audit.audit(FIRST_COMMAND_LOGS)
    report.write(tmp_path, ["csv"])
    assert pd.read_csv(tmp_path / "hands.csv")["winner"].dtype == "float64"  # the trap
    back = replay_audit.read_report(tmp_path)
    assert back.hands["winner"].dtype == "Int64"
    assert back.hands["rec_fu"].dtype == "Int64"
    assert back.hands["rec_yaku"].map(type).isin([str, float]).all()
    pd.testing.assert_series_equal(
        back.hands["comp_points"], report.hands["comp_points"], check_names=False
    )
    assert back.games["name0"].tolist() == report.games["name0"].tolist()


def test_charts_count_in_whole_numbers_at_full_width() -> None:
    from replay_audit.report import html

    bar = html.placement_chart({"place_1": 1, "place_2": 0, "place_3": 3, "place_4": 0}, "p")
    ticks = [t.split(">")[1].split("<")[0] for t in bar.split('text-anchor="end"')[1:]]
    assert ticks == ["0", "1", "2", "3"]
    history = pd.DataFrame(
        [
            {
                "hand_index": i,
                "label": f"E{i + 1}-0",
                "seat": s,
                "name": "天鳳",
                "score": 25000 + 100 * i * (s - 1),
            }
            for i in range(3)
            for s in range(4)
        ]
    )
    chart = html.score_chart(history, "sc0")
    assert 'width="100%"' in chart and "天鳳" in chart
    df = pd.DataFrame({"rate": [0.25, 0.3, 0.0], "games": [2.0, 10.0, 1.0]})
    rows = "".join(html.pieces._table_rows(df, ["rate", "games"]))
    assert "<td>0.250</td>" in rows and "<td>0.300</td>" in rows and "<td>0.000</td>" in rows
    assert "<td>2</td>" in rows and "<td>10</td>" in rows


def test_the_page_is_drawn_without_a_plotting_library(tmp_path: Path) -> None:
    """The first command's page (29 charts) used to take 12 s of matplotlib."""
    script = (
        "import sys, replay_audit\n"
        f"r = replay_audit.audit({[str(p) for p in FIRST_COMMAND_LOGS]!r})\n"
        f"r.write({str(tmp_path)!r}, ['html'])\n"
        "assert 'matplotlib' not in sys.modules\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") >= 8
