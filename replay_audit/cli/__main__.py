"""``python -m replay_audit.cli``: the ``replay-audit`` command.

Must not: hold anything but the call to ``main``.
"""

import sys

from replay_audit.cli import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
