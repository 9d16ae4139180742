"""The merge: re-simulating the table to put the seats' columns back in one
global move order (formats.md §4.7), with backtracking over the ambiguous calls.

Owns ``_run`` and its steps (who calls a discard, open and own-turn calls, the
end of the hand), and putting disconnections back among the moves.

Must not: read result strings or the document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from replay_audit.model.errors import (
    LimitExceededError,
)
from replay_audit.model.events import (
    Call,
    Discard,
    Disconnect,
    Draw,
    Move,
    NewDora,
    Reconnect,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.model.meld import Meld, MeldKind
from replay_audit.model.tiles import KIND_NAMES, Tile
from replay_audit.parsers.tenhou_json.calls import (
    _CallStr,
    _Dead,
    _Hand,
    _key,
    _State,
    _tkey,
    source_seat,
)
from replay_audit.parsers.tenhou_json.names import KAN_PLACEHOLDER, MAX_SIM_STEPS, TSUMOGIRI, _nm

# --------------------------------------------------------------------- the merge


def _next_seat(seat: int, players: int) -> int:
    return (seat + 1) % players


def _flush(st: _State) -> None:
    """Before a draw or call: place a waiting riichi stick (REACH step 2 comes
    right after the discard unless that discard is ronned)."""
    if st.riichi_wait is not None:
        st.events.append(RiichiAccept(seq=len(st.events), seat=st.riichi_wait))
        st.accepted[st.riichi_wait] = True
        st.riichi_wait = None


def _reveal(h: _Hand, st: _State, depth: int) -> None:
    if st.dora_used + 1 >= len(h.dora):
        raise _Dead("a kan reveals more dora than the dora list holds", depth)
    st.dora_used += 1
    st.events.append(NewDora(seq=len(st.events), indicator=h.dora[st.dora_used]))


def _pick(
    st: _State,
    seat: int,
    key: tuple[int, bool],
    reds: frozenset[Tile],
    depth: int,
    avoid: Tile | None = None,
) -> Tile:
    """Remove and return a tile of that kind/redness from the seat's hand, another
    copy than ``avoid`` (the drawn tile) when there is one."""
    k, red = key
    cands = [t for t in st.hands[seat] if t >> 2 == k and (t in reds) == red]
    if not cands:
        raise _Dead(f"seat {seat} does not hold a {_code_name(key)}", depth)
    others = [t for t in cands if t != avoid]
    t = min(others) if others else min(cands)
    st.hands[seat].remove(t)
    return t


def _code_name(key: tuple[int, bool]) -> str:
    return KIND_NAMES[key[0]] + (" (red)" if key[1] else "")


def _run(h: _Hand, st: _State, actor: int, phase: str, depth: int) -> _State:
    """Play the hand forward from ``actor`` in ``phase`` (``take`` or
    ``discard``) to its end, branching at ambiguous calls."""
    reds = h.reds
    item: int | str | _CallStr  # a take-column or a discard-column item (no code runs)
    # the columns and this branch's lists, bound once: the loop runs for every move
    takes, discards = h.takes, h.discards
    ti, di, hands, drawn_by, events = st.ti, st.di, st.hands, st.drawn, st.events
    while True:
        h.steps += 1
        if h.steps > MAX_SIM_STEPS:
            raise LimitExceededError("merging the columns took too many steps")
        depth += 1
        if phase == "take":
            if ti[actor] >= len(takes[actor]):
                _finish(h, st, depth)
                return st
            item = takes[actor][ti[actor]]
            if isinstance(item, _CallStr):
                raise _Dead(f"seat {actor} must draw but its next take is {item.text!r}", depth)
            ti[actor] += 1
            if st.due_on_draw:
                for _ in range(st.due_on_draw):
                    _reveal(h, st, depth)
                st.due_on_draw = 0
            hands[actor].append(item)
            drawn_by[actor] = item
            if st.riichi_wait is not None:
                _flush(st)
            events.append(Draw(seq=len(events), seat=actor, tile=item))
            if di[actor] >= len(discards[actor]):
                _finish(h, st, depth)
                return st
            phase = "discard"
            continue
        # discard phase: the actor's next discard-column item
        if di[actor] >= len(discards[actor]):
            raise _Dead(f"seat {actor} must discard but its column is used up", depth)
        item = discards[actor][di[actor]]
        di[actor] += 1
        if isinstance(item, _CallStr):
            _self_call(h, st, actor, item, depth)
            drawn_by[actor] = None
            phase = "take"
            if ti[actor] >= len(takes[actor]):
                _finish(h, st, depth)  # chankan / ron on kita / hand ends on the kan
                return st
            continue
        if item == KAN_PLACEHOLDER:
            raise _Dead(f"seat {actor} has a kan placeholder where a discard belongs", depth)
        riichi = isinstance(item, str)
        code = int(item[1:]) if isinstance(item, str) else item
        drawn = drawn_by[actor]
        if code == TSUMOGIRI:
            if drawn is None or drawn not in hands[actor]:
                raise _Dead(f"seat {actor} discards the drawn tile but drew none", depth)
            tile = drawn
            hands[actor].remove(tile)
        else:
            tile = _pick(st, actor, _key(code, reds), reds, depth, avoid=drawn)
        if st.pending_dora:
            for _ in range(st.pending_dora):
                _reveal(h, st, depth)
            st.pending_dora = 0
        if riichi:
            events.append(RiichiDeclare(seq=len(events), seat=actor))
        events.append(Discard(seq=len(events), seat=actor, tile=tile, tsumogiri=code == TSUMOGIRI))
        if riichi:
            st.riichi_wait = actor
        drawn_by[actor] = None
        st.last_discard = (actor, tile)
        options = _callers(h, st, actor, tile)
        nxt = _next_seat(actor, h.players)
        if not options:
            actor, phase = nxt, "take"
            continue
        options.append(None)
        best: _Dead | None = None
        for opt in options:
            branch = st.copy() if opt is not options[-1] else st
            try:
                if opt is None:
                    return _run(h, branch, nxt, "take", depth)
                _open_call(h, branch, opt, actor, tile, depth)
                after = "take" if opt[1].letter == "m" else "discard"
                return _run(h, branch, opt[0], after, depth)
            except _Dead as dead:
                if best is None or dead.depth >= best.depth:
                    best = dead
        assert best is not None
        raise best


def _callers(h: _Hand, st: _State, discarder: int, tile: Tile) -> list[tuple[int, _CallStr] | None]:
    """Seats whose next take is a call on exactly this tile from this seat; pon and
    daiminkan before chi (§4.7).  Never ``None`` here: the caller appends that
    option itself (nobody calls)."""
    pons: list[tuple[int, _CallStr]] = []
    chis: list[tuple[int, _CallStr]] = []
    key: tuple[int, bool] | None = None  # worked out once a seat's next take is a call
    takes, ti = h.takes, st.ti
    for seat in range(h.players):
        if seat == discarder or ti[seat] >= len(takes[seat]):
            continue
        item = takes[seat][ti[seat]]
        if not isinstance(item, _CallStr):
            continue
        if key is None:
            key = _tkey(tile, h.reds)
        if _key(item.codes[item.key_index], h.reds) != key:
            continue
        try:
            src = source_seat(seat, item.pos, item.letter, h.players)
        except ValueError:
            continue
        if src != discarder:
            continue
        (chis if item.letter == "c" else pons).append((seat, item))
    return [*pons, *chis]


def _open_call(
    h: _Hand, st: _State, opt: tuple[int, _CallStr], discarder: int, tile: Tile, depth: int
) -> None:
    seat, c = opt
    own_codes = [x for i, x in enumerate(c.codes) if i != c.key_index]
    own = [_pick(st, seat, _key(x, h.reds), h.reds, depth) for x in own_codes]
    kind_ = {"c": MeldKind.CHI, "p": MeldKind.PON, "m": MeldKind.DAIMINKAN}[c.letter]
    meld = Meld(kind=kind_, tiles=tuple(sorted([tile, *own])), called=tile, from_seat=discarder)
    st.ti[seat] += 1
    st.melds[seat].append(meld)
    st.drawn[seat] = None
    st.last_discard = None
    _flush(st)
    st.events.append(Call(seq=len(st.events), seat=seat, meld=meld))
    if kind_ is MeldKind.DAIMINKAN:
        if st.pending_dora:  # a second kan reveals the first one's dora
            for _ in range(st.pending_dora):
                _reveal(h, st, depth)
            st.pending_dora = 0
        if h.kan_dora_at_once:
            _reveal(h, st, depth)
        else:
            st.pending_dora = 1
        # the take slot is used; its discard slot holds the placeholder 0,
        # which the official JSON drops when it would be the column's last item
        if st.di[seat] < len(h.discards[seat]):
            if h.discards[seat][st.di[seat]] != KAN_PLACEHOLDER:
                raise _Dead(f"seat {seat}: daiminkan without its 0 placeholder", depth)
            st.di[seat] += 1


def _self_call(h: _Hand, st: _State, actor: int, c: _CallStr, depth: int) -> None:
    reds = h.reds
    if c.letter == "f":
        t = _pick(st, actor, (30, False), reds, depth)
        meld = Meld(kind=MeldKind.KITA, tiles=(t,))
        st.melds[actor].append(meld)
        _flush(st)
        st.events.append(Call(seq=len(st.events), seat=actor, meld=meld))
        return
    if c.letter == "a":
        tiles = [_pick(st, actor, _key(x, reds), reds, depth) for x in c.codes]
        meld = Meld(kind=MeldKind.ANKAN, tiles=tuple(sorted(tiles)))
        st.melds[actor].append(meld)
        _flush(st)
        st.events.append(Call(seq=len(st.events), seat=actor, meld=meld))
        for _ in range(st.pending_dora):
            _reveal(h, st, depth)
        st.pending_dora = 0
        _reveal(h, st, depth)
        return
    # kakan: extends the seat's pon of that kind
    added_key = _key(c.codes[c.key_index], reds)
    pon_i = next(
        (
            i
            for i, m in enumerate(st.melds[actor])
            if m.kind is MeldKind.PON and m.kind34 == added_key[0]
        ),
        None,
    )
    if pon_i is None:
        raise _Dead(f"seat {actor}: kakan {c.text!r} without a pon to extend", depth)
    pon = st.melds[actor][pon_i]
    try:
        src = source_seat(actor, c.pos, "p", h.players)
    except ValueError as exc:
        raise _Dead(str(exc), depth) from None
    if src != pon.from_seat:
        raise _Dead(f"seat {actor}: kakan {c.text!r} names another source than its pon", depth)
    added = _pick(st, actor, added_key, reds, depth)
    meld = Meld(
        kind=MeldKind.KAKAN,
        tiles=tuple(sorted((*pon.tiles, added))),
        called=pon.called,
        from_seat=pon.from_seat,
        added=added,
    )
    st.melds[actor][pon_i] = meld
    _flush(st)
    st.events.append(Call(seq=len(st.events), seat=actor, meld=meld))
    if h.kan_dora_at_once:
        _reveal(h, st, depth)
        return
    st.due_on_draw += st.pending_dora
    st.pending_dora = 1


def _finish(h: _Hand, st: _State, depth: int) -> None:
    """The hand has stopped: every column must be used up and the result must fit
    the last move, else this branch is not what happened."""
    for seat in range(h.players):
        if st.ti[seat] < len(h.takes[seat]):
            raise _Dead(f"seat {seat} has takes left after the hand ended", depth)
        if st.di[seat] < len(h.discards[seat]):
            raise _Dead(f"seat {seat} has discards left after the hand ended", depth)
    if st.dora_used + 1 != len(h.dora):
        raise _Dead(
            f"{len(h.dora)} dora indicators listed but {st.dora_used + 1} revealed by the moves",
            depth,
        )
    last = st.events[-1] if st.events else None
    if h.result_kind == "win":
        for who, frm in h.wins:
            if who == frm:
                ok = isinstance(last, Draw) and last.seat == who and len(h.wins) == 1
            else:
                ok = (
                    isinstance(last, Discard)
                    or (
                        isinstance(last, Call)
                        and last.meld.kind in (MeldKind.KAKAN, MeldKind.KITA, MeldKind.ANKAN)
                    )
                ) and last.seat == frm
            if not ok:
                raise _Dead(
                    f"the win of seat {who} from seat {frm} does not fit the last move", depth
                )
    elif h.result_kind == "yao9" and not isinstance(last, Draw):
        raise _Dead("九種九牌 must follow a draw", depth)
    if st.riichi_wait is not None:
        ronned = h.result_kind == "ron3" or any(
            frm == st.riichi_wait and who != frm for who, frm in h.wins
        )
        if not ronned:
            st.events.append(RiichiAccept(seq=len(st.events), seat=st.riichi_wait))
            st.accepted[st.riichi_wait] = True
        st.riichi_wait = None


def _reseq(m: Move, i: int) -> Move:
    return replace(m, seq=i)


def _insert_connections(
    events: list[Move], conns: Sequence[tuple[int, int, int]], names: Sequence[str]
) -> list[Move]:
    """Place BYE/reconnect events after ``step`` draw/discard/call moves, and after
    the riichi stick or kan dora that comes with the step-th move."""
    if not conns:
        return events
    counted = (Draw, Discard, Call)
    out: list[Move] = []
    n = 0
    pending = sorted(conns, key=lambda c: c[2])
    k = 0

    def flush() -> None:
        nonlocal k
        while k < len(pending) and pending[k][2] <= n:
            what, who, _ = pending[k]
            out.append(
                Disconnect(seq=0, seat=who)
                if what == 0
                else Reconnect(seq=0, seat=who, name=_nm(names, who))
            )
            k += 1

    flush()
    for i, ev in enumerate(events):
        out.append(ev)
        if isinstance(ev, counted):
            n += 1
        nxt = events[i + 1] if i + 1 < len(events) else None
        if not isinstance(nxt, (RiichiAccept, NewDora)):
            flush()
    while k < len(pending):
        n = pending[-1][2]
        flush()
    return out
