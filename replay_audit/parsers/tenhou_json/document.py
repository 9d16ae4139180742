"""A JSON document, read safely: size and nesting limits, then ``json.loads``.

Owns the input limits (``MAX_INPUT_BYTES``, ``MAX_DEPTH``), ``check_depth`` and
``load_document``.

Must not: interpret the document's fields.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from replay_audit.model.errors import (
    LimitExceededError,
    NotALogError,
    TruncatedLogError,
)

MAX_INPUT_BYTES: Final = 32 * 1024 * 1024
"""Largest document accepted (a full hanchan is about 30 kB)."""
MAX_DEPTH: Final = 64
"""Deepest array/object nesting accepted (a real log needs 5)."""

# ----------------------------------------------------------------------- document


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Reject nesting deeper than ``limit`` before ``json.loads`` sees it (the C
    decoder recurses, and a hostile file could exhaust the stack).  Strings are
    blanked out first so brackets inside names do not count."""
    stripped = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    depth = 0
    for m in re.finditer(r"[\[\]{}]", stripped):
        if m.group() in "[{":
            depth += 1
            if depth > limit:
                raise LimitExceededError(f"JSON nested deeper than {limit} levels")
        else:
            depth -= 1


def load_document(data: bytes, source: str = "<bytes>") -> dict[str, Any]:
    """Decode, size- and depth-check and ``json.loads`` a tenhou.net/6 document."""
    if len(data) > MAX_INPUT_BYTES:
        raise LimitExceededError(
            f"input is {len(data)} bytes, over the {MAX_INPUT_BYTES}-byte limit", source=source
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotALogError(f"not UTF-8 text: {exc}", source=source) from exc
    if not text.strip():
        raise NotALogError("empty document", source=source)
    try:
        check_depth(text)
    except LimitExceededError as exc:
        raise exc.located(source=source) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        cls = TruncatedLogError if exc.pos >= len(text.rstrip()) else NotALogError
        raise cls(
            f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=source
        ) from exc
    except RecursionError as exc:  # pragma: no cover - check_depth comes first
        raise LimitExceededError("JSON nested too deeply", source=source) from exc
    except ValueError as exc:  # an integer over Python's 4,300-digit limit
        raise LimitExceededError(f"JSON number too long: {exc}", source=source) from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        raise NotALogError("not a tenhou.net/6 log: no top-level 'log' array", source=source)
    return doc
