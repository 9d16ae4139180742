"""Rule sets as data: ``RuleSet``, one field per way two platforms score differently.

Scoring and settlement code read fields and never ask which platform a log came
from.  ``check_values`` refuses a value the scoring cannot mean.

>>> RuleSet().kuitan, RuleSet().players
(True, 4)

Must not: compute scores or read logs; rules are data.  The named presets are
``model.rules.presets``, the detection from a log ``model.rules.detect``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from replay_audit.model.errors import RulesError

YakumanMode = Literal["single", "cumulative", "full"]
"""``single``: at most one yakuman; ``cumulative`` (Tenhou): each yakuman counts
once and different ones stack; ``full``: the double patterns count twice."""
KazoeMode = Literal["none", "sanbaiman", "single", "multiple"]
ScoringMode = Literal["hanfu", "toutenkou"]
Rounding = Literal["auto", "era1", "exact", "either"]
"""Final-point rounding: ``era1`` = Tenhou until 2021 (non-top rounded to 1000,
500 away from zero; top takes minus the rest), ``exact`` = to 0.1, ``auto`` =
pick per log (exact if it fits, else era1), ``either`` = a lobby whose rounding
the log does not record (both readings; the one the log follows is named in a note)."""

DOUBLE_YAKUMAN_PATTERNS = (41, 46, 48, 49)
"""Suuankou tanki, junsei chuuren, kokushi 13-sided, daisuushii."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str = "tenhou-4p"
    players: int = 4
    # tiles and yaku
    aka: int = 3
    """Number of red fives (0 = none).  Tenhou has one per suit (3; 2 in 3-player)."""
    red_fives: tuple[int, ...] = (16, 52, 88)
    """The tile ids that are red when ``aka`` is on: copy 0 of 5m, 5p and 5s.  The
    2006 server had four, two of them 5p (16, 52, 53, 88; ``replay_audit.model.rules.eras``)."""
    kuitan: bool = True
    kiriage: bool = False
    double_wind_fu: int = 4
    rinshan_tsumo_fu: int = 2
    open_pinfu_fu: int = 30
    renhou: Literal["none", "mangan", "yakuman"] = "none"
    yakuman: YakumanMode = "cumulative"
    kazoe: KazoeMode = "single"
    kokushi_ankan_ron: bool = False
    # table
    nukidora: bool = False
    """North set aside as kita (three-player)."""
    kita_breaks_ippatsu: bool = True
    """Tenhou: a kita ends everyone's ippatsu; some sites treat it as no call."""
    kita_ron: bool = True
    """A set-aside North can be ronned (Tenhou: yes, without chankan)."""
    chi: bool = True
    kuikae: bool = False
    """Whether a seat may discard, right after its chi or pon, the called kind or (a chi
    called at a run's end) the kind past the run's other end.  Tenhou forbids both
    (scoring-rules.md §3), as Mahjong Soul does."""
    # payments
    honba_ron: int = 300
    honba_tsumo: int = 100
    """Per payer."""
    tsumo_loss: bool = False
    riichi_cost: int = 1000
    noten_pool: int = 3000
    pao_yakuman: tuple[int, ...] = (39, 49)
    """Tenhou yakuman ids that carry pao (daisangen, daisuushii)."""
    pao_scope: Literal["all", "yakuman_only"] = "all"
    double_ron: bool = True
    triple_ron_abort: bool = True
    nagashi_mangan: bool = True
    abortive_draws: tuple[str, ...] = ("yao9", "reach4", "ron3", "kan4", "kaze4")
    # game
    start_points: int = 25000
    return_points: int = 30000
    """The settlement origin: each final value is ``(raw - return) / 1000 + uma``."""
    end_points: int = 0
    """Points the top needs for the game to end at all-last (below them it goes into
    the next wind); 0 = the return points.  Mahjong Soul keeps the two apart (30000
    to end, settled against the 25000 start: ``model.rules.majsoul``)."""
    uma: tuple[int, ...] = (20, 10, -10, -20)
    """Per place, in 1000s (tuple length = players)."""
    uma_rows: tuple[tuple[int, ...], ...] = ()
    """Floating uma (a private lobby's ``csrule`` 21-35): row ``k`` is the uma when
    ``k`` players end strictly below the return points; empty = ``uma`` always."""
    oka: int = 20
    """To the top player, in 1000s."""
    old_tonpuu_uma: tuple[int, ...] = ()
    """Uma of tonpuu games dated before ``old_tonpuu_uma_until`` (empty = none).
    Tenhou's tonpuu used +10/+5/-5/-10 until 2009-07/08."""
    old_tonpuu_uma_until: str = ""
    """``YYYYMMDDHH``: games with an earlier log date use ``old_tonpuu_uma``."""
    rounding: Rounding = "auto"
    ties: Literal["seat_order", "split"] = "seat_order"
    leftover_sticks_to_top: bool = True
    west_extension: bool = True
    extension_winds: int = 1
    """How many winds of sudden death may follow all-last (Tenhou ranked: one)."""
    bust: bool = True
    """Game ends when a score goes below zero."""
    dealer_stops_all_last: bool = True
    dealer_stops_on_tenpai: bool = True
    """All-last: a tenpai dealer on top also ends the game (Tenhou 2018+; a 2009 log
    played on, so older logs may need ``False``)."""
    renchan_on_win: bool = True
    """The dealer keeps the deal after winning (a lobby's ``csrule`` may turn it off)."""
    renchan_on_tenpai: bool = True
    """The dealer keeps the deal when tenpai at an exhaustive draw (off in a
    championship lobby: ``csrule`` bit 17, ``INFERRED_RULES``)."""
    kan_dora_immediate: bool = False
    """Kan dora revealed at once for every kan (Tenhou chip rooms); otherwise
    daiminkan/kakan dora come after the replacement draw."""
    max_hands: int = 0
    """Games of a fixed number of hands (0 = no such limit; Tenhou's GO 2113
    'ratio' tables play one hand)."""
    scoring: ScoringMode = "hanfu"
    chips: bool = False
    # Toutenkou (scoring == "toutenkou") point values
    toutenkou_noten_penalty: int = 20
    toutenkou_riichi_points: int = 1
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def points_to_end(self) -> int:
        """Points the top needs to end the game (``end_points``, else the return)."""
        return self.end_points or self.return_points

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise RulesError(f"rules {self.name!r}: players must be 3 or 4, not {self.players}")
        if len(self.uma) != self.players:
            raise RulesError(
                f"rules {self.name!r}: uma needs {self.players} values, got {self.uma}"
            )
        if self.uma_rows and (
            len(self.uma_rows) != self.players + 1
            or any(len(row) != self.players for row in self.uma_rows)
        ):
            raise RulesError(
                f"rules {self.name!r}: uma_rows needs {self.players + 1} rows of"
                f" {self.players} values, got {self.uma_rows}"
            )
        if self.old_tonpuu_uma and len(self.old_tonpuu_uma) != self.players:
            raise RulesError(
                f"rules {self.name!r}: old_tonpuu_uma needs {self.players} values,"
                f" got {self.old_tonpuu_uma}"
            )
        check_values(self)


_CHOICES: dict[str, tuple[str, ...]] = {}
"""Field -> the values its ``Literal`` type allows (filled on first use)."""
_COUNTS = {
    "aka": (0, 4),
    "double_wind_fu": (0, 4),
    "rinshan_tsumo_fu": (0, 2),
    "open_pinfu_fu": (20, 30),
    "honba_ron": (0, 10**6),
    "honba_tsumo": (0, 10**6),
    "riichi_cost": (0, 10**6),
    "noten_pool": (0, 10**6),
    "max_hands": (0, 10**3),
    "toutenkou_noten_penalty": (0, 10**3),
    "toutenkou_riichi_points": (0, 10**3),
}
"""Numeric fields and their possible range (aka: one red five per suit, and the
2006 server's second red 5p; ``red_fives`` must hold that many fives)."""


def check_values(rules: RuleSet) -> None:
    """Refuse a field value the scoring cannot mean: a choice outside its
    ``Literal`` (``yakuman="bogus"`` would silently act as one of the others),
    a count outside its range (``aka=7``: there are three red fives), an unknown
    abortive draw or yakuman id.  Called for every ``RuleSet``, so a preset, a
    TOML file and ``--rule`` are checked alike."""
    import typing

    if not _CHOICES:
        hints = typing.get_type_hints(RuleSet)
        for f in dataclasses.fields(RuleSet):
            args = typing.get_args(hints[f.name])
            if typing.get_origin(hints[f.name]) is Literal:
                _CHOICES[f.name] = tuple(str(a) for a in args)
    for key, allowed in _CHOICES.items():
        value = getattr(rules, key)
        if value not in allowed:
            raise RulesError(
                f"rules {rules.name!r}: {key} is one of {', '.join(allowed)}, not {value!r}"
            )
    for key, (low, high) in _COUNTS.items():
        value = getattr(rules, key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesError(f"rules {rules.name!r}: {key} is {low}-{high}, not {value!r}")
    unknown = set(rules.abortive_draws) - {"yao9", "reach4", "ron3", "kan4", "kaze4"}
    if unknown:
        raise RulesError(
            f"rules {rules.name!r}: abortive_draws are yao9, reach4, ron3, kan4, kaze4; "
            f"not {', '.join(sorted(unknown))}"
        )
    if not all(isinstance(y, int) and 36 <= y <= 51 for y in rules.pao_yakuman):
        raise RulesError(f"rules {rules.name!r}: pao_yakuman are yakuman ids 36-51")
    fives = rules.red_fives
    if (
        not all(isinstance(t, int) and 0 <= t < 136 and t >> 2 in (4, 13, 22) for t in fives)
        or len(set(fives)) != len(fives)
        or rules.aka > len(fives)
    ):
        raise RulesError(
            f"rules {rules.name!r}: red_fives are distinct ids of fives (16-19, 52-55, "
            f"88-91), at least aka={rules.aka} of them; not {fives}"
        )
