"""``python -m dualboost ...``: the same command as the ``dualboost`` console script.

``import dualboost`` loads only the standard library, so Ctrl-C from the moment this module runs
(the import of the command line included) ends with one line and exit status 130, no traceback.
"""

import sys


def _run() -> int:
    try:
        from dualboost.cli import main

        return main()
    except KeyboardInterrupt:  # before main() was entered; main() handles every later one
        print("dualboost: interrupted (Ctrl-C)", file=sys.stderr, flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(_run())
