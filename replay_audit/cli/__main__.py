"""``python -m replay_audit.cli``: the ``replay-audit`` command."""

import sys

from replay_audit.cli import main

sys.exit(main())
