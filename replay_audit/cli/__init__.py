"""The ``replay-audit`` command: argument parsing and printing only.

Exit codes: 0 clean, 1 mismatches found, 2 usage or input errors (an input
that could not be read, a bad option, an unknown rule preset).

The package: ``parser`` (the options) and ``common`` (exit codes, rules, text
tables) <- the commands (``audit``, ``players``, ``tools``) <- ``main`` here.

Must not: hold logic; every command calls the library.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from replay_audit.cli.audit import _cmd_audit, _cmd_validate
from replay_audit.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_MISMATCH,
    PLAYERS_SUFFIXES,
    SHOWN_PROBLEMS,
    TERMINAL_PLAYER_COLUMNS,
    TERMINAL_TOP,
    NothingFoundError,
    text_table,
)
from replay_audit.cli.parser import build_parser
from replay_audit.model.errors import ReplayAuditError


def _one_blas_thread() -> None:
    """Ask OpenBLAS for one thread, unless the caller chose a number.

    numpy comes in with pyarrow (the parts) and pandas, and its OpenBLAS starts a
    thread per core at import, which then waits for work that never comes: no
    command does linear algebra.  On the 2-core test machine the threads cost about
    0.04-0.06 s of CPU a command (``replay-audit audit`` of one log: 0.80 s of CPU
    rather than 0.86, medians of 10); a machine with more cores starts more.  Set
    before the commands import numpy, so it takes effect in this process and the
    workers it starts; a process that imported numpy before calling ``main`` keeps
    its threads.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: Sequence[str] | None = None) -> int:
    _one_blas_thread()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "audit":
            return _cmd_audit(args)
        if args.command == "validate":
            return _cmd_validate(args)
        # the other commands' modules are read when they run: every start of the
        # command line pays for what it imports (``audit`` most often)
        if args.command == "players":
            from replay_audit.cli.players import _cmd_players

            return _cmd_players(args)
        if args.command == "convert":
            from replay_audit.cli.tools import _cmd_convert

            return _cmd_convert(args)
        if args.command == "explain":
            from replay_audit.cli.tools import _cmd_explain

            return _cmd_explain(args)
        if args.command == "score":
            from replay_audit.cli.tools import _cmd_score

            return _cmd_score(args)
    except ReplayAuditError as exc:
        print(f"replay-audit: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # `replay-audit players ... | head`: the reader had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLEAN
    except (OSError, ValueError) as exc:  # a missing input, an --out that is a file, ...
        print(f"replay-audit: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    parser.error(f"unknown command {args.command}")
    return EXIT_ERROR


__all__ = [
    "EXIT_CLEAN",
    "EXIT_ERROR",
    "EXIT_MISMATCH",
    "PLAYERS_SUFFIXES",
    "SHOWN_PROBLEMS",
    "TERMINAL_PLAYER_COLUMNS",
    "TERMINAL_TOP",
    "NothingFoundError",
    "build_parser",
    "main",
    "text_table",
]
