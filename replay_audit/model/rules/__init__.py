"""Rules as data: ``RuleSet``, the named presets and reading rules from a log.

``ruleset`` (the dataclass, presets, TOML files, detection from a GO type or a
``rule.disp`` string), ``csrule`` (a private lobby's rule string), ``majsoul``
(Mahjong Soul rooms), ``eras`` (the rules of Tenhou's eras, by date).  The names
of the old ``replay_audit.model.rules`` module are re-exported here (that path aliases
this package).

Must not: compute scores, read files, or import anything above the model.
"""

from __future__ import annotations

from replay_audit.model.rules.csrule import rules_for_csrule
from replay_audit.model.rules.ruleset import _COUNTS as _COUNTS
from replay_audit.model.rules.ruleset import (
    DOUBLE_YAKUMAN_PATTERNS,
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
    KazoeMode,
    Rounding,
    RuleSet,
    ScoringMode,
    YakumanMode,
    check_values,
    load_rules,
    rules_for_disp,
    rules_for_go_type,
    with_overrides,
)
from replay_audit.model.rules.ruleset import _coerce as _coerce

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
