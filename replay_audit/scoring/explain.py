"""A scored win in words, the way a player would count it at the table.

Auditors and users need to see *why* the engine reached a value, not only the
value: yaku with han, fu item by item, the limit and who pays what.

>>> from replay_audit.model.rules.presets import TENHOU_4P
>>> from replay_audit.scoring.hand import score_win
>>> from replay_audit.model.tiles import parse_tiles
>>> tiles = tuple(parse_tiles("333m333p678s99p33s3s"))
>>> ctx = WinContext(tiles=tiles, melds=(), win_tile=tiles[-1], tsumo=False, seat=1, dealer=0)
>>> print(explain(ctx, score_win(ctx, TENHOU_4P)))
sanshoku doukou 2
2 han 40 fu
fu: 20 base + 10 menzen ron + 4 + 4 + 2 = 40
ron: discarder pays 2600

Must not: compute a value; it words one ``score_win`` computed.
"""

from __future__ import annotations

from replay_audit.scoring.context import WinContext, WinValue
from replay_audit.scoring.points import LIMIT_NAMES
from replay_audit.scoring.yaku import TOUTENKOU_BONUSES, yaku_name


def explain(ctx: WinContext, value: WinValue) -> str:
    """Multi-line breakdown of ``value`` (the result of ``score_win(ctx, ...)``).

    A Toutenkou win (its ``yaku`` list the bonus ids) is counted in points, the
    way that game is played: each yaku, dora and bonus with its points, then what
    each payer owes.
    """
    if value.error:
        return f"no win: {value.error.replace('_', ' ')}"
    if any(i in TOUTENKOU_BONUSES for i, _ in value.yaku):
        return _explain_points(ctx, value)
    lines: list[str] = []
    if value.yakuman:
        lines.extend(f"{yaku_name(i)} yakuman" for i in value.yakuman)
        lines.append(f"{value.yakuman_count}x yakuman")
    else:
        lines.extend(f"{yaku_name(i)} {h}" for i, h in value.yaku)
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


def _explain_points(ctx: WinContext, value: WinValue) -> str:
    """Toutenkou: ``value.han`` is the points one payer owes (``score_toutenkou``).

    >>> from replay_audit.model.rules.presets import TOUTENKOU
    >>> from replay_audit.scoring.hand import context_from_notation, score_win
    >>> ctx = context_from_notation("123p456p789s1s777z", "1s", riichi=True,
    ...                             seat=0, dealer=0, players=3)
    >>> print(explain(ctx, score_win(ctx, TOUTENKOU)))
    riichi 1
    chun 1
    ura dora 0
    oya 1
    menzen 1
    ron 8
    banban 2
    14 points per payer
    ron: discarder pays 14 points
    """
    from replay_audit.scoring.toutenkou import YAKUMAN_POINTS

    lines = [f"{yaku_name(i)} yakuman {YAKUMAN_POINTS}" for i in value.yakuman]
    lines.extend(f"{yaku_name(i)} {p}" for i, p in value.yaku)
    lines.append(f"{value.han} points per payer")
    if ctx.tsumo:
        lines.append(f"tsumo: each of {ctx.players - 1} pays {value.han} points")
    else:
        lines.append(f"ron: discarder pays {value.han} points")
    return "\n".join(lines)
