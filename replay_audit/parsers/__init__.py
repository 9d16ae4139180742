"""One module per log format; each decodes into ``replay_audit.model.events``.

Must not: score, replay or audit; a parser stores what the log says.
"""
