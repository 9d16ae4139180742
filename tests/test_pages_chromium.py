"""The audit and players pages in headless Chromium: they load, their Japanese
names are in the document, screenshots are taken, and the names are drawn with
real glyphs (not the empty boxes of a missing font).

The glyph check compares two screenshots of the same page: one as written, one
with every Japanese name replaced by as many private-use characters, which no
font draws.  Without a CJK font both pages show the same boxes and the pictures
are equal, so the test fails; with one they differ where the names are.

Chromium and a CJK font come from the distribution's packages (``.ci/run``
installs ``chromium`` and ``fonts-noto-cjk``).  The test skips only on a machine
without Chromium outside CI; in CI (``CI`` set) a missing Chromium fails it.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import urllib.parse
import zlib
from pathlib import Path

import numpy as np
import pytest

import replay_audit
from replay_audit.cli import main

ROOT = Path(__file__).resolve().parent.parent
EAST = ROOT / "fixtures" / "4p_east_tsumo_ron_draw.2024040112gm-00e1-0000-f1c70001.xml"
NAMES = ("天鳳太郎", "麻雀花子", "東南西北", "白發中")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

if CHROMIUM is None and not os.environ.get("CI"):
    pytest.skip("no chromium on this machine (.ci/run installs it)", allow_module_level=True)


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None, "CI must have chromium: .ci/run installs it"
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def screenshot(page: Path, png: Path) -> list[bytes]:
    chromium(f"--screenshot={png}", "--window-size=1280,1400", page.as_uri())
    return png_rows(png.read_bytes())


def png_rows(data: bytes) -> list[bytes]:
    """The pixel rows of an 8-bit, non-interlaced PNG (what Chromium writes),
    unfiltered: enough to compare two screenshots without an image library.

    A screenshot is 1400 rows of 3,840 bytes; undoing the filters byte by byte in
    Python took 2 s of CPU each, six screenshots a test.  Rows filtered with None, Sub
    or Up (nearly all of Chromium's) are undone with numpy, whole rows at a time;
    Average and Paeth rows, whose bytes each depend on the one just undone, byte by
    byte (``_unfilter_bytes``)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and interlace == 0 and color in (2, 6)
    bpp = 4 if color == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    assert len(raw) >= height * (stride + 1), "truncated image data"
    table = np.frombuffer(raw, dtype=np.uint8, count=height * (stride + 1))
    table = table.reshape(height, stride + 1)
    rows: list[bytes] = []
    prev = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        f = int(table[y, 0])
        line = table[y, 1:]
        if f == 1:  # Sub: each byte plus the one bpp before it, already undone
            out = np.cumsum(line.reshape(width, bpp), axis=0, dtype=np.uint8).reshape(stride)
        elif f == 2:  # Up: plus the byte above
            out = line + prev
        elif f in (3, 4):
            out = np.frombuffer(_unfilter_bytes(f, line.tobytes(), prev.tobytes(), bpp), np.uint8)
        else:  # None (0)
            out = line.copy()
        rows.append(out.tobytes())
        prev = out
    return rows


def _unfilter_bytes(f: int, filtered: bytes, above: bytes, bpp: int) -> bytes:
    """One Average (3) or Paeth (4) row undone byte by byte (PNG spec, 9.2)."""
    line = bytearray(filtered)
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b, c = above[i], above[i - bpp] if i >= bpp else 0
        if f == 3:
            line[i] = (line[i] + (a + b) // 2) & 0xFF
        else:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    return bytes(line)


def differing_rows(a: list[bytes], b: list[bytes]) -> int:
    return sum(1 for x, y in zip(a, b, strict=False) if x != y) + abs(len(a) - len(b))


def without_glyphs(page: Path, out: Path) -> Path:
    """The page with each Japanese name replaced by as many private-use characters."""
    text = page.read_text(encoding="utf-8")
    for name in NAMES:
        text = text.replace(name, "".join(chr(0xE000 + i) for i in range(len(name))))
    out.write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    text = EAST.read_text(encoding="utf-8")
    for seat, (old, new) in enumerate(zip(("Aoi", "Ben", "Chika", "Dai"), NAMES, strict=True)):
        text = text.replace(f'n{seat}="{old}"', f'n{seat}="{urllib.parse.quote(new)}"')
    log = folder / "jp.2024040112gm-00e1-0000-f1c70001.xml"
    log.write_text(text, encoding="utf-8")
    report = replay_audit.audit([log])
    report.write(folder / "audit", ["html"])
    assert main(["players", str(log), "--out", str(folder / "players.html"), "-q"]) == 0
    return {"audit": folder / "audit" / "report.html", "players": folder / "players.html"}


@pytest.mark.parametrize("which", ["audit", "players"])
def test_page_loads_with_its_names_and_charts(pages: dict[str, Path], which: str) -> None:
    dom = chromium("--dump-dom", pages[which].as_uri()).stdout
    for name in NAMES:
        assert name in dom, name
    assert "<svg" in dom


@pytest.mark.parametrize("which", ["audit", "players"])
def test_japanese_names_are_drawn(pages: dict[str, Path], which: str, tmp_path: Path) -> None:
    shot = screenshot(pages[which], tmp_path / f"{which}.png")
    assert len(shot) == 1400 and len(set(shot)) > 20  # a page, not a blank picture
    boxes = screenshot(
        without_glyphs(pages[which], tmp_path / f"{which}-boxes.html"), tmp_path / "boxes.png"
    )
    # the same page with two different sets of undrawable characters looks the same:
    # missing glyphs are all one box, so equal pictures mean "no glyphs"
    other = without_glyphs(pages[which], tmp_path / f"{which}-other.html")
    other.write_text(
        other.read_text(encoding="utf-8").replace("\ue000", "\ue100"), encoding="utf-8"
    )
    assert differing_rows(boxes, screenshot(other, tmp_path / "other.png")) == 0
    # the names themselves are drawn: their rows differ from the boxes' rows
    assert differing_rows(shot, boxes) >= 8
