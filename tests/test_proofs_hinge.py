"""proofs_check's seed 002 hinge / squared-hinge derivation (proofs_check/hinge.py): it passes, and
each deliberately wrong translation (the hinge's caps 1/D, the squared hinge's eta = DN) fails."""

from __future__ import annotations

import pytest

from proofs_check import ALL_CHECKS
from proofs_check.hinge import MISTAKES, check_hinge_duals


def test_registered_and_passes():
    assert check_hinge_duals in ALL_CHECKS
    result = check_hinge_duals()
    assert result.passed, result.detail
    assert "I32" in result.reference and "I33" in result.reference


@pytest.mark.parametrize("mistake", MISTAKES)
def test_wrong_translation_fails(mistake):
    result = check_hinge_duals(mistake=mistake)
    assert not result.passed, result.detail


def test_unknown_mistake_is_an_error():
    with pytest.raises(ValueError, match="unknown mistake"):
        check_hinge_duals(mistake="no_such_mistake")
