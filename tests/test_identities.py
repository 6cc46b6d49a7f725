"""The map of identities (dualboost/verify/identities.py, ``python -m dualboost.verify
--identities``): every shipped row passes on the quick instance, every row fails for a wrong
mapping (shift, scale, parameter map, d map, w map) with its own identity row (not a solver or
setup error), unregistered formulations are reported as not available, and the table in
docs/formulations.md is the one generated from the list."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from dualboost.registry import available_formulations
from dualboost.verify import main
from dualboost.verify.identities import (
    IDENTITIES,
    Identity,
    ValueMap,
    markdown_table,
    run_identities,
    signed_to_pair,
    with_negations,
)
from dualboost.verify.instances import instance_by_name

DOCS = Path(__file__).resolve().parents[1] / "docs" / "formulations.md"
REGISTERED = set(available_formulations())

#: a wrong parameter map per row: overrides of the right-hand parameters that change the problem
#: (a new row adds its own; test_every_row_has_a_wrong_parameter_map asks for it)
WRONG_PARAMS = {
    "I1": lambda c: {"edge_bound": c.left.edge_bound + 0.05},
    "I2": lambda c: {"eta": 2.0 * c.left.eta},
    "I3": lambda c: {"eta": 0.5 * c.left.eta},
    "I4": lambda c: {"nu": c.left.nu + 1.5},
    "I5": lambda c: {"nu": c.N - 1.0},
    "I6": lambda c: {"edge_bound": c.left_max_edge + 0.05},
    # the cap count not rescaled to the N' repeated rows
    "I7": lambda c: {"nu": c.left.nu},
    # seed 002: the squared hinge's eta without the factor p = 2; the costs' prior dropped
    # (uniform d0); the exp loss's eta = T instead of 1/T
    "I31": lambda c: {"eta": c.left.D * c.N},
    # the l_p hinge's D halved (the coefficient 1/(2D) instead of 1/(4D)); the hinge's caps
    # moved (nu = 1/D + 1.5: another soft margin)
    "I32": lambda c: {"D": 0.5 * c.left.D},
    "I33": lambda c: {"nu": 1.0 / c.left.D + 1.5},
    "I34": lambda c: {"d0": np.full(c.N, 1.0 / c.N)},
    "I35": lambda c: {"eta": c.left.T},
    # eta = T instead of 1/T; T moved (the unused budget's problem is another one)
    "I30": lambda c: {"eta": c.left.T},
    "I36": lambda c: {"T": 1.5 * c.left.T},
    # seed 001's relaxation family
    "I8": lambda c: {"nu": c.left.nu + 1.5},
    "I9": lambda c: {"nu": float(c.left.k) + 1.0},
    "I10": lambda c: {"eta": 0.5 / c.left.beta},
    "I11": lambda c: {"eta": 0.5 / c.left.beta},
    "I12": lambda c: {"nu": c.left.nu + 1.0},
    "I13": lambda c: {"weight": 0.5},
}

_QUICK = {}


def quick():
    if "quick" not in _QUICK:
        _QUICK["quick"] = instance_by_name("quick")
    return _QUICK["quick"]


def available(row: Identity) -> bool:
    return not row.missing(REGISTERED)


def identity_rows(rows, identity_id):
    return [r for r in rows if r.id == identity_id]


def _scale(value):
    return (lambda c: 1.25 * value(c)) if callable(value) else 1.25 * value


def _shift(value):
    return (lambda c: value(c) + 0.05) if callable(value) else value + 0.05


def wrong_variants(row: Identity) -> dict[str, Identity]:
    """The row with one part of its mapping wrong at a time."""
    right_params = row.right_params

    def wrong_params(c, extra=WRONG_PARAMS[row.id]):
        return {**right_params(c), **extra(c)}

    def w_doubled(w, c, w_map=row.w_map):
        return 2.0 * w_map(w, c)

    def d_moved(d, c, d_map=row.d_map):
        # 30% of the mass moved onto the smallest coordinate (leaves S_nu where caps bind)
        d = np.asarray(d_map(d, c), dtype=float)
        return 0.7 * d + 0.3 * np.eye(d.size)[np.argmin(d)]

    return {
        "shift": dataclasses.replace(row, value=ValueMap(row.value.scale,
                                                         _shift(row.value.shift))),
        "scale": dataclasses.replace(row, value=ValueMap(_scale(row.value.scale),
                                                         row.value.shift)),
        "parameters": dataclasses.replace(row, right_params=wrong_params),
        "w map": dataclasses.replace(row, w_map=w_doubled),
        "d map": dataclasses.replace(row, d_map=d_moved),
    }


@pytest.mark.parametrize("row", IDENTITIES, ids=lambda r: r.id)
def test_row_passes_on_quick(row):
    if not available(row):
        pytest.skip(f"{row.id}: {', '.join(row.missing(REGISTERED))} not registered")
    rows, cases = run_identities([quick()], rows=[row])
    failed = [f"{r.id} {r.label}: {r.detail}" for r in rows if r.status == "FAIL"]
    assert not failed, failed
    passed = {r.label.split(":")[0] for r in identity_rows(rows, row.id) if r.status == "pass"}
    assert passed == {"optimal value", "optimal d", "optimal w"}, (passed, rows)


@pytest.mark.parametrize("row", IDENTITIES, ids=lambda r: r.id)
@pytest.mark.parametrize("part", ["shift", "scale", "parameters", "w map", "d map"])
def test_wrong_mapping_fails_the_identity_row(row, part):
    if not available(row):
        pytest.skip(f"{row.id}: {', '.join(row.missing(REGISTERED))} not registered")
    wrong = wrong_variants(row)[part]
    rows, _ = run_identities([quick()], rows=[wrong])
    failing = [r for r in identity_rows(rows, row.id) if r.status == "FAIL"]
    assert failing, f"{row.id} with a wrong {part} passes: {[(r.label, r.detail) for r in rows]}"
    # the row that judges the wrong part is among the failing ones
    judged_by = {"shift": "optimal value", "scale": "optimal value", "w map": "optimal w",
                 "d map": "optimal d", "parameters": ""}[part]
    assert any(r.label.startswith(judged_by) for r in failing), \
        [(r.label, r.detail) for r in failing]
    # the identity's own rows fail on a computed value, not a solver/setup problem
    assert any(r.value is not None or "infeasible" in r.detail for r in failing), \
        [(r.label, r.detail) for r in failing]
    assert not [r for r in rows if r.id in ("solver", "setup") and r.status == "FAIL"]


def test_every_row_has_a_wrong_parameter_map():
    assert {r.id for r in IDENTITIES} <= set(WRONG_PARAMS)


def test_ids_are_unique():
    ids = [r.id for r in IDENTITIES]
    assert len(ids) == len(set(ids))


def test_every_shipped_row_is_available():
    """A row naming an unregistered formulation is reported n/a by the verifier; shipping one
    is an error (its identity would never be checked)."""
    missing = {r.id: r.missing(REGISTERED) for r in IDENTITIES if not available(r)}
    assert not missing, missing


def test_unregistered_formulation_is_not_available_not_passed():
    row = dataclasses.replace(IDENTITIES[0], id="X1", right="no_such_formulation")
    rows, cases = run_identities([quick()], rows=[row])
    assert [r.status for r in rows] == ["n/a"]
    assert "not available" in rows[0].detail and "no_such_formulation" in rows[0].detail
    assert cases[0]["status"] == "n/a"


def test_docs_table_is_generated_from_the_list():
    text = DOCS.read_text()
    assert "## The map of identities" in text
    section = text.split("## The map of identities", 1)[1]
    assert markdown_table() in section, (
        "docs/formulations.md's identity table differs from dualboost/verify/identities.py; "
        "regenerate it with: python -m dualboost.verify.identities --markdown")


def test_cli_identities_json(tmp_path, capsys):
    out = tmp_path / "identities.json"
    code = main(["--identities", "I1,I2", "--instances", "quick", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    report = json.loads(out.read_text())
    ids = {row["id"] for row in report["checks"]}
    assert ids == {"I1", "I2"}
    assert {case["kind"] for case in report["cases"]} == {"identity"}
    assert report["counts"]["FAIL"] == 0 and report["counts"]["pass"] >= 6
    assert "I1: totalboost = softboost at nu = 1" in printed
    assert max(len(line) for line in printed.splitlines()) <= 100


def test_cli_unknown_identity_is_a_usage_error(capsys):
    assert main(["--identities", "I99", "--instances", "quick"]) == 2
    assert "unknown identity 'I99'" in capsys.readouterr().err


def test_signed_weights_map_onto_the_negation_closed_columns():
    rng = np.random.default_rng(3)
    U = rng.uniform(-1, 1, size=(6, 4))
    w = np.array([0.5, -0.2, 0.0, -0.3])
    paired = signed_to_pair(w, None)
    assert paired.min() >= 0 and paired.sum() == pytest.approx(np.abs(w).sum())
    np.testing.assert_allclose(with_negations(U) @ paired, U @ w)


def test_python_entry_returns_the_identity_records():
    from dualboost.verify import run

    records = run(instances="quick", identities="I2")
    assert {r["id"] for r in records} == {"I2"}
    assert all(r["status"] == "pass" for r in records) and len(records) == 6
    with pytest.raises(Exception, match="unknown identity"):
        run(instances="quick", identities="I0")


def test_a_cap_map_is_told_apart_by_a_case_where_the_cap_binds():
    """The session's wrong I11 (nu = 2 instead of 1) passed every earlier case: no cap bound.
    quick's concentrated signed case (one example carries ~0.8 of d) tells them apart, and the
    right map passes on it."""
    from dualboost.verify.identities import identity_by_id

    row = identity_by_id("I11")
    bad = dataclasses.replace(row, right_params=lambda c: {"nu": 2.0, "eta": 1.0 / c.left.beta})
    good_rows, _ = run_identities([quick()], rows=[row])
    assert good_rows and all(r.status == "pass" for r in good_rows)
    bad_rows, _ = run_identities([quick()], rows=[bad])
    failing = {r.case for r in bad_rows if r.status == "FAIL"}
    assert any("carries most of d" in case for case in failing), failing
