"""Mutation suite for the verifier: wrong formulation files must fail it, equivalent ones pass.

Every variant in tests/mutations.py is a textual edit of a shipped file in ``formulations/``
(the edited text must occur exactly once, so a variant cannot silently become a no-op when the
file changes). The variant is written to a fresh ``.py`` file and run through
``python -m dualboost.verify --instances quick`` in this process. A variant that changes the math
must make the verifier exit non-zero with at least one FAIL row whose check id is a *formulation*
check of the catalogue (docs/theory.md: D*, K*, C*, F*, R*, T*, E11, L*, G1, S*, P*, W*), not only a
solver
that gave up; a math-preserving variant must pass. The last test prints the table of every
variant (shown in any CI log, with or without ``-s``).
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from mutations import MUTATIONS, Mutation

import formulations
from dualboost.verify import main

FORMULATIONS = Path(formulations.__file__).parent
INSTANCES = "quick"
#: catalogue ids of the checks that judge the formulation itself (not a solver's status)
FORMULATION_CHECK = re.compile(r"^(?:[DKCFRTLSPWIM]\d+|E11|G1|SL\d+|CG\d+)$")

#: variant id -> (expected, got, failing check ids, seconds); filled by test_mutation
RESULTS: dict[str, tuple[str, str, list[str], float]] = {}


def check_id(row: dict) -> str:
    """The catalogue id of a JSON row of the verifier."""
    for key in ("id", "check_id"):
        if row.get(key):
            return str(row[key])
    return ""


def variant_source(mutation: Mutation) -> str:
    source = (FORMULATIONS / mutation.source).read_text()
    count = source.count(mutation.old)
    assert count == 1, (f"{mutation.id}: the text to replace occurs {count} times in "
                        f"formulations/{mutation.source} (update tests/mutations.py)")
    return source.replace(mutation.old, mutation.new)


#: a variant that makes the verifier hang is a finding, not a CI timeout: fail it after this long
VARIANT_SECONDS = 90


class VariantTimeout(BaseException):
    """Not an Exception: the verifier turns a check's exceptions into FAIL rows, and a hang must
    not count as a caught variant."""


@contextmanager
def time_limit(seconds: int, what: str):
    """Raise VariantTimeout in this (main) thread after ``seconds`` (SIGALRM; POSIX only)."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise VariantTimeout(f"{what}: the verifier did not finish within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_verifier(path: Path, out: Path) -> tuple[int, list[dict]]:
    with time_limit(VARIANT_SECONDS, path.stem):
        code = main(["--formulation", str(path), "--instances", INSTANCES, "--json", str(out)])
    rows = json.loads(out.read_text())["checks"] if out.exists() else []
    return code, rows


def test_mutation_catalogue_is_broad():
    """At least 40 variants, both shipped files covered, equivalent rewrites included."""
    assert len(MUTATIONS) >= 40
    sources = {m.source for m in MUTATIONS}
    assert {"lpboost.py", "erlpboost.py"} <= sources
    assert sum(m.expected == "pass" for m in MUTATIONS) >= 5
    for source in sources:
        assert (FORMULATIONS / source).is_file(), source


def _param(mutation: Mutation):
    marks = ([pytest.mark.xfail(strict=True, reason="known verifier miss: " + mutation.known_miss)]
             if mutation.known_miss else [])
    return pytest.param(mutation, id=mutation.id, marks=marks)


@pytest.mark.parametrize("mutation", [_param(m) for m in MUTATIONS])
def test_mutation(mutation: Mutation, tmp_path, capsys):
    path = tmp_path / f"{mutation.id}.py"
    path.write_text(variant_source(mutation))
    out = tmp_path / "verify.json"
    start = time.perf_counter()
    try:
        code, rows = run_verifier(path, out)
    except VariantTimeout as exc:
        RESULTS[mutation.id] = (mutation.expected, "hang", [], time.perf_counter() - start)
        pytest.fail(f"{mutation.id} ({mutation.description}): {exc}")
    seconds = time.perf_counter() - start
    printed = capsys.readouterr()
    failing = [row for row in rows if row.get("status") == "FAIL"]
    failing_ids = sorted({check_id(row) or "?" for row in failing})
    caught = sorted(i for i in failing_ids if FORMULATION_CHECK.match(i))
    got = "fail" if code != 0 else "pass"
    RESULTS[mutation.id] = (mutation.expected, got, failing_ids, seconds)
    context = (f"{mutation.id} ({mutation.description}): exit {code}, failing {failing_ids}\n"
               f"{printed.out[-4000:]}\n{printed.err[-2000:]}")
    if mutation.expected == "pass":
        assert code == 0 and not failing, context
    else:
        assert code != 0, "not caught: " + context
        assert caught, "no formulation check failed: " + context


def test_mutation_summary(capsys):
    """The table of every variant run in this session (printed past pytest's capture)."""
    if not RESULTS:
        pytest.skip("no variant ran in this session")
    lines = [f"{'variant':46} {'expected':8} {'got':4}  failing check ids (s)"]
    for mutation in MUTATIONS:
        if mutation.id not in RESULTS:
            continue
        expected, got, ids, seconds = RESULTS[mutation.id]
        mark = "" if expected == got else (
            "  <-- known miss (xfail)" if mutation.known_miss else "  <-- MISMATCH")
        lines.append(f"{mutation.id:46} {expected:8} {got:4}  {','.join(ids) or '-'} "
                     f"({seconds:.1f}){mark}")
    fails = [r for r in RESULTS.values() if r[0] == "fail"]
    caught = sum(r[1] == "fail" for r in fails)
    passes = [r for r in RESULTS.values() if r[0] == "pass"]
    lines.append(f"{len(RESULTS)} variants: {caught}/{len(fails)} math-changing caught, "
                 f"{sum(r[1] == 'pass' for r in passes)}/{len(passes)} equivalent passed, "
                 f"{sum(r[3] for r in RESULTS.values()):.0f} s")
    by_id: dict[str, int] = {}
    for expected, got, ids, _ in RESULTS.values():
        if expected == "fail" and got == "fail":
            for i in ids:
                by_id[i] = by_id.get(i, 0) + 1
    lines.append("caught variants per check id: " + ", ".join(
        f"{i} {n}" for i, n in sorted(by_id.items(), key=lambda item: (-item[1], item[0]))))
    with capsys.disabled():
        print("\n\nverifier mutation suite\n" + "\n".join(lines))
