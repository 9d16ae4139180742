"""The noten pool of an exhaustive draw: the noten players fill it, the tenpai
players share it.

Owns ``noten_pool_deltas``, the one split both the ordinary draw payment
(``scoring.payments``) and Toutenkou's noten penalty (``scoring.toutenkou``) use.

Must not: know which rules choose the pool, or import ``payments`` or ``toutenkou``
(both import this module).
"""

from __future__ import annotations

from collections.abc import Sequence


def noten_pool_deltas(tenpai: Sequence[bool], players: int, total: int) -> tuple[int, ...]:
    """Each noten seat pays ``total / noten``, each tenpai seat gets ``total / tenpai``;
    nobody or everybody tenpai: no payments.

    >>> noten_pool_deltas([True, False, False, False], 4, 3000)
    (3000, -1000, -1000, -1000)
    >>> noten_pool_deltas([True, True, True], 3, 3000)
    (0, 0, 0)
    """
    flags = [bool(t) for t in tenpai[:players]] + [False] * (players - len(tenpai[:players]))
    k = sum(flags)
    deltas = [0] * players
    if k in (0, players):
        return tuple(deltas)
    gain, loss = total // k, total // (players - k)
    for seat, is_tenpai in enumerate(flags):
        deltas[seat] = gain if is_tenpai else -loss
    return tuple(deltas)
