"""Editing real logs by hand, for the tests that change one recorded value and
require the audit to find it (``test_trust.py``, ``test_audit_mutations.py``).

An mjlog is a flat list of elements: ``XmlLog`` holds the tree, names each
element's hand, and writes the edited document where the audit reads it.  A
tenhou.net/6 JSON log is edited as plain data (``json_log``/``write_json``).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from lxml import etree

from replay_audit.auditing.auditor import audit_file
from replay_audit.auditing.rows import FileAudit

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"


def read_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


class XmlLog:
    """An mjlog tree with the hand index of every element."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.root = etree.fromstring(read_bytes(path))

    @property
    def elements(self) -> list[etree._Element]:
        return list(self.root)

    def hand_of(self, el: etree._Element) -> int:
        """0-based hand (INIT) an element belongs to."""
        n = -1
        for e in self.root:
            if e.tag == "INIT":
                n += 1
            if e is el:
                return n
        raise AssertionError("element not in the document")

    def tags(self, tag: str, pred: Callable[[etree._Element], bool] = lambda e: True) -> list:
        return [e for e in self.root if e.tag == tag and pred(e)]

    def hands(self) -> list[list[etree._Element]]:
        """The elements of each hand, INIT first (the header is left out)."""
        out: list[list[etree._Element]] = []
        for e in self.root:
            if e.tag == "INIT":
                out.append([])
            if out:
                out[-1].append(e)
        return out

    def results(self) -> Iterator[etree._Element]:
        return (e for e in self.root if e.tag in ("AGARI", "RYUUKYOKU"))

    def write(self, target: Path) -> Path:
        target.write_bytes(etree.tostring(self.root))
        return target


def ints(el: etree._Element, attr: str) -> list[int]:
    return [int(v) for v in el.get(attr).split(",")]


def set_ints(el: etree._Element, attr: str, values: list[int]) -> None:
    el.set(attr, ",".join(str(v) for v in values))


def bump(el: etree._Element, attr: str, index: int, by: int) -> None:
    values = el.get(attr).split(",")
    values[index] = str(int(values[index]) + by)
    el.set(attr, ",".join(values))


def json_log(path: Path) -> dict[str, Any]:
    return json.loads(read_bytes(path))


def write_json(doc: dict[str, Any], target: Path) -> Path:
    target.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return target


def edited(source: Path, old: str, new: str, folder: Path) -> Path:
    """``source`` (a plain-text log) with its one ``old`` written ``new``, saved under
    the same name in ``folder``: the log a check must now find wrong."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {source.name}"
    target = folder / source.name
    target.write_text(text.replace(old, new), encoding="utf-8")
    return target


def problems(fa: FileAudit) -> list[dict[str, Any]]:
    return [f for f in fa.findings if f["category"] != "info"]


def notes(fa: FileAudit) -> list[dict[str, Any]]:
    return [f for f in fa.findings if f["category"] == "info"]


def audit(path: Path) -> FileAudit:
    return audit_file(path, with_facts=False)
