"""The fixed vocabulary of tenhou.net/6 JSON: limits, draw and limit names, yaku
names, dan names.

Owns the simulation cap (``MAX_SIM_STEPS``), the result
strings (``DRAW_KINDS``, ``WIN_STRING``, ``LIMIT_NAMES``), the yaku-name lookup and
``dan_index``.

Must not: parse a document or a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from replay_audit.model.rules.majsoul import room_of

MAX_SIM_STEPS: Final = 200_000
"""Cap on the backtracking work for one hand (a real hand needs a few hundred)."""

TSUMOGIRI: Final = 60
KAN_PLACEHOLDER: Final = 0

DRAW_KINDS: Final[dict[str, str]] = {
    "流局": "exhaustive",
    "全員聴牌": "exhaustive",
    "全員不聴": "exhaustive",
    "流し満貫": "nm",
    "九種九牌": "yao9",
    "四家立直": "reach4",
    "三家和了": "ron3",
    "三家和": "ron3",  # tensoul
    "四槓散了": "kan4",
    "四開槓": "kan4",  # tensoul
    "四風連打": "kaze4",
}
"""Every draw string of §4.8 -> ``RecordedDraw.kind``."""
WIN_STRING: Final = "和了"

LIMIT_NAMES: Final[dict[str, int]] = {
    "満貫": 1,
    "跳満": 2,
    "倍満": 3,
    "三倍満": 4,
    "役満": 5,
    "数え役満": 5,  # tensoul's kazoe
}

_YAKU_FALLBACK: Final[dict[str, int]] = {
    "門前清自摸和": 0, "立直": 1, "一発": 2, "槍槓": 3, "嶺上開花": 4, "海底摸月": 5,
    "河底撈魚": 6, "平和": 7, "断幺九": 8, "一盃口": 9, "自風 東": 10, "自風 南": 11,
    "自風 西": 12, "自風 北": 13, "場風 東": 14, "場風 南": 15, "場風 西": 16,
    "場風 北": 17, "役牌 白": 18, "役牌 發": 19, "役牌 中": 20, "両立直": 21,
    "七対子": 22, "混全帯幺九": 23, "一気通貫": 24, "三色同順": 25, "三色同刻": 26,
    "三槓子": 27, "対々和": 28, "三暗刻": 29, "小三元": 30, "混老頭": 31, "二盃口": 32,
    "純全帯幺九": 33, "混一色": 34, "清一色": 35, "人和": 36, "天和": 37, "地和": 38,
    "大三元": 39, "四暗刻": 40, "四暗刻単騎": 41, "字一色": 42, "緑一色": 43,
    "清老頭": 44, "九蓮宝燈": 45, "純正九蓮宝燈": 46, "国士無双": 47,
    "国士無双１３面": 48, "大四喜": 49, "小四喜": 50, "四槓子": 51, "ドラ": 52,
    "裏ドラ": 53, "赤ドラ": 54,
    # third-party English names (tensoul), the ones needed to keep han sums right
    "Riichi": 1, "Ippatsu": 2, "Dora": 52, "Ura Dora": 53, "Red Five": 54,
    "Aka Dora": 54, "All Simples": 8, "Pinfu": 7,
}  # fmt: skip
"""Yaku string -> Tenhou id (formats.md §3.6), used where the shared yaku table
has no entry."""


def _yaku_id(name: str) -> int | None:
    try:
        from replay_audit.scoring.yaku import by_name_ja
    except ImportError:  # pragma: no cover - the yaku table is another layer
        return _YAKU_FALLBACK.get(name)
    found = by_name_ja(name)
    return found if found is not None else _YAKU_FALLBACK.get(name)


_DAN_DIGITS: Final = "０１２３４５６７８９"
_KANJI_NUM: Final = {"初": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}  # fmt: skip


def dan_index(name: object) -> int | None:
    """Rank index 0-20 from a JSON rank name (``新人``, ``９級``, ``初段``, ``十段``,
    ``天鳳``); ``None`` for anything else.

    >>> [dan_index(n) for n in ("新人", "９級", "1級", "初段", "七段", "十段", "天鳳位")]
    [0, 1, 9, 10, 16, 19, 20]
    """
    if isinstance(name, int) and 0 <= name <= 20:
        return name
    if not isinstance(name, str) or not name:
        return None
    if name == "新人":
        return 0
    if name.startswith("天鳳"):
        return 20
    stem, unit = name[:-1], name[-1]
    digits = "".join(str(_DAN_DIGITS.index(c)) if c in _DAN_DIGITS else c for c in stem)
    if digits.isdigit():
        n: int | None = int(digits)
    else:
        n = _KANJI_NUM.get(stem)
    if n is None:
        return None
    if unit == "級" and 1 <= n <= 9:
        return 10 - n
    if unit == "段" and 1 <= n <= 10:
        return 9 + n
    return None


def is_chip_room(disp: str | None) -> bool:
    """A 祝儀 (chip) room by its ``rule.disp``: a 祝 mark or one of the chip room
    names 若 銀 琥 孔 (formats.md §3.3 GO bits 0x600).

    >>> is_chip_room("琥南喰赤祝５"), is_chip_room("鳳南喰赤"), is_chip_room("銀の間東喰赤")
    (True, False, False)
    """
    if not disp or room_of(disp) is not None:  # Mahjong Soul's 銀の間 is no chip room
        return False
    room = disp[1:2] if disp.startswith("三") else disp[:1]
    return "祝" in disp or room in ("若", "銀", "琥", "孔")


def _nm(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else ""


def _is_int(v: object) -> bool:
    """A JSON integer (``bool`` is an ``int`` to Python but not one here).  The exact
    ``int`` type, what ``json`` gives, is asked first: this runs on every tile code."""
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))
