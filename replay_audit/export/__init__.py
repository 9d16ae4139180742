"""Writers: a ``Game`` out as tenhou.net/6 JSON or as mjai events.

Must not: parse, replay or score; a writer only re-spells the events it is given.
"""

from replay_audit.export.mjai import to_mjai, write_mjai_lines
from replay_audit.export.tenhou6 import dumps_tenhou6, to_tenhou6

__all__ = ["dumps_tenhou6", "to_mjai", "to_tenhou6", "write_mjai_lines"]
