"""Types of ``replay_audit._core``, the compiled core (C++ in ``src/core``, pybind11)."""

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

from replay_audit.model.events import Event, HandLog, Owari, Player, RecordedWin
from replay_audit.scoring.context import WinContext, WinValue

_T = TypeVar("_T")

SOURCES_DIGEST: str
"""A digest of the ``src/core`` files this module was compiled from (see ``setup.py``)."""

def walls(seed: str, players: int, hands: int) -> list[bytes]:
    """The first ``hands`` walls of a game from its SHUFFLE seed: one record per hand,
    the tile ids in draw order then the two dice (1-6); ValueError if declined."""

class WallStream(Iterator[bytes]):
    """A game's wall records from its SHUFFLE seed, hand after hand, without end;
    ValueError at construction if the core declines the seed."""

    def __init__(self, seed: str, players: int) -> None: ...
    @property
    def flipped(self) -> bool:
        """The 2009 hex form: dead-wall stacks read bottom first."""

    def __next__(self) -> bytes: ...

def init_shuffle_wall(shuffle: str, players: int) -> bytes:
    """One hand's wall record from a mid-2009 INIT ``shuffle``; ValueError if declined."""

def sha512(data: bytes) -> bytes:
    """The SHA-512 digest, by the core's own implementation."""

def sha512_128(data: bytes, best: int = 2) -> bytes:
    """The SHA-512 digests of ``data``'s 128-byte chunks, end to end, by the wall's
    code: the best the processor runs up to ``best`` (0 plain, 1 AVX2, 2 AVX-512)."""

def sha512_128_code(best: int = 2) -> int:
    """The code ``sha512_128(data, best)`` runs on this processor (0, 1 or 2)."""

def mt19937_outputs(key: Sequence[int], count: int) -> list[int]:
    """``count`` outputs of MT19937 seeded with ``init_by_array(key)``."""

# ------------------------------------------------------------------ scoring (scoring.hpp)

WinFields = tuple[
    int,
    int,
    int,
    int,
    tuple[tuple[int, int], ...],
    tuple[int, ...],
    int,
    int,
    int,
    int,
    int,
    tuple[tuple[str, int], ...],
    str | None,
]
"""The ``WinValue`` fields in their order (``WinValue(*fields)``)."""

class ScoreRules:
    """The ``RuleSet`` fields the scoring and the payments read (``native`` fills it);
    ValueError for a value the core does not know."""

    def __init__(
        self,
        *,
        players: int,
        aka: int,
        red_fives: Sequence[int],
        kuitan: bool,
        kiriage: bool,
        double_wind_fu: int,
        rinshan_tsumo_fu: int,
        open_pinfu_fu: int,
        renhou: str,
        yakuman: str,
        kazoe: str,
        tsumo_loss: bool,
        honba_ron: int,
        honba_tsumo: int,
        riichi_cost: int,
        pao_yakuman: Sequence[int],
        pao_scope: str,
        double_yakuman: Sequence[int],
    ) -> None: ...

def score_win(ctx: WinContext, rules: ScoreRules) -> WinFields | None:
    """The value of one han-and-fu win, or None when the core declines the context."""

def set_value_type(cls: type[WinValue]) -> None:
    """Give the ``WinValue`` class, whose slots ``score_win_value`` and
    ``WinBatch.win_values`` fill (its fields must be ``WinFields``' in order)."""

def score_win_value(ctx: WinContext, rules: ScoreRules) -> WinValue | None:
    """``score_win`` returning the ``WinValue`` itself, or None when declined."""

def win_deltas(
    value: WinValue,
    *,
    winner: int,
    from_seat: int,
    dealer: int,
    players: int,
    honba: int,
    sticks: int,
    first_winner: bool,
    pao_seat: int | None,
    rules: ScoreRules,
) -> tuple[int, ...] | None:
    """Per-seat deltas of one win, or None when the core declines the arguments."""

class WinBatch:
    """Many wins under one rule set, scored in one call."""

    def __init__(self, rules: ScoreRules) -> None: ...
    def add(self, ctx: WinContext) -> bool:
        """Read one context; False if the core declines it (its value: None)."""

    def __len__(self) -> int: ...
    def score(self) -> None:
        """Score every win added."""

    def columns(self) -> bytes:
        """int64 numbers, 10 per win: error (-1 declined, 0 ok, 1 not_complete,
        2 no_yaku), han, fu, points, limit, yakuman_count, base, ron, tsumo_dealer,
        tsumo_other."""

    def values(self) -> list[WinFields | None]:
        """Per win, the ``WinValue`` fields (None where declined)."""

    def win_values(self) -> list[WinValue | None]:
        """Per win, the ``WinValue`` itself (None where declined)."""

def read_mjlog(
    data: bytes, max_elements: int = 200000, max_attribute_length: int = 65536
) -> dict[str, Any] | None:
    """One mjlog XML document (bytes, not gzipped) as columns: a dict of tables (``events``,
    ``melds``, ``hands``, ``agari``, ``ryuukyoku``, ``owari``, ``reach_scores``, ``pool``,
    ``strings``, ``game``; src/core/game.hpp), or None if the core declines the document."""

def mjlog_decline_reason(
    data: bytes, max_elements: int = 200000, max_attribute_length: int = 65536
) -> str | None:
    """Why ``read_mjlog`` declines ``data``, or None if it reads it."""

class GameBuilder:
    """Builds a ``Game``'s parts from one mjlog document in one pass, given the model's
    classes once (each checked to have exactly the slots the core fills: TypeError)."""

    def __init__(
        self,
        *,
        draw: type,
        discard: type,
        call: type,
        riichi_declare: type,
        riichi_accept: type,
        new_dora: type,
        disconnect: type,
        reconnect: type,
        win: type,
        drawn: type,
        owari: type,
        hand: type,
        meld: type,
        player: type,
        meld_kinds: Sequence[str],
        draw_kinds: Sequence[str],
        unquote: Callable[[str], str],
    ) -> None: ...
    def build(
        self, data: bytes, max_elements: int, max_attribute_length: int, *, lazy: bool = False
    ) -> (
        tuple[
            dict[str, Any], tuple[Player, ...], tuple[Event, ...], tuple[HandLog, ...], Owari | None
        ]
        | None
    ):
        """``(game values, players, pre_game, hands, the last Owari or None)``: the game
        values are ``read_mjlog``'s ``game`` dict; None where ``read_mjlog`` declines.
        With ``lazy`` each hand's ``events`` is a ``HandEvents`` (equal to the tuple)."""

class HandEvents(Sequence[Event]):
    """A hand's events from the lazy build: equal to the eager build's tuple item by
    item (and as a whole, in hash, repr and pickle); its draws and discards are made
    only when read.  Not made from Python."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: int) -> Event: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Event, ...]: ...
    def __iter__(self) -> Iterator[Event]: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def materialize(self) -> tuple[Event, ...]:
        """The events as a tuple, made on the first call and kept."""

def play_moves(
    table: Any,
    events: tuple[Any, ...],
    i: int,
    draw_cls: type,
    discard_cls: type,
    th_mask: int,
    declare_cls: type,
    accept_cls: type,
    riichi_cost: int,
    call_cls: type,
    chi: object,
    pon: object,
    chi_allowed: bool,
    /,
) -> int:
    """The replay's plain draws and discards from ``events[i]`` on, on the table's
    state (``replay.state._TableState``: its ``core_lists`` changed in place, its
    counters written back), stopping before anything rare (``replay.moves``): the
    index reached, or -1 if the first move was declined (the table untouched).  It
    also plays the riichi steps inside a run (the REACH classes and the riichi cost)
    and the chi and pon (``chi`` and ``pon`` the ``MeldKind`` members, ``chi_allowed``
    the rules' ``chi``)."""

def dealt_seen(haipai: tuple[tuple[int, ...], ...], dora_indicator: int, /) -> bytearray | None:
    """The replay's tile ids met at the deal (``replay.state._TableState.seen``): a
    bytearray of 136 with a 1 at each tile dealt and at the dora indicator; ``None``
    when a tile is met twice or is not an id 0-135 (the Python then names each repeat)."""

def make_value(cls: type[_T], /, *fields: object) -> _T:
    """An instance of the slots dataclass ``cls`` with every field given in order, set
    without running its ``__init__`` (``replay.values.MAKE``); TypeError for a class
    whose ``__init__`` does more than set its fields, or a wrong count of fields."""

def win_checks(
    table: Any,
    seat: int,
    tiles: list[int],
    win_tile: int,
    ron: bool,
    win: Any,
    melds: tuple[Any, ...],
    dora: tuple[int, ...],
    ura: tuple[int, ...],
    riichi: bool,
    ura_from_log: bool,
    /,
) -> bool:
    """True when a win's checks (``replay.results._win``) find nothing: the tiles
    complete, a ron not furiten, and the ``RecordedWin`` ``win``'s hand (the same tile
    ids), melds, winning tile, dora and ura as replayed; False sends them to the Python
    checks, the reference."""

def hand_wall(
    record: bytes,
    plan: tuple[object, ...],
    dora_indicator: int,
    haipai: tuple[tuple[int, ...], ...],
    /,
) -> Any:
    """``replay.walls._hand_wall`` on a core wall record whose deal is the hand's as
    dealt: (dora, ura, live, rinshan, dice), four tuples of tile ids and the two dice
    after the record's tiles (None if it has none); None when INIT's dora
    indicator is not the wall's; ``NotImplemented`` leaves anything else to the Python
    (hence ``Any``: a union with ``NotImplemented`` does not narrow)."""

def decode_meld(
    m: int, who: int, gari: bool = False
) -> tuple[int, tuple[int, ...], int | None, int | None, int | None] | None:
    """A meld code decoded: (kind, tiles, called, from_seat, added), kind the index of
    ``replay_audit.meld.MeldKind``; None where ``meld_code.decode_meld`` raises."""

# ------------------------------------------------------------------ waits (waits.hpp)

def wait_mask(counts: Sequence[int]) -> int | None:
    """``replay.waits.wait_mask`` of 34 counts (a list or tuple, each 0-4): bit k set
    when one more tile of kind k, held fewer than four times, completes the hand; None
    when the core declines the input."""

def tiles_wait_mask(tiles: Sequence[int]) -> int | None:
    """``wait_mask`` of the counts of tile ids 0-135 (a list or tuple); None when
    declined (an id outside 0-135, a kind more than four times)."""

def is_complete(counts: Sequence[int]) -> bool | None:
    """``scoring.agari.is_complete`` of 34 counts (a list or tuple, each 0-4); None
    when the core declines the input."""

def tiles_complete(tiles: Sequence[int]) -> bool | None:
    """``is_complete`` of the counts of tile ids 0-135 (a list or tuple); None when
    declined."""

# ------------------------------------------------------------ shanten (shanten.hpp)

def shanten(counts: Sequence[int], /) -> int | None:
    """``scoring.shanten.shanten`` of 34 counts (a list or tuple of ints, each 0-4);
    None when the core declines the input (the Python then answers or raises)."""

def start_shanten(dealt: str | bytes | Sequence[int], /) -> int | None:
    """``stats.identity.start_shanten`` of a dealt hand (hex str, bytes, or a list or
    tuple of tile ids); None where the Python gives None (not 13 tiles) and where the
    core declines (not 26 hex digits, an id outside 0-135, a kind more than four times)."""

# ------------------------------------------------- the statistics' hand scan (facts.hpp)

def hand_scan(
    events: tuple[Any, ...],
    n: int,
    haipai: tuple[tuple[int, ...], ...],
    classes: tuple[type, ...],
    meld_kinds: tuple[Any, ...],
    /,
) -> tuple[list[Any], int, list[Any], list[Any], list[str]] | None:
    """One hand's events scanned for the statistics' facts, as
    ``stats.scan.py_scan_hand`` scans them (the same ``HandScan``), or None if the
    core declines the hand (then Python scans it).  ``classes``: Draw, Discard,
    RiichiDeclare, Call, RiichiAccept, RecordedWin, RecordedDraw, Meld;
    ``meld_kinds``: the MeldKind members in their order."""

def game_rows(
    hands: tuple[Any, ...],
    n: int,
    ctx: tuple[Any, ...],
    fallback: Callable[[Any], list[dict[str, Any]]],
    /,
) -> list[dict[str, Any]] | None:
    """The rows of ``stats.facts.hand_facts`` for a game's hands (the dicts
    ``_facts_for_hand`` writes: the same keys in the same order, the same values),
    each hand's built from its scan as above, or ``fallback(hand)``'s for a hand the
    core declines; None if it declines the game (then Python writes every row).
    ``ctx``, per game: ``(base row, player names, riichi cost, classes, meld_kinds,
    the row's keys, ABORTIVE_KINDS)``; a TypeError if the keys are not the facts'
    columns."""

def score_rows(
    hands: tuple[Any, ...],
    file: str,
    log_id: str | None,
    names: tuple[str, ...],
    keys: tuple[str, ...],
    /,
) -> list[dict[str, Any]] | None:
    """The per-hand rows of ``stats.game_facts.score_history`` (``py_score_rows``'
    dicts: ``keys`` in order, one per hand and seat that has a score and a name), or
    None if a hand is not a ``HandLog`` as the core knows it."""

# the auditor's win (auditing/wins.py; src/core/score_win_row.cpp)
def win_row(
    row: dict[str, object],
    ev: RecordedWin,
    ctx: WinContext,
    rules: ScoreRules,
    dealer: int,
    players: int,
    honba: int,
    sticks: int,
    first_winner: bool,
) -> tuple[WinValue, tuple[int, ...]] | None:
    """The ``hands`` row of a win that agrees with its value in every cell, filled in
    place (``auditing.wins._Wins._audit_win`` is the reference): its value and
    deltas; None, the row untouched, for anything else."""

def events_except(events: tuple[Event, ...], skip: tuple[type, ...]) -> list[Event] | None:
    """The events whose type is none of ``skip`` (exact types), in order; None if
    ``events`` is not a tuple."""

# the row codec's per-cell work (src/core/codec.cpp; report.codec keeps the reference)
def row_columns(
    rows: Sequence[dict[str, Any]], /
) -> tuple[list[str], list[Sequence[Any]], list[list[str] | None]] | None:
    """``report.codec._py_columns(rows)``: the names in the order they first appear,
    per name every row's value (None where it lacks the key), per row the keys it
    lacks (None if none; rows with the same key sequence share one list); None if
    the core declines (not a list or tuple of exact dicts with exact str keys, or
    more than 64 key sequences)."""

def plain_kind(values: Sequence[Any], /) -> int | None:
    """``report.codec._py_plain_kind(values)``: 0 all None, 1 bool, 2 int, 3 float,
    4 str (the exact type), -1 other; None if ``values`` is not a list or tuple."""

def column_buffers(
    values: Sequence[Any], kind: int, /
) -> tuple[bytes | None, int, bytes, bytes | None] | None:
    """A column of ``plain_kind`` ``kind`` (1-4) as Arrow buffers: validity (None
    without nulls), null count, data, offsets (strings only); None if the core
    declines (an int beyond 64 bits, a str UTF-8 cannot encode, a value of another
    kind)."""

# the auditor's hands of a game (auditing/game.py; src/core/hand_audit.cpp)
def audit_hands(
    played: list[tuple[HandLog, Any]],
    start: Any,
    chain: tuple[int, ...],
    ctx: object,
    file: str,
    log_id: str | None,
    owari: Any,
    /,
    *target: Any,
) -> tuple[list[dict[str, Any]] | int, dict[int, WinValue], tuple[int, ...], Any, bool] | None:
    """The ``hands`` rows of a game in which nothing is to be reported, from its first
    hand's computed start (round, honba, sticks, dealer) and scores
    (``auditing.game._GameAuditor.run`` is the reference): the rows, the wins' values
    by ``id``, the scores after the last hand, how it ended (a dict keyed as
    ``auditing.base._Outcome``) and whether the game's end is settled (the rules end
    the game there and the final line ``owari`` agrees with ``ctx.final``'s reading:
    ``auditing.chain._check_game_end`` would report nothing; src/core/game_end.cpp);
    None, nothing written, for anything else.  ``ctx``: an
    ``auditing.game.HandsContext`` (the rules' part, shared by games), whose fields the
    core reads by name (a TypeError for a missing or unset one); ``file`` and
    ``log_id`` fill the rows; ``owari`` None leaves the game's end to Python.
    ``target`` (a ``PartRows``, the index of its hands table, the file as a str): the
    rows go into that table as cells and their number comes back for the rows (where
    it takes rows and ``ctx.win_row`` is ``win_row``; else the rows); a game declined
    or failed takes back what it wrote (src/core/hand_row.hpp)."""

def final_points(
    scores: tuple[int, ...], sticks_left: int, final: object, /
) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
    """``scoring.final.final_points`` of the players' seats of ``scores`` (the raw final
    scores, the final points) under ``final``, a ``scoring.final_core.FinalRule`` read by
    field name; None where the core declines (a value not a plain int within 2**40)."""

# ------------------------------ a game's three fact tables in one walk (src/core/file_facts.cpp)

def file_facts(
    hands: tuple[Any, ...],
    n: int,
    ctx: tuple[Any, ...],
    fallback: Callable[[Any], list[dict[str, Any]]],
    game_ctx: tuple[Any, ...],
    sink: tuple[PartRows, int, int, str] | None = None,
    /,
) -> Any:
    """``(hand facts, game facts, score history)`` of a game, as
    ``stats.file_facts.py_file_facts`` gives them (the same dicts, keys in the same
    order), in one walk over its hands; ``ctx`` and ``fallback`` as ``game_rows``
    takes them, ``game_ctx`` as ``stats.file_facts`` builds it.  None if it declines
    the game (then Python writes the three); a TypeError if a context is not of its
    shape or its keys are not the tables' columns.

    With ``sink`` ``(part rows, hand facts' table, score history's table, source)``:
    the hand facts and score history written straight into those two tables, cell by
    cell (what ``PartRows.add`` makes of the dicts), and ``(hand facts' rows, game
    facts, score history's rows)``; None, nothing written, if it declines the game or
    a table declines a row (or declined before); an error leaves the tables as they
    were."""

# one hand's event loop (src/core/replay_hand.cpp)
def run_hand(
    table: Any,
    events: tuple[Any, ...],
    run: object,
) -> Any:
    """An XML hand's events played on the replay table as
    ``replay_audit.replay.table._Table.run`` plays them (its reference); the HandReplay.
    ``run``: a ``replay.table.RunArgs`` (its ``classes`` a ``RunClasses``), read by
    field name (a TypeError for a missing or unset one)."""

def hand_walls(
    stream: Any,
    cache: list[Any],
    hands: tuple[Any, ...],
    plans: tuple[Any, ...],
    limit: int,
    make: Any,
    wall_cls: type,
) -> list[Any]:
    """Each hand's wall (``make(wall_cls, dora, ura, live, rinshan, dice)``) from the game's
    wall stream where its deal is the wall's as dealt; NotImplemented where
    ``replay_audit.replay.walls._WallSource.for_hand`` (its reference) decides."""

# the runner's parts, every table's rows taken file by file (src/core/part_rows.cpp)
class PartRows:
    """The rows of ``tables`` tables of a part, file by file; ``report.part_rows``
    keeps the reference (``codec.rows_to_table`` of the same rows)."""

    def __init__(self, tables: int) -> None: ...
    def add(self, rows_per_table: Sequence[Sequence[dict[str, Any]]], source: str) -> int:
        """Append one file's rows of every table; the tables that declined them, as
        bits (nothing of them taken: not a list or tuple of exact dicts with exact str
        keys, more than 64 key sequences); a table that declined takes no more."""

    def finish(
        self, table: int
    ) -> tuple[list[str], list[Any], list[list[str] | None], list[tuple[str, int]]]:
        """(names, columns, lacks, sources) of one table: per column 0 (every value
        None), ``(kind, validity, null count, data, offsets)``, or its values for the
        codec's Python path; per row the keys it lacks; (source, rows) in order."""

    def rows(self, table: int) -> tuple[list[dict[str, Any]], list[str]]:
        """One table's rows added so far, rebuilt (same keys, order and values), and
        their sources."""

    def mark(self, table: int) -> tuple[int, int, int]:
        """One table's size so far (rows, key sequences, names), for ``rollback``."""

    def rollback(self, table: int, mark: tuple[int, int, int]) -> None:
        """One table back to ``mark``: what was added since dropped, as if it had
        never come (a ValueError for a table that declined rows)."""

# a hand's table built by the core, a game's hands in one call (src/core/table_state.cpp,
# src/core/replay_hand.cpp; helper A)
def new_table(cls: type[_T], hand: HandLog, wall: Any, consts: object) -> _T | None:
    """The replay table of an XML hand at its deal, as
    ``replay_audit.replay.state._TableState.__init__`` (its reference) makes it, with the
    game's constants (a ``state.TableConstants``, ``state._core_constants``, read by
    field name: a TypeError for a missing or unset one); None where the core declines
    the deal."""

def run_game(
    cls: type,
    hands: tuple[HandLog, ...],
    walls_of: list[Any],
    walls: Any,
    set_table: Callable[..., Any],
    consts: object,
    run: object,
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Every hand of an XML game replayed (its table as ``new_table`` builds it, else by
    ``set_table``; its events as ``run_hand`` plays them): (HandReplays, findings), as
    ``replay_audit.replay.table.replay_game``'s loop gives them (its reference)."""

# a stored table's CSV rows formatted in one buffer (csv_rows.hpp, helper C)

def csv_rows(
    columns: list[list[Any]], kinds: list[int], order: list[int] | None, quote_cr: bool, errors: str
) -> bytes:
    """A chunk's CSV rows as ``csv.writer(f, lineterminator="\\n")`` writes them
    (``replay_audit.report.csv_columns``' Python writer is the reference): kinds 0 (empty),
    1 (the value as the csv module writes it), 2 (float(value)'s repr, NaN empty), the rows
    in ``order`` (None: as stored), quoted as QUOTE_MINIMAL quotes them."""

def column_class(values: list[Any]) -> tuple[int, int, int] | None:
    """What ``replay_audit.report.column_plan.ColumnClass.add`` (its reference) learns of a
    list of values: its exact types as bits (1 None, 2 bool, 4 int, 8 float, 16 str), its
    ints' least and greatest; None for another type, an int past 64 bits, a non-list."""
