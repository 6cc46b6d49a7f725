"""cvxpy imported on first use: the fast paths never touch it.

cvxpy (with the scipy.stats it pulls in) takes about 0.6 s to import, a third of a whole
``dualboost fit`` on a9a, and the fast masters (HiGHS, projected Newton) never build a cvxpy
model. Every module here and every formulation file writes ``import cvxpy as cp`` as usual;
:func:`install` first puts a stand-in module in ``sys.modules`` whose first attribute lookup
(``cp.Variable``: a reference solve, a formulation's model, the verifier) imports cvxpy and
takes over its namespace, so those import statements are free. (The standard library's
``importlib.util.LazyLoader`` loads on the import statement itself under Python 3.11.)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types


class _Deferred(types.ModuleType):
    """Stands for a module until an attribute of it is first asked for."""

    def __getattr__(self, attr: str):  # only called for names not yet in the namespace
        real = _load(self)
        return getattr(real, attr)

    def __dir__(self):
        return dir(_load(self))


def _load(stand_in: _Deferred) -> types.ModuleType:
    name = stand_in.__name__
    if sys.modules.get(name) is stand_in:
        del sys.modules[name]
        try:
            real = importlib.import_module(name)
        except BaseException:
            sys.modules.setdefault(name, stand_in)
            raise
        # the stand-in, held by the modules that imported it, becomes a view of the real one
        stand_in.__dict__.update(real.__dict__)
        return real
    return sys.modules[name]


def install(name: str = "cvxpy") -> None:
    """Make ``import name`` deferred in this process, unless it is imported already or absent."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None:
        return  # not installed: the first use says so
    stand_in = _Deferred(name)
    stand_in.__spec__ = spec
    stand_in.__file__ = spec.origin
    # no __path__: importing a submodule (``import cvxpy.atoms``) asks for it, which loads the
    # real package first (a submodule imported under the stand-in would re-enter its parent)
    sys.modules[name] = stand_in
