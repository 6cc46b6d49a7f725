"""Find formulations by name (``formulations/<name>.py``) or load one from any file path.

A formulation module defines one :class:`~dualboost.formulation.Formulation` subclass, named by a
module-level ``FORMULATION = TheClass`` or found as the module's only concrete subclass. Loading
checks the contract and reports what is missing in one line.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import pkgutil
import sys
from functools import cache
from pathlib import Path

import formulations

from .errors import FormulationContractError
from .formulation import Capabilities, Formulation

REQUIRED_METHODS = ("primal", "dual", "primal_objective", "dual_objective", "best_response",
                    "recover_dual", "certify")


def available_formulations() -> list[str]:
    """Names of the formulations shipped in the ``formulations`` package."""
    return sorted(m.name for m in pkgutil.iter_modules(formulations.__path__)
                  if not m.name.startswith("_"))


@cache
def shipped(name: str) -> type[Formulation]:
    """The shipped member ``formulations/<name>.py``, found by name at run time.

    How the generic layers reach a member that a problem turns into (the soft-margin LP (2.3)
    is LPBoost's, the smoothed soft margin ERLPBoost's) without importing it: the members lie
    above them (tests/test_imports.py). Unlike :func:`load_formulation`, a file of that name in
    the working directory is never taken for it.
    """
    return _formulation_in(importlib.import_module(f"formulations.{name}"), name)


def _formulation_in(module, origin: str) -> type[Formulation]:
    candidate = getattr(module, "FORMULATION", None)
    if candidate is None:
        found = [obj for obj in vars(module).values()
                 if inspect.isclass(obj) and issubclass(obj, Formulation) and obj is not Formulation
                 and obj.__module__ == module.__name__]
        concrete = [obj for obj in found if not inspect.isabstract(obj)]
        if len(found) == 1 or len(concrete) == 1:
            # one candidate: check_contract names whatever it lacks
            found = concrete or found
        if len(found) != 1:
            raise FormulationContractError(
                f"{origin}: expected one Formulation subclass (or FORMULATION = ...), "
                f"found {len(found)}")
        candidate = found[0]
    return check_contract(candidate, origin)


def check_contract(cls, origin: str = "formulation") -> type[Formulation]:
    """Raise :class:`FormulationContractError` unless ``cls`` satisfies the contract."""
    if not (inspect.isclass(cls) and issubclass(cls, Formulation)):
        raise FormulationContractError(
            f"{origin}: {cls!r} is not a subclass of dualboost.Formulation")
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    if missing:
        raise FormulationContractError(f"{origin}: {cls.__name__} does not implement "
                                       f"{', '.join(missing)}")
    for attribute in ("name", "capabilities", "default_algorithm", "params"):
        if not hasattr(cls, attribute):
            raise FormulationContractError(f"{origin}: {cls.__name__} has no class attribute "
                                           f"{attribute!r}")
    if not isinstance(cls.capabilities, Capabilities):
        raise FormulationContractError(f"{origin}: {cls.__name__}.capabilities must be a "
                                       "dualboost.Capabilities")
    unknown = set(cls.capabilities.cones) - {"lp", "soc", "exp", "pow"}
    if unknown:
        raise FormulationContractError(f"{origin}: unknown cone(s) {sorted(unknown)}; declare "
                                       "from lp, soc, exp, pow")
    for method in REQUIRED_METHODS:
        if not callable(getattr(cls, method, None)):
            raise FormulationContractError(f"{origin}: {cls.__name__}.{method} is not callable")
    return cls


def load_formulation(name_or_path: str | type[Formulation]) -> type[Formulation]:
    """The formulation class for a registered name, a path to a ``.py`` file, or a class."""
    if inspect.isclass(name_or_path):
        return check_contract(name_or_path)
    spec = str(name_or_path)
    path = Path(spec)
    if spec.endswith(".py") or path.is_file():
        if not path.is_file():
            raise FormulationContractError(f"no such formulation file: {spec}")
        digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
        module_name = f"dualboost_user_formulation_{path.stem}_{digest}"
        loader_spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[module_name] = module  # lets results and estimators that use it be pickled
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:
            sys.modules.pop(module_name, None)
            raise FormulationContractError(
                f"{spec}: the file does not import ({type(exc).__name__}: {exc})") from exc
        return _formulation_in(module, spec)
    if spec not in available_formulations():
        raise FormulationContractError(
            f"unknown formulation {spec!r}; available: {', '.join(available_formulations())} "
            "(or give the path of a .py file)")
    return _formulation_in(importlib.import_module(f"formulations.{spec}"), spec)
