"""replay_audit: audit Riichi Mahjong game logs, payment by payment.

The public API grows as the layers land; see README.md.
"""

__version__ = "0.1.0"
