"""One module per log format; each decodes into ``replay_audit.model.events``."""
