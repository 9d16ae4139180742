"""The replayer: the table state machine that plays a ``Game``'s moves.

It owns hands, melds, discards, the wall, dora timing, riichi, furiten and the
score bookkeeping, checks every move's legality, and builds a ``WinContext`` or
``DrawContext`` for each result.  The public names are re-exported here.

Must not: read a recorded result to decide anything (who won, from whom and the pao
seat are moves; hands shown, fu, points and payments are not), or import the
auditor, the report or the runner.
"""

from __future__ import annotations

from replay_audit.replay.table import replay_game, replay_hand
from replay_audit.replay.values import GameReplay, HandReplay, ResultReplay
from replay_audit.replay.waits import _has_wait as _has_wait
from replay_audit.replay.waits import _waits as _waits
from replay_audit.replay.waits import wait_mask

__all__ = ["GameReplay", "HandReplay", "ResultReplay", "replay_game", "replay_hand", "wait_mask"]
