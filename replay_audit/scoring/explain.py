"""A scored win in words, the way a player would count it at the table.

Auditors and users need to see *why* the engine reached a value, not only the
value: yaku with han, fu item by item, the limit and who pays what.

>>> from replay_audit.rules import TENHOU_4P
>>> from replay_audit.scoring.hand import score_win
>>> from replay_audit.tiles import parse_tiles
>>> tiles = tuple(parse_tiles("333m333p678s99p33s3s"))
>>> ctx = WinContext(tiles=tiles, melds=(), win_tile=tiles[-1], tsumo=False, seat=1, dealer=0)
>>> print(explain(ctx, score_win(ctx, TENHOU_4P)))
sanshoku doukou 2
2 han 40 fu
fu: 20 base + 10 menzen ron + 4 + 4 + 2 = 40
ron: discarder pays 2600
"""

from __future__ import annotations

from replay_audit.scoring.context import WinContext, WinValue
from replay_audit.scoring.points import LIMIT_NAMES
from replay_audit.scoring.yaku import YAKU


def explain(ctx: WinContext, value: WinValue) -> str:
    """Multi-line breakdown of ``value`` (the result of ``score_win(ctx, ...)``)."""
    if value.error:
        return f"no win: {value.error.replace('_', ' ')}"
    lines: list[str] = []
    if value.yakuman:
        lines.extend(f"{YAKU[i].name} yakuman" for i in value.yakuman)
        lines.append(f"{value.yakuman_count}x yakuman")
    else:
        lines.extend(f"{YAKU[i].name} {h}" for i, h in value.yaku)
        lines.append(f"{value.han} han {value.fu} fu")
        if value.fu_items:
            lines.append("fu: " + _fu_line(value))
    if value.limit:
        lines.append(
            LIMIT_NAMES[value.limit]
            + (" (kazoe)" if not value.yakuman and value.limit == 5 else "")
        )
    lines.append(_payment_line(ctx, value))
    return "\n".join(lines)


def _fu_line(value: WinValue) -> str:
    items = value.fu_items
    raw = sum(f for _, f in items)
    parts = []
    for i, (label, fu) in enumerate(items):
        named = i == 0 or not (
            label.startswith(("closed", "open", "pair")) or label.endswith("wait")
        )
        parts.append(f"{fu} {label}" if named else str(fu))
    text = " + ".join(parts) + f" = {raw}"
    if raw != value.fu:
        text += f" -> {value.fu}"
    return text


def _payment_line(ctx: WinContext, value: WinValue) -> str:
    if not ctx.tsumo:
        return f"ron: discarder pays {value.ron_payment}"
    if ctx.is_dealer:
        return f"tsumo: each pays {value.tsumo_dealer_payment} (total {value.points})"
    return (
        f"tsumo: dealer pays {value.tsumo_dealer_payment}, "
        f"others pay {value.tsumo_other_payment} (total {value.points})"
    )
