"""``python -m dualboost ...``: the same command as the ``dualboost`` console script."""

import sys

from dualboost.cli import main

if __name__ == "__main__":
    sys.exit(main())
