"""``python -m dualboost ...``: the same command as the ``dualboost`` console script.

``import dualboost`` and ``dualboost.cli`` load only the standard library, so Ctrl-C from here on
lands in :func:`dualboost.cli.main` (one line, exit status 130).
"""

import sys

from dualboost.cli import main

if __name__ == "__main__":
    sys.exit(main())
