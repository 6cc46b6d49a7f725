"""proofs_check/identities.py: the identity rows' maps derived with sympy, each check failing
for a wrong map (the verifier's --identities checks the same maps numerically)."""

from __future__ import annotations

import pytest

from proofs_check import ALL_CHECKS
from proofs_check.identities import (
    check_identity_erlpboost_softboost,
    check_identity_repeated_rows,
    check_identity_unnormalized,
)

CHECKS = (check_identity_erlpboost_softboost, check_identity_repeated_rows,
          check_identity_unnormalized)


@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__)
def test_identity_derivation_passes_and_is_registered(check):
    result = check()
    assert result.passed, result.detail
    assert result.reference.startswith("thesis") and "docs/formulations.md I" in result.reference
    assert check in ALL_CHECKS


@pytest.mark.parametrize("check, mistake", [
    (check_identity_erlpboost_softboost, "w_unscaled"),
    (check_identity_erlpboost_softboost, "no_shift"),
    (check_identity_repeated_rows, "nu_unscaled"),
    (check_identity_repeated_rows, "copies_not_split"),
    (check_identity_unnormalized, "prior_unnormalized"),
])
def test_wrong_map_fails(check, mistake):
    assert not check(mistake=mistake).passed


@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__)
def test_unknown_mistake_is_an_error(check):
    with pytest.raises(ValueError, match="unknown mistake"):
        check(mistake="no_such_mistake")
