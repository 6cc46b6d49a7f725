"""``python -m dualboost.verify``: the verifier's own entry point (the same as ``dualboost
verify``). Its :func:`~dualboost.verify.main` applies the output rules of every command
(:mod:`dualboost.outputs`); Ctrl-C is one line and exit status 130, as for the other commands.
"""

import sys

from dualboost.verify import main

try:
    code = main(sys.argv[1:])
except KeyboardInterrupt:
    print("python -m dualboost.verify: interrupted (Ctrl-C)", file=sys.stderr, flush=True)
    code = 130
sys.exit(code)
