"""Pure scoring: decomposition, yaku, fu, points, payments, settlement.

Must not: touch files, events or the replay; every function is pure over its
arguments and a ``RuleSet``.
"""
