"""Mahjong Soul rooms, as a tensoul-converted log names them: detection and room data.

tensoul (``Equim-chan/tensoul:convert.js``) builds ``rule.disp`` from Mahjong
Soul's own room name (``room_name_jp``/``room_name_en`` of the match mode), or
writes ``友人戦``/``Friendly`` for a friendly room and ``大会戦``/``Tournament``
(also misspelt ``Tounament``) for a tournament, then ``東喰``/``南喰`` or
``" East"``/``" South"`` for the length; a 3-player game gets a ``三`` (or ``3``)
prefix in the Japanese build only (formats.md §4.10).

What a room settles with comes from Mahjong Soul's match-mode table
(``desktop.matchmode`` in tensoul's ``data.json``): every ranked, casual and
special room settles against its *start* score (``count_point == init_point``,
no oka) with uma +15/+5/-5/-15 (3-player +15/0/-15), exact to 0.1, and needs
``back_point`` (start + 5000) for the game to end at all-last.  Three real
games reproduce exactly (the Bronze-room game in ``../shared/cases``, a
tournament game and a Gold-room record head; ``rules.INFERRED_RULES``).  A
friendly or tournament room's own settings (start, origin, uma, ...) are not
in the file: ``auditing.lobby`` infers them from the log.

This module is data only; ``rules.rules_for_disp`` turns a room into a
``RuleSet`` (the ``majsoul-4p``/``majsoul-3p`` presets).

>>> room_of("銅の間東喰赤").kind, room_of("Friendly South").kind, room_of("鳳南喰赤")
('ranked', 'friendly', None)
>>> room_of("三王座の間南喰赤").name, room_of("Chaotic Wall Break South").start_4p
('王座の間', 40000)

A log whose ``disp`` names no room (empty, or a room name in a language tensoul does
not write) is still Mahjong Soul's when its ``ref`` is a Mahjong Soul game id
(``is_majsoul_ref``): Tenhou's own ids look nothing like it.

Must not: import anything of the package or compute scores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

RoomKind = Literal["ranked", "casual", "special", "friendly", "tournament"]


@dataclass(frozen=True, slots=True)
class Room:
    """One Mahjong Soul room: its names and how it starts and ends."""

    name: str
    """The Japanese name, as the Japanese tensoul build writes it."""
    english: tuple[str, ...]
    kind: RoomKind
    start_4p: int = 25000
    """Start score = settlement origin (``init_point`` = ``count_point``)."""
    start_3p: int = 35000

    @property
    def rules_known(self) -> bool:
        """Whether the room's settings are fixed (ranked, casual, special rooms) or
        chosen by its owner and absent from the file (friendly, tournament)."""
        return self.kind not in ("friendly", "tournament")


ROOMS: tuple[Room, ...] = (
    Room("銅の間", ("Bronze Room",), "ranked"),
    Room("銀の間", ("Silver Room",), "ranked"),
    Room("金の間", ("Gold Room",), "ranked"),
    Room("玉の間", ("Jade Room",), "ranked"),
    Room("王座の間", ("Throne Room",), "ranked"),
    Room("交流の間", ("Casual Match",), "casual"),
    Room("乱闘の間", ("Melee Room",), "special"),
    Room("特別対局", ("Event Room",), "special"),
    Room("配牌公開", ("Open Hand Match",), "special"),
    Room("試練の道", ("Path of Trial",), "special"),
    Room("修羅の戦", ("Battle of Asura",), "special"),
    Room("明鏡の戦", ("Battle of Clairvoyance",), "special"),
    Room("闇夜の戦", ("Battle of Darkness",), "special"),
    Room("幻界の戦", ("Dreamland Odyssey",), "special"),
    Room("ドラさんモード", ("DoraDorara",), "special", 35000, 35000),
    Room("龍の割目", ("Chaotic Wall Break",), "special", 40000, 40000),
    Room("友人戦", ("Friendly",), "friendly"),
    Room("大会戦", ("Tournament", "Tounament"), "tournament"),
)
"""Every room tensoul names (``data.json`` ``desktop.matchmode``, notes of issue 16)."""

END_ABOVE_START = 5000
"""``back_point`` - ``init_point`` in every room of the match-mode table: the top
needs 30000 (3-player 40000) to end the game at all-last."""


def room_of(disp: str | None) -> Room | None:
    """The Mahjong Soul room a tensoul ``rule.disp`` names, or ``None`` (a Tenhou
    lobby string such as ``鳳南喰赤``)."""
    if not disp:
        return None
    text = disp.removeprefix("三").removeprefix("3").strip()
    for room in ROOMS:
        if text.startswith(room.name) or any(text.startswith(e) for e in room.english):
            return room
    return None


def is_tonpuu(disp: str) -> bool:
    """An East-only game by its ``disp``: ``東`` without ``南`` (Tenhou, Japanese
    tensoul; ``东`` in a Chinese room name such as ``金之间 四人东``) or an English
    ``East`` without ``South``.

    >>> is_tonpuu("銅の間東喰赤"), is_tonpuu("Gold Room East"), is_tonpuu("Gold Room South")
    (True, True, False)
    >>> is_tonpuu("金之间 四人东"), is_tonpuu("金之间 四人南")
    (True, False)
    """
    if ("東" in disp or "东" in disp) and "南" not in disp:
        return True
    words = disp.split()
    return "East" in words and "South" not in words


_MAJSOUL_REF = re.compile(r"\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""A Mahjong Soul game id as tensoul writes it in ``ref``: the game's date
(``YYMMDD``) and its uuid.  Tenhou's ids are ``YYYYMMDDHHgm-LLLL-NNNN-xxxxxxxx``."""


def is_majsoul_ref(ref: str | None) -> bool:
    """Whether a log's ``ref`` (its ``log_id``) is a Mahjong Soul game id, which
    says Mahjong Soul where the ``disp`` names no room.

    >>> is_majsoul_ref("231014-84c11a6f-b3f7-4363-966e-25f37886cfbf")
    True
    >>> is_majsoul_ref("2019021004gm-00a9-0000-e2f6516d"), is_majsoul_ref(None)
    (False, False)
    """
    return ref is not None and _MAJSOUL_REF.fullmatch(ref) is not None
