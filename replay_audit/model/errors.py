"""Errors that carry their place.

Every error names the file, the game (log id), the hand label (``S2-1``) and
the event index, so a person can open the log at the right spot.  Lenient
batch runs turn them into ``parse``/``replay`` findings; ``--strict`` raises.

Must not: import any other module of the package.
"""

from __future__ import annotations


class ReplayAuditError(Exception):
    """Base of every error this package raises on purpose."""


class LogFormatError(ReplayAuditError):
    """A log that cannot be read as what it claims to be."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        log_id: str | None = None,
        hand: str | None = None,
        index: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.log_id = log_id
        self.hand = hand
        self.index = index
        super().__init__(self.describe())

    def describe(self) -> str:
        where = [p for p in (self.source, self.log_id) if p]
        if self.hand:
            where.append(f"hand {self.hand}")
        if self.index is not None:
            where.append(f"event {self.index}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message

    def located(self, **place: object) -> LogFormatError:
        """The same error with missing place fields filled in (the outer reader
        knows the file, the inner decoder knows the event)."""
        for key, value in place.items():
            if getattr(self, key, None) is None and value is not None:
                setattr(self, key, value)
        self.args = (self.describe(),)
        return self


class NotALogError(LogFormatError):
    """Empty, binary, HTML or otherwise not a game log at all."""


class TruncatedLogError(LogFormatError):
    """The document ends before the game does (cut download)."""


class UnknownTagError(LogFormatError):
    """An element the mjlog grammar does not have."""


class InvalidValueError(LogFormatError):
    """A value outside its domain: tile id 136, seat 4, a fifth copy, a 12-tile hand."""


class LimitExceededError(LogFormatError):
    """Input over a safety limit (decompressed size, nesting depth, attribute length)."""


class RulesError(ReplayAuditError):
    """A rule preset or rule file that does not exist or does not make sense."""
