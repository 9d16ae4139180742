"""The model: the values every layer shares, and nothing that computes a game.

``tiles`` (tile ids, kinds, notation), ``meld``, ``events`` (the normalized,
immutable ``Game`` every parser produces), ``errors``, ``findings`` (the finding
categories), ``dating`` (a log's date) and ``rules`` (``RuleSet``, presets,
detection, lobby rules, eras).

Must not: import any other layer of the package; parse, replay, score or report.
"""
