"""``python -m dualboost.verify``: the same command as ``dualboost verify``.

It enters through the command line's front end so that the output rules (``--json`` in a missing
directory or naming a ``--formulation`` file is exit 2 before any check runs) and Ctrl-C's one
line and exit 130 are the same as for every other command.
"""

import sys

from dualboost.cli import main

sys.exit(main(["verify", *sys.argv[1:]]))
