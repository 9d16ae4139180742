"""Trust sweep over the moves: every single edit of a few kinds, applied to real
corpus logs one at a time and audited; which edits does the audit accept?

The audit's promise is that nothing is taken on trust: an edit it accepts must leave
a legal, consistent log (another game that could have been played), else it is a
gap.  The edits: a draw's or a discard's tile (another copy, another kind, a red
five swapped; a discard also to another tile the seat holds and to one it does not),
two adjacent moves swapped, a move deleted, duplicated or moved to the next hand, a
call's ``m`` (each single-bit change that still decodes) or ``who``, a REACH moved
one move later or earlier, the last or a middle hand deleted whole, the shown tiles,
melds and machi of AGARI and RYUUKYOKU.  Each edit is audited by
``audit_file`` on the written bytes (the source's own file name, so its date is
read alike); "flagged" is at least one finding that is no note.

    python benchmarks/sweep_moves.py OUT.tsv [--python] [LOG ...]

``LOG`` paths are under ``../shared/corpus/tenhou-xml`` (default: eleven varied
logs, LOGS below); ``--python`` replays by the Python rooms (the core's hand loop
off, as ``tests/conftest.py::replay_by``).  Writes one row per edit (log, kind, tag
index, hand, detail, flagged, the findings' category:field) and prints the
counts per kind.  Round 13's run: 68,050 edits, 2,905 unflagged, every one a legal
other game (a meld code's unused bits, another held copy in a call, a discard of
another held tile that nothing later names, a REACH step 1 whose discard is
ronned).  About 2 minutes on the core.
"""

from __future__ import annotations

import gzip
import itertools
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from replay_audit.auditing.auditor import audit_file
from replay_audit.model.errors import InvalidValueError
from replay_audit.model.meld import MeldKind
from replay_audit.parsers.meld_code import decode_meld

CORPUS = Path(__file__).resolve().parents[1].parent / "shared/corpus/tenhou-xml"
LOGS = [
    "phoenix-2024/2024041201gm-00a9-0000-ce9295a0.xml.gz",  # hanchan, double ron, kans
    "phoenix-2024/2024041923gm-00e1-0000-8a8c7af5.xml.gz",  # tonpuu, nagashi
    "phoenix-2024/2024041313gm-00a9-0000-c0094cae.xml.gz",  # four-kan draw
    "phoenix-2024/2024041817gm-00e1-0000-6f46277c.xml.gz",  # tonpuu, four-riichi draw
    "phoenix-2024/2024041202gm-00a9-0000-bca0bd39.xml.gz",  # four-wind draw
    "excerpts/2018110809gm-00b9-0000-00a79b89.xml.gz",  # sanma, kita
    "excerpts/2009060321gm-00b9-0000-75b25bcf.xml.gz",  # sanma 2009, no SHUFFLE
    "special/bug6.xml.gz",  # no SHUFFLE, double ron, many riichi
    "special/pao.xml.gz",  # pao
    "special/bye.xml.gz",  # 2009, BYE/UN
    "special/chip.xml.gz",  # chip game
]

TOKEN = re.compile(r"<[^>]*>")
NAME = re.compile(r"<(/?\w+)")
DRAW = re.compile(r"^<([TUVW])(\d+)/>$")
DISCARD = re.compile(r"^<([DEFG])(\d+)/>$")
ATTR = re.compile(r'(\w+)="([^"]*)"')
RED = {16, 52, 88}


def name(tok: str) -> str:
    m = NAME.match(tok)
    return m.group(1) if m else ""


def is_move(tok: str) -> bool:
    return bool(DRAW.match(tok) or DISCARD.match(tok)) or name(tok) in ("N", "REACH", "DORA")


def attrs(tok: str) -> dict[str, str]:
    return dict(ATTR.findall(tok))


def set_attr(tok: str, key: str, value: str | None) -> str:
    if value is None:
        return re.sub(rf'\s{key}="[^"]*"', "", tok)
    if re.search(rf'\s{key}="', tok):
        return re.sub(rf'(\s{key}=")[^"]*(")', lambda m: m.group(1) + value + m.group(2), tok)
    return tok.replace("/>", f' {key}="{value}"/>')  # (a tag without it: added)


def other_copy(t: int) -> int:
    """Another copy of the same kind, not a red-five swap."""
    k, c = divmod(t, 4)
    for d in (1, 2, 3):
        u = 4 * k + (c + d) % 4
        if (u in RED) == (t in RED):
            return u
    return 4 * k + (c + 1) % 4


def other_kind(t: int) -> int:
    k, c = divmod(t, 4)
    return 4 * ((k + 1) % 34) + c


def red_swap(t: int) -> int | None:
    if t in RED:
        return t + 1
    if t - 1 in RED:
        return t - 1
    return None


def bit_flips(code: int, who: int) -> Iterator[tuple[int, int, bool]]:
    """``(bit, code with that bit flipped, whether it decodes to the same meld)`` for
    each of a meld code's 16 bits whose flip still decodes."""
    try:
        before = decode_meld(code, who)
    except InvalidValueError:
        before = None
    for bit in range(16):
        flipped = code ^ (1 << bit)
        try:
            after = decode_meld(flipped, who)
        except InvalidValueError:
            continue
        yield bit, flipped, after == before


class Log:
    """A corpus mjlog as its list of tags (the document is nothing else: joined
    again, they are the log), with each hand's INIT and the tiles each seat held
    before each of its discards, which the discard edits choose from."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.path = CORPUS / rel
        text = gzip.decompress(self.path.read_bytes()).decode("utf-8")
        self.tokens = TOKEN.findall(text)
        self.inits = [i for i, t in enumerate(self.tokens) if name(t) == "INIT"]
        self.target = rel.split("/")[-1].removesuffix(".gz")
        if not self.target.endswith(".xml"):
            self.target += ".xml"
        self.hands_held = self._simulate()

    def hand_of(self, i: int) -> int:
        h = -1
        for j in self.inits:
            if j <= i:
                h += 1
        return h

    def _simulate(self) -> dict[int, dict[int, set[int]]]:
        """Each discard's index -> the tiles its seat held just before it (by seat)."""
        out: dict[int, dict[int, set[int]]] = {}
        hands: dict[int, set[int]] = {}
        for i, tok in enumerate(self.tokens):
            n = name(tok)
            if n == "INIT":
                a = attrs(tok)
                hands = {
                    s: {int(x) for x in a.get(f"hai{s}", "").split(",") if x} for s in range(4)
                }
                continue
            if m := DRAW.match(tok):
                hands["TUVW".index(m.group(1))].add(int(m.group(2)))
            elif m := DISCARD.match(tok):
                s = "DEFG".index(m.group(1))
                out[i] = {s: set(hands[s])}
                hands[s].discard(int(m.group(2)))
            elif n == "N":
                a = attrs(tok)
                who = int(a["who"])
                try:
                    meld = decode_meld(int(a["m"]), who)
                except InvalidValueError:
                    continue
                if meld.kind is MeldKind.KAKAN:
                    hands[who].discard(meld.added)
                else:
                    for t in meld.tiles:
                        if t != meld.called:
                            hands[who].discard(t)
        return out


def edits(log: Log) -> Iterator[tuple[str, int, str, list[str]]]:
    """Every single edit of ``log``: (kind, tag index, what changed, the edited tags)."""
    toks = log.tokens
    n_tok = len(toks)

    def put(i: int, new: str) -> list[str]:
        return [*toks[:i], new, *toks[i + 1 :]]

    moves = [i for i in range(n_tok) if is_move(toks[i])]
    for i, tok in enumerate(toks):
        if m := DRAW.match(tok):
            t = int(m.group(2))
            L = m.group(1)
            yield "draw_copy", i, f"{t}->{other_copy(t)}", put(i, f"<{L}{other_copy(t)}/>")
            yield "draw_kind", i, f"{t}->{other_kind(t)}", put(i, f"<{L}{other_kind(t)}/>")
            if (r := red_swap(t)) is not None:
                yield "draw_red", i, f"{t}->{r}", put(i, f"<{L}{r}/>")
        elif m := DISCARD.match(tok):
            t = int(m.group(2))
            L = m.group(1)
            seat = "DEFG".index(L)
            held = sorted(log.hands_held.get(i, {}).get(seat, set()) - {t})
            same = [u for u in held if u // 4 == t // 4 and (u in RED) == (t in RED)]
            diff = [u for u in held if u // 4 != t // 4]
            if same:
                yield "discard_held_copy", i, f"{t}->{same[0]}", put(i, f"<{L}{same[0]}/>")
            if diff:
                u = diff[len(diff) // 2]
                yield "discard_held_kind", i, f"{t}->{u}", put(i, f"<{L}{u}/>")
            notheld = [u for u in range(136) if u not in held and u != t and u // 4 != t // 4]
            u = next((x for x in notheld if x // 4 == (t // 4 + 1) % 34), notheld[0])
            yield "discard_unheld", i, f"{t}->{u}", put(i, f"<{L}{u}/>")
            if (r := red_swap(t)) is not None:
                yield "discard_red", i, f"{t}->{r}", put(i, f"<{L}{r}/>")
        elif name(tok) == "N":
            a = attrs(tok)
            mcode, who = int(a["m"]), int(a["who"])
            for bit, m2, same in bit_flips(mcode, who):
                kind = "call_m_same_meld" if same else "call_m"
                yield kind, i, f"m {mcode}->{m2} bit{bit}", put(i, set_attr(tok, "m", str(m2)))
            for w in range(4):
                if w != who:
                    yield "call_who", i, f"who {who}->{w}", put(i, set_attr(tok, "who", str(w)))
        elif name(tok) == "REACH":
            if i + 1 < n_tok and is_move(toks[i + 1]):
                new = [*toks[:i], toks[i + 1], tok, *toks[i + 2 :]]
                yield "reach_later", i, f"step {attrs(tok).get('step')}", new
            if i - 1 >= 0 and is_move(toks[i - 1]):
                new = [*toks[: i - 1], tok, toks[i - 1], *toks[i + 1 :]]
                yield "reach_earlier", i, f"step {attrs(tok).get('step')}", new
        elif name(tok) in ("AGARI", "RYUUKYOKU"):
            yield from result_edits(toks, i, tok)
    # structure: swaps, deletions, duplicates, moved to the next hand
    for a, b in itertools.pairwise(moves):
        if b == a + 1:
            new = [*toks[:a], toks[b], toks[a], *toks[b + 1 :]]
            yield "swap", a, f"{toks[a]}<->{toks[b]}", new
    for i in moves:
        yield "delete", i, toks[i], toks[:i] + toks[i + 1 :]
        yield "duplicate", i, toks[i], [*toks[: i + 1], toks[i], *toks[i + 1 :]]
        nxt = next((j for j in log.inits if j > i), None)
        if nxt is not None:
            new = toks[:i] + toks[i + 1 : nxt + 1] + [toks[i]] + toks[nxt + 1 :]
            yield "to_next_hand", i, toks[i], new
    # whole hands
    for h, start in enumerate(log.inits):
        end = log.inits[h + 1] if h + 1 < len(log.inits) else None
        if end is None:
            # the last hand: up to (not including) the owari result's end; keep the
            # tags after its result that belong to no hand (none in mjlog but BYE/UN)
            stop = max(j for j in range(start, n_tok) if name(toks[j]) in ("AGARI", "RYUUKYOKU"))
            new = toks[:start] + toks[stop + 1 :]
            yield "hand_delete_last_with_owari", start, f"hand {h}", new
            owari = attrs(toks[stop]).get("owari")
            prev = max(
                (j for j in range(start) if name(toks[j]) in ("AGARI", "RYUUKYOKU")), default=None
            )
            if owari is not None and prev is not None:
                new = list(new)
                new[prev] = set_attr(new[prev], "owari", owari)
                yield "hand_delete_last", start, f"hand {h}", new
        elif h > 0:
            yield "hand_delete_middle", start, f"hand {h}", toks[:start] + toks[end:]


def result_edits(toks: list[str], i: int, tok: str) -> Iterator[tuple[str, int, str, list[str]]]:
    """The edits of one AGARI or RYUUKYOKU: each shown tile, the machi, each meld code."""
    a = attrs(tok)
    n = name(tok)

    def put(new: str) -> list[str]:
        return [*toks[:i], new, *toks[i + 1 :]]

    keys = ["hai"] if n == "AGARI" else [k for k in ("hai0", "hai1", "hai2", "hai3") if k in a]
    for key in keys:
        if key not in a:
            continue
        tiles = [int(x) for x in a[key].split(",") if x]
        for j, t in enumerate(tiles):
            for label, u in (
                ("copy", other_copy(t)),
                ("kind", other_kind(t)),
                ("red", red_swap(t)),
            ):
                if u is None:
                    continue
                new = [*tiles[:j], u, *tiles[j + 1 :]]
                yield (
                    f"{n.lower()}_{key[:3]}_{label}",
                    i,
                    f"{key}[{j}] {t}->{u}",
                    put(set_attr(tok, key, ",".join(map(str, new)))),
                )
        new = tiles[1:]
        yield (
            f"{n.lower()}_{key[:3]}_drop",
            i,
            f"{key} minus {tiles[0]}",
            put(set_attr(tok, key, ",".join(map(str, new)))),
        )
        if n == "RYUUKYOKU":
            yield "ryuukyoku_hai_removed", i, key, put(set_attr(tok, key, None))
    if n == "AGARI":
        if "machi" in a:
            t = int(a["machi"])
            for label, u in (
                ("copy", other_copy(t)),
                ("kind", other_kind(t)),
                ("red", red_swap(t)),
            ):
                if u is not None:
                    yield (
                        f"agari_machi_{label}",
                        i,
                        f"machi {t}->{u}",
                        put(set_attr(tok, "machi", str(u))),
                    )
        if "m" in a:
            codes = [int(x) for x in a["m"].split(",")]
            who = int(a["who"])
            for j, c in enumerate(codes):
                for _, c2, same in bit_flips(c, who):
                    new = [*codes[:j], c2, *codes[j + 1 :]]
                    kind = "agari_m_same_meld" if same else "agari_m"
                    yield (
                        kind,
                        i,
                        f"m[{j}] {c}->{c2}",
                        put(set_attr(tok, "m", ",".join(map(str, new)))),
                    )
                rest = codes[:j] + codes[j + 1 :]
                yield (
                    "agari_m_drop",
                    i,
                    f"m minus {c}",
                    put(set_attr(tok, "m", ",".join(map(str, rest)) or None)),
                )


def main() -> None:
    """Audit every edit of each log; write the rows and print the counts per kind."""
    args = [a for a in sys.argv[1:] if a != "--python"]
    if "--python" in sys.argv:
        from replay_audit.replay import table

        table.CORE_GAME = None
        table.CORE_RUN = None
    out = Path(args[0])
    counts: dict[str, list[int]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="sweep") as folder,
        out.open("w", encoding="utf-8") as f,
    ):
        tmp = Path(folder)
        f.write("log\tkind\tindex\thand\tdetail\tflagged\tfound\n")
        for rel in args[1:] or LOGS:
            log = Log(rel)
            target = tmp / log.target
            target.write_text("".join(log.tokens), encoding="utf-8")
            base = [
                x for x in audit_file(target, with_facts=False).findings if x["category"] != "info"
            ]
            assert base == [], (rel, base)
            t0 = time.time()
            for kind, i, detail, new in edits(log):
                target.write_text("".join(new), encoding="utf-8")
                fa = audit_file(target, with_facts=False)
                probs = [x for x in fa.findings if x["category"] != "info"]
                found = sorted({f"{x['category']}:{x['field']}" for x in probs})
                flagged = int(bool(probs))
                row = [rel, kind, str(i), str(log.hand_of(i)), detail.replace("\t", " ")]
                f.write("\t".join([*row, str(flagged), " ".join(found)]) + "\n")
                c = counts.setdefault(kind, [0, 0])
                c[0] += 1
                c[1] += flagged
            f.flush()
            print(f"{rel}: {time.time() - t0:.1f}s", flush=True)
    print(f"{'kind':<28} {'edits':>6} {'flagged':>7} {'not':>6}")
    for kind, (n, flagged) in sorted(counts.items()):
        print(f"{kind:<28} {n:>6} {flagged:>7} {n - flagged:>6}")
    total = sum(c[0] for c in counts.values())
    flagged = sum(c[1] for c in counts.values())
    print(f"{'all':<28} {total:>6} {flagged:>7} {total - flagged:>6}")


if __name__ == "__main__":
    main()
