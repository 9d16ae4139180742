"""What every command shares: exit codes, rules from the options, path checks,
terminal widths and text tables.

Owns the exit codes, ``NothingFoundError``, the ``--rules``/``--rule`` reading,
the checks that an input exists, the report formats option, and ``text_table``
(a DataFrame as aligned text, East Asian widths counted).

Must not: run an audit or hold a command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay_audit.model.errors import ReplayAuditError, RulesError
from replay_audit.model.rules.presets import PRESETS, load_rules
from replay_audit.model.rules.ruleset import RuleSet

EXIT_CLEAN, EXIT_MISMATCH, EXIT_ERROR = 0, 1, 2
SHOWN_PROBLEMS = 5
"""Unreadable files listed on stderr after an audit (then a count of the rest)."""
TERMINAL_TOP = 20
"""Player rows printed on a terminal (``--top`` changes it; piped output has all)."""
PLAYERS_SUFFIXES = (".csv", ".parquet", ".html")
TERMINAL_PLAYER_COLUMNS = (
    "player",
    "game_type",
    "games",
    "avg_place",
    "rate_1",
    "rate_4",
    "avg_final_points",
    "hands",
    "win_rate",
    "deal_in_rate",
    "riichi_rate",
    "call_rate",
    "avg_win_hand_value",
    "stable_dan",
)


class NothingFoundError(ReplayAuditError):
    """The input held nothing to work on: a run over nothing is not a clean run."""


def _overrides(args: argparse.Namespace) -> dict[str, str]:
    overrides: dict[str, str] = {}
    for item in args.rule or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--rule takes KEY=VALUE, got {item!r}")
        overrides[key.strip()] = value.strip()
    return overrides


def _rules_from_args(args: argparse.Namespace) -> RuleSet | None:
    """The rules of ``--rules`` and ``--rule``, every value checked
    (``rules.check_values``) before any file is read."""
    overrides = _overrides(args)
    if args.rules is None and not overrides:
        return None
    return load_rules(args.rules or "tenhou-4p", overrides or None)


def _at_least(low: int, what: str) -> Any:
    """An argparse type: an integer of at least ``low`` (``-j 0`` is refused)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{what} is {low} or more, not {value}")
        return value

    return parse


def _on_terminal() -> bool:
    """Progress and phase lines go to a terminal only (tests patch this)."""
    return sys.stderr.isatty()


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        help="log files, folders (searched recursively) or globs; a phoenix-logs SQLite "
        "database stands for all its logs, DB::LOG_ID for one of them",
    )
    p.add_argument(
        "--rules",
        help=f"rule preset ({', '.join(PRESETS)}) or a TOML rule file; default: detected per log",
    )
    p.add_argument(
        "--rule",
        action="append",
        metavar="KEY=VALUE",
        help="override one rule field, e.g. --rule yakuman=full (repeatable)",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=_at_least(1, "-j"),
        default=None,
        help="worker processes, 1 or more (default: all cores; one for a few files)",
    )
    p.add_argument("--strict", action="store_true", help="stop with an error at the first problem")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _check_paths(paths: Sequence[str]) -> None:
    import glob

    from replay_audit.io.archive import split_member

    for p in paths:
        if not Path(p).exists() and not glob.glob(p) and split_member(p) is None:
            raise FileNotFoundError(f"no such file, folder or glob: {p}")


def _archive_note(args: argparse.Namespace) -> Any:
    """What to do with each SQLite archive the paths expand into: say on stderr how
    many logs it holds and how many rows it skipped (nothing with ``-q``)."""

    def note(listing: Any) -> None:
        if not args.quiet:
            print(listing.describe(), file=sys.stderr)

    return note


def _formats(text: str) -> list[str]:
    """``--format`` checked before the run: a typo must not cost a long audit."""
    from replay_audit.report.tables import FORMATS

    formats = [f.strip() for f in text.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise ValueError(
            f"unknown report format {', '.join(bad) or text!r}; choose from {', '.join(FORMATS)}"
        )
    return formats


def _nothing_found(paths: Sequence[str]) -> NothingFoundError:
    """What each path held, when none held a log: the user may have given the wrong
    folder, or logs under names a walk does not take (then their content is sniffed,
    so this means none of them is a log)."""
    import glob

    from replay_audit.io.paths import LOG_SUFFIXES

    said = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            n = sum(1 for f in path.rglob("*") if f.is_file())
            said.append(
                f"{p}: an empty folder"
                if n == 0
                else f"{p}: {_plural(n, 'file')}, none of them a log (by name: "
                f"{' '.join(LOG_SUFFIXES)}; or by content)"
            )
        elif not path.exists() and not glob.glob(p):
            said.append(f"{p}: matches no file")
        else:
            said.append(f"{p}: no logs in it")
    return NothingFoundError("no logs found: " + "; ".join(said))


def _width(text: str) -> int:
    """Columns a string takes on a terminal: East Asian wide and full-width
    characters (kanji, kana, full-width letters) take two."""
    import unicodedata

    return sum(
        0
        if unicodedata.combining(ch)
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


def text_table(df: Any) -> str:
    """``df`` as aligned text for a terminal: text left, numbers right, floats to 3
    places, a missing value empty; widths count wide characters twice, so a column
    of Japanese names lines up.

    >>> import pandas as pd
    >>> print(text_table(pd.DataFrame({"player": ["天鳳", "Bob"], "games": [12, 3]})))
    player  games
    天鳳       12
    Bob         3
    """
    import pandas as pd

    cols = list(df.columns)
    cells: list[list[str]] = []
    numeric = [pd.api.types.is_numeric_dtype(df[c].dtype) for c in cols]
    for row in df.itertuples(index=False):
        line = []
        for v in row:
            if v is None or v is pd.NA or (isinstance(v, float) and v != v):
                line.append("")
            elif isinstance(v, float):
                line.append(f"{v:.3f}")
            else:
                line.append(str(v))
        cells.append(line)
    widths = [max([_width(str(c)), *(_width(r[i]) for r in cells)]) for i, c in enumerate(cols)]

    def fmt(values: list[str]) -> str:
        parts = []
        for i, v in enumerate(values):
            pad = " " * (widths[i] - _width(v))
            parts.append(pad + v if numeric[i] else v + pad)
        return "  ".join(parts).rstrip()

    return "\n".join([fmt([str(c) for c in cols]), *(fmt(r) for r in cells)])
