"""The walk: every element once, in document order, into a ``Game``.

Owns ``_Builder``: the walk over the root's children, hands opened at INIT and
closed at their result, strict vs lenient (a bad hand dropped, the walk resumed at
the next INIT), tile-attribute checks and the finished ``Game``.

Must not: read a tag's values itself (``game_state``, ``hand``).
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from replay_audit.model.errors import (
    LogFormatError,
    TruncatedLogError,
)
from replay_audit.model.events import (
    Discard,
    Draw,
    Game,
    GameMeta,
    Player,
)
from replay_audit.parsers.tenhou_xml.game_state import _GameState
from replay_audit.parsers.tenhou_xml.hand import _HandState
from replay_audit.parsers.tenhou_xml.limits import _check_document
from replay_audit.parsers.tenhou_xml.tags import _TILE_TAGS, _Place
from replay_audit.parsers.tenhou_xml.values import (
    _DISCARD_SETTERS,
    _DRAW_SETTERS,
    _bad_value,
)


class _Builder(_GameState):
    """The walk over a document, hand by hand."""

    def build(self, root: etree._Element, truncated: TruncatedLogError | None) -> Game:
        place: _Place = {"source": self.source, "log_id": self.log_id}
        _check_document(root, self.data, place)
        self.truncated = truncated
        root_attrs = dict(root.attrib)
        self.attributes_read += len(root_attrs)
        version = root_attrs.pop("ver", "2.3")
        if version != "2.3":
            self.meta_extra.append(("mjloggm.ver", version))
        self.meta_extra.extend(self._leftovers("mjloggm", root_attrs, 0, None))
        it = enumerate(root)
        for index, el in it:  # header: everything before the first INIT
            tag = el.tag
            if tag == "INIT":
                self._walk_hands(index, el, it)
                break
            try:
                self._header(tag, el, index)
            except LogFormatError as exc:
                raise exc.located(index=index, **place) from None
            except (ValueError, KeyError, IndexError) as exc:
                raise _bad_value(tag, exc).located(index=index, **place) from exc
        self._check_tile_attributes(root)
        self.data = b""
        return self._finish(truncated)

    def _walk_hands(
        self, first: int, first_el: etree._Element, it: Iterator[tuple[int, etree._Element]]
    ) -> None:
        """The hot loop: from the first INIT to the end of the document."""
        place: _Place = {"source": self.source, "log_id": self.log_id}
        get_tile = _TILE_TAGS[self.tile_set].get
        new = object.__new__
        set_seq, set_seat, set_tile = _DRAW_SETTERS
        set_dseq, set_dseat, set_dtile, set_tsumogiri = _DISCARD_SETTERS
        pending_el: tuple[int, etree._Element] | None = (first, first_el)
        obj: Draw | Discard  # a bare annotation: no code runs
        while pending_el is not None:
            index, el = pending_el
            pending_el = None
            try:
                hand = _HandState(self, index, self._attrs(el, index))
            except LogFormatError as exc:
                self._hand_failed(exc.located(index=index, **place))
                pending_el = self._resync(it)
                continue
            append = hand.events.append
            last_draw = hand.last_draw
            try:
                for index, el in it:
                    hit = get_tile(el.tag)
                    if hit is not None:
                        # Draw/Discard built in place (see ``_slot_setters``):
                        # a helper function's call costs as much as the setters.
                        action, seat, tile = hit
                        if action:
                            obj = new(Discard)
                            set_dseq(obj, index)
                            set_dseat(obj, seat)
                            set_dtile(obj, tile)
                            set_tsumogiri(obj, tile == last_draw[seat])
                            last_draw[seat] = -1
                        else:
                            obj = new(Draw)
                            set_seq(obj, index)
                            set_seat(obj, seat)
                            set_tile(obj, tile)
                            last_draw[seat] = tile
                        append(obj)
                        continue
                    tag = el.tag
                    if tag == "INIT":
                        pending_el = (index, el)
                        break
                    hand.other(tag, el, index)
            except LogFormatError as exc:
                self._hand_failed(exc.located(hand=hand.label, index=index, **place))
                pending_el = self._resync(it)
                continue
            except (ValueError, KeyError, IndexError) as exc:
                error = _bad_value(el.tag, exc).located(hand=hand.label, index=index, **place)
                self._hand_failed(error)
                pending_el = self._resync(it)
                continue
            if pending_el is None:  # end of document: trailing BYE/UN stay with the last hand
                hand.events.extend(self._between)
                self._between.clear()
            self._close_hand(hand)

    def _hand_failed(self, error: LogFormatError) -> None:
        if self.strict:
            raise error
        self.errors.append(error)

    def _resync(
        self, it: Iterator[tuple[int, etree._Element]]
    ) -> tuple[int, etree._Element] | None:
        for index, el in it:
            if el.tag == "INIT":
                return index, el
        return None

    def _close_hand(self, hand: _HandState) -> None:
        try:
            self.hands.append(hand.finish(len(self.hands)))
        except LogFormatError as exc:
            if isinstance(exc, TruncatedLogError) and self.truncated is not None:
                return  # the cut document's last hand: the document-level error says it all
            error = exc.located(hand=hand.label, source=self.source, log_id=self.log_id)
            if self.strict:
                raise error from None
            self.errors.append(error)

    def _check_tile_attributes(self, root: etree._Element) -> None:
        """Tile tags are decoded without reading their attributes (speed).  If
        the document holds more ``name="`` pairs than the other tags had, some
        tile tag carried one: only then look, and warn about each."""
        if self.data.count(b'="') + self.data.count(b"='") <= self.attributes_read:
            return
        table = _TILE_TAGS[self.tile_set]
        for index, el in enumerate(root):
            if el.tag in table and len(el.attrib):
                for key in el.attrib:
                    self._warn(f"unknown attribute {el.tag}.{key} ignored", index)

    def _finish(self, truncated: TruncatedLogError | None) -> Game:
        place: _Place = {"source": self.source, "log_id": self.log_id}
        if self.player_list is None:
            players: tuple[Player, ...] = ()
            if self.hands or self.go_type is not None:
                self.warnings.append("no player list (UN) in the log")
        else:
            players = self.player_list[: self.players]
        if truncated is not None:
            self.errors.append(truncated)
        elif self.owari is None:
            last = self.hands[-1] if self.hands else None
            if last is None or not last.results:
                error = TruncatedLogError(
                    "the game ends without a result or final scores (owari)",
                    hand=last.label if last else None,
                    **place,
                )
                if self.strict:
                    raise error
                self.errors.append(error)
            # else: a game whose last hand is whole but has no final scores; the
            # auditor reports it (``Game.owari is None``), as it does for JSON.
        meta = GameMeta(
            source=self.source,
            log_id=self.log_id,
            format="tenhou-xml",
            players=self.players,
            go_type=self.go_type,
            lobby=self.lobby,
            aka=not (self.go_type or 0) & 0x02,
            kuitan=not (self.go_type or 0) & 0x04,
            hanchan=bool((self.go_type or 0) & 0x08),
            seed=self.seed,
            stepless_reach=self.stepless_reach,
            extra=tuple(self.meta_extra),
        )
        return Game(
            meta=meta,
            players=players,
            hands=tuple(self.hands),
            owari=self.owari,
            pre_game=tuple(self.pre_game),
            warnings=tuple(self.warnings),
            errors=tuple(self.errors),
        )
