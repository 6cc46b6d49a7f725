"""cvxpy imported on first use: the fast paths never touch it.

cvxpy (with the scipy.stats it pulls in) takes about 0.6 s to import, a third of a whole
``dualboost fit`` on a9a, and the fast masters (HiGHS, projected Newton) never build a cvxpy
model. Every module here and every formulation file writes ``import cvxpy as cp`` as usual;
the ``dualboost`` command (its own process: :func:`dualboost.cli.main`) calls :func:`install`,
which puts a stand-in module in ``sys.modules`` whose first attribute lookup
(``cp.Variable``: a reference solve, a formulation's model, the verifier) imports cvxpy, and
from then on it forwards every attribute to cvxpy, so those import statements are free. (The
standard library's ``importlib.util.LazyLoader`` loads on the import statement itself under
Python 3.11.)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types


class _Deferred(types.ModuleType):
    """Stands for a module until an attribute of it is first asked for, then forwards every
    lookup and assignment to the real module (so ``monkeypatch.setattr(cp, ...)`` through
    either object reaches both)."""

    def __getattr__(self, attr: str):  # only called for names not in the stand-in's own dict
        return getattr(_load(self), attr)

    def __setattr__(self, attr: str, value) -> None:
        setattr(_load(self), attr, value)

    def __delattr__(self, attr: str) -> None:
        delattr(_load(self), attr)

    def __dir__(self):
        return dir(_load(self))


def _load(stand_in: _Deferred) -> types.ModuleType:
    name = stand_in.__name__
    if sys.modules.get(name) is stand_in:
        del sys.modules[name]
        try:
            importlib.import_module(name)
        except BaseException:
            sys.modules.setdefault(name, stand_in)
            raise
    return sys.modules[name]


def install(name: str = "cvxpy") -> None:
    """Make ``import name`` deferred in this process, unless it is imported already or absent."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None:
        return  # not installed: the first use says so
    stand_in = _Deferred(name)
    # the stand-in's own attributes (an assignment would be forwarded: see __setattr__)
    stand_in.__dict__.update(__spec__=spec, __file__=spec.origin)
    # no __path__: importing a submodule (``import cvxpy.atoms``) asks for it, which loads the
    # real package first (a submodule imported under the stand-in would re-enter its parent)
    sys.modules[name] = stand_in
    parent, _, child = name.rpartition(".")
    if parent:
        # a submodule is also its package's attribute (``import numpy.f2py as f2py`` in
        # numpy's own __getattr__ reads it back from there; the real import replaces it)
        setattr(sys.modules[parent], child, stand_in)
