"""Rules as data: ``RuleSet``, the named presets and reading rules from a log.

``ruleset`` (the dataclass and its checks) <- ``presets`` (the named rule sets,
TOML files, overrides) <- ``detect`` (from a GO type or a ``rule.disp`` string,
with ``majsoul`` for Mahjong Soul's rooms); ``csrule`` reads a private lobby's
rule string; ``eras`` holds the rules of Tenhou's eras, by date, and ``reds``
the red fives a tenhou.net/6 ``rule`` object declares.  The names of
the old ``replay_audit.rules`` module are re-exported here (that path aliases
this package).

Must not: compute scores, read files, or import anything above the model.
"""

from __future__ import annotations

from replay_audit.model.rules.csrule import rules_for_csrule
from replay_audit.model.rules.detect import rules_for_disp, rules_for_go_type
from replay_audit.model.rules.presets import (
    INFERRED_RULES,
    MAJSOUL_3P,
    MAJSOUL_4P,
    PRESETS,
    RULEFILES,
    TENHOU_3P,
    TENHOU_4P,
    TENHOU_RATIO,
    TOUTENKOU,
    InferredRule,
    load_rules,
    with_overrides,
)
from replay_audit.model.rules.presets import _coerce as _coerce
from replay_audit.model.rules.ruleset import _COUNTS as _COUNTS
from replay_audit.model.rules.ruleset import (
    DOUBLE_YAKUMAN_PATTERNS,
    KazoeMode,
    Rounding,
    RuleSet,
    ScoringMode,
    YakumanMode,
    check_values,
)

__all__ = [
    "DOUBLE_YAKUMAN_PATTERNS",
    "INFERRED_RULES",
    "MAJSOUL_3P",
    "MAJSOUL_4P",
    "PRESETS",
    "RULEFILES",
    "TENHOU_3P",
    "TENHOU_4P",
    "TENHOU_RATIO",
    "TOUTENKOU",
    "InferredRule",
    "KazoeMode",
    "Rounding",
    "RuleSet",
    "ScoringMode",
    "YakumanMode",
    "check_values",
    "load_rules",
    "rules_for_csrule",
    "rules_for_disp",
    "rules_for_go_type",
    "with_overrides",
]
