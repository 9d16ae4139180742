"""The HTML report: well-formed, self-contained, every chart and table there,
untrusted text escaped, caps honoured; headless Chromium when available."""

from __future__ import annotations

import dataclasses
import importlib.util
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import lxml.html
import pandas as pd
import pytest

from replay_audit.model.events import Owari, Player
from replay_audit.report import html as rhtml
from replay_audit.stats import games_table, players, score_history

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "stats"
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}
EVIL = '<img src=x onerror="alert(1)">&amp;'


def _fixture_module():
    spec = importlib.util.spec_from_file_location("stats_fixture_games", FIXTURES / "games.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fx = _fixture_module()


class Checker(HTMLParser):
    """Strict structure check: every non-void element closed, in order; ids unique;
    every attribute that could load something collected."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.loads: list[str] = []
        self.tags: dict[str, int] = {}
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for key, value in attrs:
            if key == "id" and value:
                self.ids.append(value)
            if key in ("href", "xlink:href") and value:
                self.hrefs.append(value)
            if key in ("src", "srcset", "data", "action", "poster", "background"):
                self.loads.append(f"{tag} {key}={value}")
        if tag in ("script", "link", "iframe", "object", "embed", "img", "base"):
            self.loads.append(tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check(page: str) -> Checker:
    c = Checker()
    c.feed(page)
    c.close()
    assert not c.errors, c.errors[:5]
    assert c.stack == [], c.stack
    assert len(c.ids) == len(set(c.ids)), "duplicate ids"
    assert not c.loads, c.loads
    missing = [h for h in c.hrefs if h.startswith("#") and h[1:] not in set(c.ids)]
    assert not missing, missing[:5]
    assert all(h.startswith("#") for h in c.hrefs), [h for h in c.hrefs if not h.startswith("#")]
    lower = page.lower()
    assert "@import" not in lower and "url(http" not in lower and "url(//" not in lower
    return c


def make_games(n: int) -> list:
    base = fx.sample_game()
    out = []
    for i in range(n):
        meta = dataclasses.replace(base.meta, source=f"g{i}.xml", log_id=f"log-{i}")
        names = (EVIL, "Bob", "Cid", "Dee") if i == 0 else fx.NAMES
        out.append(dataclasses.replace(base, meta=meta, players=tuple(Player(x) for x in names)))
    return out


def findings_for(games: list) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "category": "payment",
                "field": "delta",
                "file": games[-1].meta.source,
                "log_id": games[-1].meta.log_id,
                "hand": "E2-0",
                "hand_index": 2,
                "seq": 17,
                "seat": 2,
                "recorded": -8000,
                "computed": -7700,
                "message": "<script>alert('x')</script>",
            },
            {
                "category": "parse",
                "field": "bad_tag",
                "file": games[0].meta.source,
                "log_id": games[0].meta.log_id,
                "hand": None,
                "hand_index": None,
                "seq": 3,
                "seat": None,
                "recorded": None,
                "computed": None,
                "message": "unknown tag",
            },
        ]
    )


def render(games: list, findings: pd.DataFrame | None = None) -> str:
    return rhtml.render_html(
        summary={"files": len(games), "findings_by_category": {"payment": 1}, "rules": EVIL},
        findings=findings if findings is not None else findings_for(games),
        games=games_table(games),
        players=players(games),
        score_history=pd.DataFrame([r for g in games for r in score_history(g)]),
    )


@pytest.fixture(scope="module")
def page3(request: pytest.FixtureRequest) -> str:
    mp = pytest.MonkeyPatch()
    mp.setattr(rhtml.pieces, "MAX_GAME_CHARTS", 2)
    mp.setattr(rhtml.pieces, "MAX_PLAYER_CHARTS", 3)
    request.addfinalizer(mp.undo)
    return render(make_games(3))


def test_well_formed_and_self_contained(page3: str) -> None:
    check(page3)
    doc = lxml.html.document_fromstring(page3)
    assert doc.find(".//title") is not None


def test_every_chart_and_table(page3: str) -> None:
    c = check(page3)
    # 2 game charts (cap 2 of 3) + 3 player charts (cap 3 of 5 players: Ann plays as EVIL once)
    assert c.tags.get("svg") == 5
    doc = lxml.html.document_fromstring(page3)
    for section in ("summary", "findings", "players", "games", "scores"):
        assert doc.get_element_by_id(section) is not None
    # summary, findings, players, games + detail tables for games 0, 1 (charted) and 2 (finding)
    assert c.tags.get("table") == 4 + 3
    assert "first 2 of 3 games" in page3
    assert "first 3 of 5 players" in page3


def test_players_table_is_capped_most_games_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``MAX_PLAYERS`` rows the table keeps the players with the most games
    and says how many there are; under the cap there is no note."""
    games = make_games(3)
    table = players(games)
    assert len(table) == 5 and table["games"].is_monotonic_decreasing
    monkeypatch.setattr(rhtml.pieces, "MAX_PLAYERS", 2)
    page = render(games)
    doc = lxml.html.document_fromstring(page)
    rows = doc.get_element_by_id("players").find(".//table").findall(".//tbody/tr")
    shown = [r.findtext("td") or r.find("td").text_content() for r in rows]
    assert shown == list(table["player"].head(2))
    assert "Showing the 2 players with the most games of 5" in page
    monkeypatch.setattr(rhtml.pieces, "MAX_PLAYERS", 5)
    assert "players with the most games" not in render(games)


def test_findings_link_to_hands_and_games(page3: str) -> None:
    doc = lxml.html.document_fromstring(page3)
    links = [a.get("href") for a in doc.get_element_by_id("findings").iter("a")]
    hand_anchor = f"#{rhtml.game_anchor('g2.xml')}-h2"
    assert hand_anchor in links
    assert f"#{rhtml.game_anchor('g0.xml')}" in links
    assert doc.get_element_by_id(hand_anchor[1:]).tag == "tr"


def test_untrusted_text_is_escaped(page3: str) -> None:
    c = check(page3)
    assert "<script>" not in page3 and "<img" not in page3
    text = "".join(c.text)
    assert EVIL in text  # shown as text, exactly
    assert "<script>alert('x')</script>" in text


def test_empty_inputs_render() -> None:
    page = rhtml.render_html(
        summary={},
        findings=pd.DataFrame(),
        games=pd.DataFrame(),
        players=pd.DataFrame(),
        score_history=pd.DataFrame(),
    )
    c = check(page)
    assert c.tags.get("svg") is None
    assert "No findings" in page


def test_lead_games_schema_renders() -> None:
    """The audit report's own games table (``name0``/``final_score0`` columns)."""
    games = make_games(1)
    lead = pd.DataFrame(
        [{"file": "g0.xml", "log_id": "log-0", "name0": EVIL, "final_score0": -1000}]
    )
    page = rhtml.render_html(
        summary={"games": 1},
        findings=findings_for(games),
        games=lead,
        players=players(games),
        score_history=pd.DataFrame(score_history(games[0])),
    )
    check(page)


def test_score_history_reexported() -> None:
    g = fx.sample_game()
    assert rhtml.score_history(g)[0]["score"] == 25000
    assert g.owari == Owari(scores=(-1000, 27700, 23200, 50100), points=(-46.0, 7.7, -16.8, 55.1))


CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")
def test_chromium_loads_without_console_errors(page3: str, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(page3, encoding="utf-8")
    proc = subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            path.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "<svg" in proc.stdout
    console = [ln for ln in proc.stderr.splitlines() if "CONSOLE" in ln and "rror" in ln]
    assert not console, console


def test_renders_without_charts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rhtml.charts, "charts_available", lambda: False)
    page = render(make_games(2))
    c = check(page)
    assert c.tags.get("svg") is None
    # the game with a finding still gets its hand table to link to
    assert f'id="{rhtml.game_anchor("g1.xml")}-h2"' in page
