"""The compiled core's wall (``replay_audit._core``, C++) against ``replay_audit.wall``.

The core must be built: CI installs the package with ``pip install -e '.[test]'``,
which compiles it, and every test here runs against that build.  The two
implementations must give the same walls (tiles in draw order, dice, and so the
deal, dora, ura, live and replacement tiles) for every seeded game of the shared
corpus and for random seeds; on any other seed text the core either declines
(ValueError, and ``replay_audit.native`` falls back to ``replay_audit.wall``) or
agrees.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import random
import re
import struct
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from replay_audit import native
from replay_audit.wall import (
    FORMAT_BASE64,
    FORMAT_HEX,
    Wall,
    init_by_array,
    iter_walls,
    seed_format,
    wall_from_init_shuffle,
    walls_from_seed,
)
from tests.conftest import CASES, CORPUS, need

try:
    from replay_audit import _core
except ImportError:  # test_core_is_built says why; the rest skip
    _core = None  # type: ignore[assignment]

needs_core = pytest.mark.skipif(_core is None, reason="replay_audit._core is not built")


def test_core_is_built() -> None:
    """CI must test the compiled build: an install without the core fails here."""
    assert _core is not None, (
        "replay_audit._core is not built: pip install -e '.[test]' compiles it (needs g++)"
    )
    assert native.HAVE_CORE
    assert Path(_core.__file__).parent == Path(native.__file__).parent


def test_core_is_as_new_as_its_sources() -> None:
    """An editable install compiles the core once: after a change to ``src/core`` the
    old build would still be imported.  The digest is computed as setup.py does."""
    sources = Path(__file__).resolve().parents[1] / "src" / "core"
    if _core is None or not sources.is_dir():
        pytest.skip("no compiled core, or not a source checkout")
    digest = hashlib.sha256()
    for path in sorted(sources.glob("*.[ch]pp")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    assert digest.hexdigest()[:16] == _core.SOURCES_DIGEST, (
        "replay_audit._core was built from other sources than src/core: "
        "run pip install -e '.[test]' again"
    )


# --------------------------------------------------------------- what the walls tell


def _facts(w: Wall) -> dict[str, object]:
    """Everything the replayer reads off a wall: deal per dealer, dora and ura
    indicators, live and replacement draws, dice, and the 2009 flip."""
    return {
        "deal": [w.haipai(dealer) for dealer in range(w.players)],
        "dora": [w.dora_indicator(k) for k in range(5)],
        "ura": [w.ura_indicator(k) for k in range(5)],
        "live": [w.live_tile(i) for i in range(w.live_count())],
        "rinshan": [w.rinshan_tile(n) for n in range(w.replacement_count)],
        "dice": w.dice,
        "flipped": w.flipped,
        "tiles": w.tiles,
    }


def _core_wall(record: bytes, flipped: bool) -> Wall:
    """A raw core record read independently of ``replay_audit.native``."""
    n = {138: 136, 110: 108}[len(record)]
    return Wall(tuple(record[:n]), (record[n], record[n + 1]), flipped)


def _assert_same(
    python: list[Wall], records: list[bytes], flipped: bool, where: str, every_fact: bool = True
) -> None:
    """Every hand's wall equal, and the facts read off them (``_facts``) equal: of
    every hand, or of the first alone (``every_fact=False``, the corpus).  A ``Wall``
    is a frozen value of its tiles, dice and flip, and the facts are worked out from
    those alone, so equal walls give equal facts: reading them for every hand of the
    corpus (most of that check's time) could not fail where ``==`` passed, while the
    first hand of each game still reads them all off a core record."""
    assert len(records) == len(python), where
    for k, (w, record) in enumerate(zip(python, records, strict=True)):
        ours = _core_wall(record, flipped)
        assert ours == w, f"{where} hand {k}"
        if every_fact or k == 0:
            assert _facts(ours) == _facts(w), f"{where} hand {k}"


def _check_seed(
    seed: str,
    players: int,
    hands: int,
    where: str,
    python: list[Wall] | None = None,
    every_fact: bool = True,
) -> list[Wall]:
    """The core's three ways to a game's walls against replay_audit.wall's (``python``:
    those walls where the caller has already worked them out; ``every_fact``:
    ``_assert_same``'s)."""
    if python is None:
        python = walls_from_seed(seed, players, hands=hands)
    flipped = seed_format(seed) == FORMAT_HEX
    records = _core.walls(seed, players, hands)
    _assert_same(python, records, flipped, where, every_fact)
    stream = _core.WallStream(seed, players)
    assert stream.flipped is flipped
    assert list(islice(stream, hands)) == records, where
    assert native.walls_from_seed(seed, players, hands=hands) == python, where
    assert list(islice(native.iter_walls(seed, players), hands)) == python, where
    return python


# --------------------------------------------------------------- every seeded corpus game

_SHUFFLE = re.compile(rb'<SHUFFLE seed="([^"]*)"')
_GO = re.compile(rb'<GO type="(\d+)"')
_INIT = re.compile(rb"<INIT\s[^>]*>")
_INIT_SHUFFLE = re.compile(rb'\sshuffle="([^"]*)"')


def _seeded_games(root: Path) -> list[Path]:
    return sorted(root.rglob("*.xml.gz"))


@needs_core
@pytest.mark.corpus
def test_every_corpus_wall_matches_python() -> None:
    """Every hand of every seeded game in ../shared (Phoenix 2024, 2009 hex and INIT
    shuffle eras, special lobbies, excerpts, three-player, the cases): the core's
    walls equal replay_audit.wall's, read with a regex of this test's own."""
    need(CORPUS)
    paths = _seeded_games(CORPUS) + (_seeded_games(CASES) if CASES.exists() else [])
    counts = {"base64": 0, "hex": 0, "init": 0, "three-player": 0, "declined": 0}
    for path in paths:
        data = gzip.decompress(path.read_bytes())
        go = _GO.search(data)
        players = 3 if go and int(go.group(1)) & 0x10 else 4
        inits = _INIT.findall(data)
        seed_m = _SHUFFLE.search(data)
        where = f"{path.relative_to(path.parents[2])}"
        if seed_m is not None:
            seed = seed_m.group(1).decode()
            try:
                python = walls_from_seed(seed, players, hands=len(inits))
            except ValueError:
                with pytest.raises(ValueError):
                    _core.walls(seed, players, len(inits))
                counts["declined"] += 1
                continue
            _check_seed(seed, players, len(inits), where, python, every_fact=False)
            counts["hex" if seed_format(seed) == FORMAT_HEX else "base64"] += len(inits)
            counts["three-player"] += len(inits) if players == 3 else 0
        for k, tag in enumerate(inits):
            if (m := _INIT_SHUFFLE.search(tag)) is None:
                continue
            shuffle = m.group(1).decode()
            python_wall = wall_from_init_shuffle(shuffle, players)
            _assert_same([python_wall], [_core.init_shuffle_wall(shuffle, players)], True, where)
            assert native.wall_from_init_shuffle(shuffle, players) == python_wall, f"{where} {k}"
            counts["init"] += 1
    print(counts)
    assert counts["base64"] > 27_938  # the 2,770 Phoenix games alone hold 27,938 hands
    assert counts["hex"] > 0 and counts["init"] > 0 and counts["three-player"] > 0


# --------------------------------------------------------------- random seeds

_words = st.integers(0, 2**32 - 1)


def _base64_seed(key: list[int]) -> str:
    return FORMAT_BASE64 + "," + base64.b64encode(struct.pack("<624I", *key)).decode()


def _hex_seed(key: list[int], upper: bool) -> str:
    words = [f"{w:08X}" if upper else f"{w:08x}" for w in key]
    return FORMAT_HEX + "," + ",".join(words)


@needs_core
@settings(max_examples=60, deadline=None)
@given(st.lists(_words, min_size=624, max_size=624), st.sampled_from([3, 4]), st.integers(0, 4))
@example([0] * 624, 4, 2)  # a key ending in zero words (Python seeds it the long way)
def test_random_base64_seeds(key: list[int], players: int, hands: int) -> None:
    _check_seed(_base64_seed(key), players, hands, "base64")


@needs_core
@settings(max_examples=60, deadline=None)
@given(
    st.lists(_words, min_size=32, max_size=32),
    st.sampled_from([3, 4]),
    st.integers(0, 4),
    st.booleans(),
)
def test_random_hex_seeds(key: list[int], players: int, hands: int, upper: bool) -> None:
    assert all(w.flipped for w in _check_seed(_hex_seed(key, upper), players, hands, "hex"))


@needs_core
@settings(max_examples=100, deadline=None)
@given(
    st.lists(_words, min_size=1, max_size=40),
    st.sampled_from([3, 4]),
    st.lists(st.sampled_from(["", " ", "0", "00"]), min_size=1, max_size=1),
)
def test_random_init_shuffle_seeds(key: list[int], players: int, pad: list[str]) -> None:
    shuffle = "mt19937ar," + ",".join(pad[0] + f"{w:X}" for w in key)
    python = wall_from_init_shuffle(shuffle, players)
    _assert_same([python], [_core.init_shuffle_wall(shuffle, players)], True, shuffle[:60])
    assert native.wall_from_init_shuffle(shuffle, players) == python


# --------------------------------------------------------------- other texts: decline or agree

_REAL = _base64_seed([random.Random(3).getrandbits(32) for _ in range(624)])
_REAL_HEX = _hex_seed([random.Random(4).getrandbits(32) for _ in range(32)], upper=True)


def _edits() -> st.SearchStrategy[str]:
    """Seeds near the real forms: characters changed, inserted or removed, padding,
    spaces, signs, prefixes, other forms, and arbitrary text."""
    base = st.sampled_from([_REAL, _REAL_HEX, "mt19937ar,5EE931AE,6705E689", "0.125", ""])
    pieces = st.sampled_from(
        [" ", "\t", "\x1c", "=", "==", ",", "0x", "+", "-", "_", "A", "z", "/", "\u3000", "é"]
    )

    @st.composite
    def edited(draw: st.DrawFn) -> str:
        text = draw(base)
        for _ in range(draw(st.integers(0, 3))):
            at = draw(st.integers(0, len(text)))
            op = draw(st.sampled_from(["insert", "delete", "replace"]))
            piece = draw(pieces)
            if op == "insert":
                text = text[:at] + piece + text[at:]
            elif op == "delete":
                text = text[:at] + text[at + 1 :]
            else:
                text = text[:at] + piece + text[at + len(piece) :]
        return text

    return st.one_of(edited(), st.text(max_size=40))


def _python_outcome(fn: object, *args: object, **kwargs: object) -> object:
    try:
        return fn(*args, **kwargs)  # type: ignore[operator]
    except ValueError as exc:
        return ("ValueError", str(exc))


@needs_core
@settings(max_examples=300, deadline=None)
@given(_edits(), st.sampled_from([3, 4, 5]), st.integers(-1, 2))
@example(_REAL + "=", 4, 1)
@example(_REAL + "==", 4, 1)
@example(_REAL.replace(",", ", "), 4, 1)
@example(" " + _REAL, 4, 1)
@example(_REAL_HEX.replace(",", ",0x", 1), 4, 1)  # Python's int() reads 0x...; the core declines
@example(_REAL_HEX.lower(), 3, 1)
def test_other_seed_texts_are_declined_or_agree(seed: str, players: int, hands: int) -> None:
    expected = _python_outcome(walls_from_seed, seed, players, hands=hands)
    assert _python_outcome(native.walls_from_seed, seed, players, hands=hands) == expected
    if hands >= 0:
        first = _python_outcome(lambda: list(islice(iter_walls(seed, players), hands)))
        ours = _python_outcome(lambda: list(islice(native.iter_walls(seed, players), hands)))
        assert ours == first == expected
    if seed.isascii():
        try:
            records = _core.walls(seed, players, hands)
        except ValueError:
            return  # declined: native fell back (checked above)
        assert isinstance(expected, list), f"the core accepted what Python rejects: {seed!r}"
        _assert_same(expected, records, seed_format(seed) == FORMAT_HEX, seed[:60])


@needs_core
@settings(max_examples=200, deadline=None)
@given(_edits(), st.sampled_from([3, 4, 2]))
@example("mt19937ar,0x1F", 4)
@example("mt19937ar, 1F ,2", 4)
@example("mt19937ar,100000000", 4)
@example("mt19937ar,0000000001", 4)
@example("mt19937ar,", 4)
@example("mt19937ar", 4)
def test_other_init_shuffle_texts_are_declined_or_agree(shuffle: str, players: int) -> None:
    expected = _python_outcome(wall_from_init_shuffle, shuffle, players)
    assert _python_outcome(native.wall_from_init_shuffle, shuffle, players) == expected
    if shuffle.isascii():
        try:
            record = _core.init_shuffle_wall(shuffle, players)
        except ValueError:
            return
        assert isinstance(expected, Wall), f"the core accepted what Python rejects: {shuffle!r}"
        _assert_same([expected], [record], True, shuffle[:60])


# --------------------------------------------------------------- the parts


@needs_core
@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=700))
@example(b"")
@example(bytes(111))
@example(bytes(112))
@example(bytes(128))
@example(bytes(239))
@example(bytes(240))
def test_sha512_matches_hashlib(data: bytes) -> None:
    assert _core.sha512(data) == hashlib.sha512(data).digest()


# FIPS 180-2 appendix C's examples: "abc" (one block) and the 896-bit message (two).
_FIPS_ABC = (
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
)
_FIPS_896 = (
    "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
    "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
)
_FIPS_896_TEXT = (
    b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
    b"ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
)


@needs_core
def test_sha512_matches_the_fips_examples() -> None:
    assert _core.sha512(b"abc").hex() == _FIPS_ABC
    assert _core.sha512(_FIPS_896_TEXT).hex() == _FIPS_896


@needs_core
@pytest.mark.parametrize("best", [0, 1, 2])
@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=22), st.randoms(use_true_random=False))
@example(9, random.Random(0))  # a hand's nine: two groups of four and a scalar one
@example(13, random.Random(1))  # nine, then four
@example(18, random.Random(2))
def test_sha512_of_128_byte_chunks_matches_hashlib(
    best: int, count: int, rng: random.Random
) -> None:
    """The wall's path by each code up to ``best`` (0 plain; 1 AVX2; 2 AVX-512, the
    rotations and logic in one instruction each) that this processor runs, and every
    way of cutting ``count`` chunks into batches: hashlib's digest of every chunk, and
    the general ``sha512``'s (the padding block's precomputed rounds against its own)."""
    data = rng.randbytes(128 * count)
    chunks = [data[i : i + 128] for i in range(0, len(data), 128)]
    want = b"".join(hashlib.sha512(c).digest() for c in chunks)
    code = _core.sha512_128_code(best)
    assert code <= best
    assert _core.sha512_128(data, best) == want, f"code {code}"
    assert b"".join(_core.sha512(c) for c in chunks) == want


@needs_core
@pytest.mark.parametrize("best", [0, 1, 2])
@pytest.mark.parametrize("count", [1, 4, 8, 9, 13])
def test_sha512_of_128_byte_chunks_in_every_lane(best: int, count: int) -> None:
    """One chunk unlike the others (zeros) in each place of each batch: its digest
    comes out in its own place, whichever lane or group hashed it."""
    odd = _FIPS_896_TEXT + bytes(range(16))
    for at in range(count):
        data = bytearray(128 * count)
        data[128 * at : 128 * at + 128] = odd
        got = _core.sha512_128(bytes(data), best)
        for i in range(count):
            digest = hashlib.sha512(odd if i == at else bytes(128)).digest()
            assert got[64 * i : 64 * i + 64] == digest, (at, i)


@needs_core
def test_sha512_code_is_the_processors_best_up_to_the_one_asked() -> None:
    best = _core.sha512_128_code()
    assert best in (0, 1, 2)
    assert [_core.sha512_128_code(b) for b in (0, 1, 2)] == [min(b, best) for b in (0, 1, 2)]
    with pytest.raises(ValueError):
        _core.sha512_128_code(3)
    with pytest.raises(ValueError):
        _core.sha512_128(bytes(128), -1)


@needs_core
def test_sha512_of_128_byte_chunks_takes_whole_chunks_only() -> None:
    with pytest.raises(ValueError):
        _core.sha512_128(bytes(100))


@needs_core
@settings(max_examples=60, deadline=None)
@given(st.lists(_words, min_size=1, max_size=700), st.integers(0, 1400))
@example([0], 10)
@example([1, 0, 0], 700)
def test_mt19937_matches_init_by_array(key: list[int], count: int) -> None:
    """The core's MT19937 against replay_audit.wall.init_by_array + CPython's generator."""
    ref = random.Random()
    ref.setstate((3, (*init_by_array(key), 624), None))
    assert _core.mt19937_outputs(key, count) == [ref.getrandbits(32) for _ in range(count)]


@needs_core
def test_bad_arguments_raise_value_error() -> None:
    with pytest.raises(ValueError):
        _core.walls(_REAL, 5, 1)
    with pytest.raises(ValueError):
        _core.walls(_REAL, 4, -1)
    with pytest.raises(ValueError):
        _core.init_shuffle_wall("mt19937ar,1", 2)
    with pytest.raises(ValueError):
        _core.mt19937_outputs([], 1)
    assert _core.walls(_REAL, 4, 0) == []
