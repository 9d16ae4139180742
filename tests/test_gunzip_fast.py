"""ISA-L's fast path of ``parsers.sniff.gunzip_capped``: the same bytes as the zlib loop
for every log of the shared corpus, and for every odd or damaged stream either the same
bytes or the same error, because anything but one whole member is left to the loop."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pytest

from replay_audit.parsers import sniff
from tests.conftest import CORPUS, need

pytest.importorskip("isal")

_XML = b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>' + b"<UN/>" * 400 + b"</mjloggm>"


def _by_zlib(data: bytes, cap: int, monkeypatch: pytest.MonkeyPatch) -> bytes | str:
    """``gunzip_capped`` without ISA-L: its bytes, or its error's class and message."""
    with monkeypatch.context() as m:
        m.setattr(sniff, "_FAST", None)
        return _outcome(data, cap)


def _outcome(data: bytes, cap: int) -> bytes | str:
    try:
        return sniff.gunzip_capped(data, cap, source="x.gz")
    except Exception as exc:  # the error is the outcome compared
        return f"{type(exc).__name__}: {exc}"


def test_fast_path_is_taken_for_one_whole_member() -> None:
    data = gzip.compress(_XML)
    assert sniff._FAST is not None
    assert sniff.gunzip_one_member(data, 1 << 20) == _XML


def _odd_streams() -> list[tuple[str, bytes, int]]:
    # mtime=0: the same bytes in every process, so the test ids (made from them) are
    # the same wherever the suite is collected (pytest-xdist's workers each collect it)
    one = gzip.compress(_XML, mtime=0)
    crc = bytearray(one)
    crc[-6] ^= 0x01
    size = bytearray(one)
    size[-2] ^= 0x01
    body = bytearray(one)
    body[len(one) // 2] ^= 0xFF
    return [
        ("two members", one + gzip.compress(b"<more/>", mtime=0), 1 << 20),
        ("padding zeros", one + b"\x00" * 16, 1 << 20),
        ("trailing junk", one + b"junk", 1 << 20),
        ("cut", one[:-5], 1 << 20),
        ("cut in the data", one[: len(one) // 2], 1 << 20),
        ("bad crc", bytes(crc), 1 << 20),
        ("bad size", bytes(size), 1 << 20),
        ("damaged data", bytes(body), 1 << 20),
        ("over the cap", one, len(_XML) - 1),
        ("exactly the cap", one, len(_XML)),
        ("header only", one[:10], 1 << 20),
        ("deflate, not gzip", zlib.compress(_XML), 1 << 20),
    ]


@pytest.mark.parametrize(("what", "data", "cap"), _odd_streams(), ids=lambda v: str(v)[:20])
def test_odd_streams_read_as_the_zlib_loop_reads_them(
    what: str, data: bytes, cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _outcome(data, cap) == _by_zlib(data, cap, monkeypatch), what


def test_every_corpus_log_inflates_as_zlib_does(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [p for p in sorted(need(CORPUS).rglob("*.gz")) if p.is_file()]
    assert len(files) > 2000
    cap = sniff.DEFAULT_MAX_BYTES
    for path in files:
        data = path.read_bytes()
        fast = sniff.gunzip_one_member(data, cap)
        assert fast is not None, path
        assert fast == _by_zlib(data, cap, monkeypatch), path


def test_a_wrong_fast_path_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus comparison can fail: a fast path that drops a byte differs."""

    class Dropping:
        error = zlib.error

        @staticmethod
        def decompressobj(wbits: int) -> object:
            inner = zlib.decompressobj(wbits)

            class Obj:
                def decompress(self, data: bytes, limit: int) -> bytes:
                    return inner.decompress(data, limit)[1:]

                def __getattr__(self, name: str) -> object:
                    return getattr(inner, name)

            return Obj()

    data = gzip.compress(_XML)
    monkeypatch.setattr(sniff, "_FAST", Dropping)
    assert sniff.gunzip_capped(data) != _by_zlib(data, sniff.DEFAULT_MAX_BYTES, monkeypatch)


def test_gzip_bomb_stays_capped() -> None:
    bomb = gzip.compress(b"\x00" * (4 << 20))
    with pytest.raises(Exception, match="more than"):
        sniff.gunzip_capped(bomb, 1 << 20)
    assert sniff.gunzip_one_member(bomb, 1 << 20) is None


def test_named_path_kept(tmp_path: Path) -> None:
    """A file read through ``io.read`` takes the same path (one member, no padding)."""
    from replay_audit.io.read import read_bytes

    p = tmp_path / "x.xml.gz"
    p.write_bytes(gzip.compress(_XML))
    assert read_bytes(p) == _XML
