"""A hand's other tags: moves, riichi, connections, and the finished ``HandLog``.

Owns ``_HandState``: dispatching a hand's rarer tags (calls via ``meld_code``,
REACH, DORA, BYE/UN inside a hand, unknown tags) and ``finish``.

Must not: judge whether a move is legal (the replayer does).
"""

from __future__ import annotations

from lxml import etree

from replay_audit.model.errors import (
    InvalidValueError,
    TruncatedLogError,
)
from replay_audit.model.events import (
    Call,
    Disconnect,
    Event,
    HandLog,
    NewDora,
    RiichiAccept,
    RiichiDeclare,
)
from replay_audit.parsers.meld_code import decode_meld
from replay_audit.parsers.tenhou_xml.results import _HandResults
from replay_audit.parsers.tenhou_xml.values import _legacy_accepts


class _HandState(_HandResults):
    """One hand being read, tag by tag."""

    __slots__ = ()

    def other(self, tag: object, el: etree._Element, index: int) -> None:
        b = self.b
        if tag == "N":
            attrs = b._attrs(el, index)
            who = b._seat(attrs.pop("who"), "who")
            self.events.append(Call(index, who, decode_meld(int(attrs.pop("m")), who, gari=b.gari)))
            self.last_draw[who] = -1
            self._extra("N", attrs, index)
        elif tag == "REACH":
            self._reach(b._attrs(el, index), index)
        elif tag == "DORA":
            attrs = b._attrs(el, index)
            (tile,) = b._tiles(attrs.pop("hai"), "DORA hai")
            self.events.append(NewDora(index, tile))
            self._extra("DORA", attrs, index)
        elif tag == "AGARI":
            self._between_flush()
            self.events.append(self._agari(b._attrs(el, index), index))
        elif tag == "RYUUKYOKU":
            self._between_flush()
            self.events.append(self._ryuukyoku(b._attrs(el, index), index))
        elif tag == "BYE":
            attrs = b._attrs(el, index)
            self._connection(Disconnect(index, b._seat(attrs.pop("who"), "who")))
            self._extra("BYE", attrs, index)
        elif tag == "UN":
            event = b._un(el, index, self.label)
            if event is not None:
                self._connection(event)
        else:
            b._unknown(tag, el, index)

    def _connection(self, event: Event) -> None:
        """After the hand's result a BYE/UN belongs to the gap before the next
        hand: keep it aside and give it to the next INIT (or to this hand's end
        if no hand follows)."""
        if self.b._result_seen:
            self.b._between.append(event)
        else:
            self.events.append(event)

    def _between_flush(self) -> None:
        if self.b._between:  # e.g. UN between the two AGARI of a double ron
            self.events.extend(self.b._between)
            self.b._between.clear()

    def _reach(self, attrs: dict[str, str], index: int) -> None:
        who = self.b._seat(attrs.pop("who"), "who")
        step = attrs.pop("step", None)
        ten = attrs.pop("ten", None)
        self._extra("REACH", attrs, index)
        if step == "1":
            self.events.append(RiichiDeclare(index, who))
        elif step == "2":
            scores = tuple(100 * int(v) for v in ten.split(",")) if ten else None
            if scores is not None and len(scores) != 4:
                raise InvalidValueError(f"REACH ten has {len(scores)} values, not 4")
            self.events.append(RiichiAccept(index, who, scores))
        elif step is None:  # 2006: one tag, accepted after the discard unless ronned
            self.events.append(RiichiDeclare(index, who))
            self.legacy.append(index)
            self.b.stepless_reach = True
        else:
            raise InvalidValueError(f"REACH step={step!r}: steps are 1 and 2")

    def finish(self, position: int) -> HandLog:
        if not self.b._result_seen:
            raise TruncatedLogError("the hand has no AGARI or RYUUKYOKU", index=self.seq)
        if self.legacy:
            self.events = _legacy_accepts(self.events, frozenset(self.legacy))
        return HandLog(
            index=position,
            seq=self.seq,
            round_index=self.round_index,
            honba=self.honba,
            sticks=self.sticks,
            dealer=self.dealer,
            scores=self.scores,
            haipai=self.haipai,
            dora_indicator=self.dora,
            dice=self.dice,
            events=tuple(self.events),
            chips=self.chips,
            extra=tuple(self.extra),
        )
