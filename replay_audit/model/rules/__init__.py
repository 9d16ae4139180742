"""Rules as data: ``RuleSet``, the named presets and reading rules from a log.

``ruleset`` (the dataclass, presets, TOML files, detection from a GO type or a
``rule.disp`` string), ``csrule`` (a private lobby's rule string), ``majsoul``
(Mahjong Soul rooms), ``eras`` (the rules of Tenhou's eras, by date).
``replay_audit.rules`` (the module before issue 18) aliases ``ruleset``.

Must not: compute scores, read files, or import anything above the model.
"""
