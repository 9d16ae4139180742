"""Reading logs from disk: gzip by magic, caps, folder/glob expansion, batches."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from replay_audit.io.paths import iter_log_paths
from replay_audit.io.read import iter_games, read_bytes, read_log
from replay_audit.model.errors import (
    LimitExceededError,
    LogFormatError,
    NotALogError,
    TruncatedLogError,
)
from replay_audit.model.events import Game
from replay_audit.parsers.sniff import gunzip_capped, sniff_format

LOG = (
    b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
    b'<UN n0="A" n1="B" n2="C" n3="D" dan="1,1,1,1" rate="1500,1500,1500,1500" sx="M,M,M,M"/>'
    b'<TAIKYOKU oya="0"/><INIT seed="0,0,0,0,0,60" ten="250,250,250,250" oya="0" '
    b'hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" '
    b'hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/>'
    b"<T52/><D52/>"
    b'<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" owari="250,25.0,250,5.0,250,-5.0,250,-25.0"/>'
    b"</mjloggm>"
)


def test_gzip_is_detected_by_magic_not_suffix(tmp_path: Path) -> None:
    disguised = tmp_path / "log.xml"
    disguised.write_bytes(gzip.compress(LOG))
    plain = tmp_path / "log.xml.gz"
    plain.write_bytes(LOG)
    assert read_bytes(disguised) == LOG
    assert read_bytes(plain) == LOG
    assert len(read_log(disguised).hands) == 1
    assert len(read_log(plain).hands) == 1


def test_read_log_from_bytes_gzip_or_not() -> None:
    assert isinstance(read_log(LOG), Game)
    game = read_log(gzip.compress(LOG), source="x.mjlog")
    assert game.meta.source == "x.mjlog"


def test_gzip_bomb_is_capped(tmp_path: Path) -> None:
    bomb = gzip.compress(b"\0" * (8 * 1024 * 1024))
    assert len(bomb) < 20_000
    path = tmp_path / "bomb.xml.gz"
    path.write_bytes(bomb)
    with pytest.raises(LimitExceededError) as info:
        read_bytes(path, max_bytes=1024 * 1024)
    assert info.value.source == str(path)
    with pytest.raises(LimitExceededError):
        read_log(bomb, max_bytes=1024 * 1024)


def test_gunzip_handles_members_and_truncation() -> None:
    two = gzip.compress(b"abc") + gzip.compress(b"def")
    assert gunzip_capped(two) == b"abcdef"
    whole = gzip.compress(LOG * 50)
    with pytest.raises(TruncatedLogError):
        gunzip_capped(whole[: len(whole) // 2])
    with pytest.raises(NotALogError):
        gunzip_capped(b"\x1f\x8bnot really gzip at all")


def test_oversized_plain_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.xml"
    path.write_bytes(LOG)
    with pytest.raises(LimitExceededError):
        read_bytes(path, max_bytes=100)


@pytest.mark.parametrize(
    ("data", "fmt"),
    [
        (b"<mjloggm/>", "tenhou-xml"),
        (b"\xef\xbb\xbf\n <?xml version='1.0'?>", "tenhou-xml"),
        (b'  {"log": []}', "tenhou-json"),
        (b'\xef\xbb\xbf{"title": []}', "tenhou-json"),
    ],
)
def test_sniff_format(data: bytes, fmt: str) -> None:
    assert sniff_format(data) == fmt


@pytest.mark.parametrize("data", [b"", b"  \n", b"PK\x03\x04", b"hello"])
def test_sniff_rejects_non_logs(data: bytes) -> None:
    with pytest.raises(NotALogError):
        sniff_format(data)


def test_read_log_dispatches_json_to_the_json_parser() -> None:
    pytest.importorskip("replay_audit.parsers.tenhou_json")
    with pytest.raises(LogFormatError):
        read_log(b'{"not": "a tenhou log"}', source="x.json")


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "deep").mkdir()
    for name in ("a.xml", "b/c.mjlog", "b/deep/d.xml.gz", "e.json", "f.txt", "g.json.gz"):
        (tmp_path / name).write_bytes(LOG)
    for name in ("manifest.tsv", "README.md", "README.txt", "notes.csv", ".hidden.xml"):
        (tmp_path / name).write_text("x")
    return tmp_path


def test_folders_expand_recursively_sorted_and_skip_bookkeeping(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    names = [p.relative_to(root).as_posix() for p in iter_log_paths([root])]
    assert names == ["a.xml", "b/c.mjlog", "b/deep/d.xml.gz", "e.json", "f.txt", "g.json.gz"]


def test_globs_plain_files_and_duplicates(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    paths = list(iter_log_paths([str(root / "b" / "**" / "*.gz"), root / "a.xml", root / "a.xml"]))
    assert paths == [root / "b" / "deep" / "d.xml.gz", root / "a.xml"]
    missing = root / "missing.xml"
    assert list(iter_log_paths([missing])) == [missing]


def test_iter_games_does_not_stop_on_bad_files(tmp_path: Path) -> None:
    (tmp_path / "1_good.xml").write_bytes(LOG)
    (tmp_path / "2_empty.xml").write_bytes(b"")
    (tmp_path / "3_html.xml").write_bytes(b"<html><body>503</body></html>")
    (tmp_path / "4_cut.xml.gz").write_bytes(gzip.compress(LOG[:300]))
    (tmp_path / "5_bomb.xml.gz").write_bytes(gzip.compress(b"<" * (70 * 1024 * 1024)))
    (tmp_path / "6_good.mjlog").write_bytes(gzip.compress(LOG))
    results = list(iter_games([tmp_path, tmp_path / "7_missing.xml"]))
    kinds = [(p.name, type(r).__name__) for p, r in results]
    assert kinds == [
        ("1_good.xml", "Game"),
        ("2_empty.xml", "NotALogError"),
        ("3_html.xml", "NotALogError"),
        ("4_cut.xml.gz", "Game"),  # lenient: the cut hand is recorded as an error
        ("5_bomb.xml.gz", "LimitExceededError"),
        ("6_good.mjlog", "Game"),
        ("7_missing.xml", "NotALogError"),
    ]
    cut = results[3][1]
    assert isinstance(cut, Game) and isinstance(cut.errors[0], TruncatedLogError)
    for path, result in results:
        if isinstance(result, LogFormatError):
            assert result.source == str(path)
    strict = dict((p.name, r) for p, r in iter_games([tmp_path / "4_cut.xml.gz"], strict=True))
    assert isinstance(strict["4_cut.xml.gz"], TruncatedLogError)


@pytest.mark.corpus
def test_iter_games_over_corpus_folder(corpus: Path) -> None:
    results = list(iter_games([corpus / "tenhou-xml" / "special"]))
    assert len(results) == 22
    assert all(isinstance(r, Game) and not r.errors for _, r in results)


def test_symlinked_folders_are_followed_once_and_loops_end(tmp_path: Path) -> None:
    """A corpus is often a folder of links: logs behind a linked folder are found,
    a folder reached twice is listed once, and a link loop does not hang."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.xml").write_text("<mjloggm/>", encoding="utf-8")
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "b.xml").write_text("<mjloggm/>", encoding="utf-8")
    (batch / "linked").symlink_to(real)
    (batch / "again").symlink_to(real)
    (batch / "loop").symlink_to(batch)
    found = list(iter_log_paths([batch]))
    names = sorted(p.name for p in found)
    assert names == ["a.xml", "b.xml"]
