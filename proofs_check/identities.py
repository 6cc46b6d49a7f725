"""The map of identities (dualboost/verify/identities.py, docs/formulations.md): the derivations.

Each check derives, with sympy, the parameter, value and multiplier map an identity row states,
and takes a ``mistake`` keyword that switches to a wrong map which must make it fail
(``tests/test_proofs_identities.py``). The verifier's ``--identities`` section checks the same
maps numerically on its instances.

* :func:`check_identity_erlpboost_softboost` -- row I6: with gamma fixed at ERLPBoost's optimal
  max edge gamma*, (3.6) is SoftBoost's (3.1) with c = gamma*. On {sum w = 1} the Lagrangians
  satisfy ``eta (L_(3.12)(d, gamma*; w, psi, beta) - gamma*) = L_(3.3)(d; eta w, eta psi,
  eta beta)``, so the two stationarity systems in d coincide (same d*), SoftBoost's multipliers
  are eta times ERLPBoost's (w' = eta w, unnormalized) and ``P_S = Delta(d*, d0) = eta (P_E -
  gamma*)``.
* :func:`check_identity_repeated_rows` -- row I7: integer sample weights s on N rows are the
  N' = sum(s) rows repeated s_n times, with nu' = nu sum(s) / N and a uniform prior: the copies
  of row n carry d_n / s_n each, and the relative entropy to 1/N', the caps 1/nu' and every edge
  of the repeated problem are those of the weighted one (prior s / sum s, caps
  s_n N / (nu sum s); docs/theory.md "Sample weights").
* :func:`check_identity_unnormalized` -- row I2: Delta_U(d, d0) = Delta(d, d0) - sum d + sum d0
  (thesis (3.18), (3.21)) vanishes against Delta on the simplex, so (3.6) with either has the same
  value and the same d.
"""

from __future__ import annotations

import sympy as sp

from .result import CheckResult, Comparisons, summarize_methods

__all__ = ["check_identity_erlpboost_softboost", "check_identity_repeated_rows",
           "check_identity_unnormalized"]


def _unknown(mistake: str | None, allowed: tuple[str, ...]) -> None:
    if mistake is not None and mistake not in allowed:
        raise ValueError(f"unknown mistake {mistake!r}; choose from {allowed}")


def check_identity_erlpboost_softboost(mistake: str | None = None) -> CheckResult:
    """Row I6 (module docstring). Mistakes: ``"w_unscaled"`` (w' = w), ``"no_shift"`` (P_S =
    eta P_E)."""
    _unknown(mistake, ("w_unscaled", "no_shift"))
    name = "identity_erlpboost_softboost"
    reference = "thesis (3.6), (3.12) vs (3.1), (3.3); docs/formulations.md I6"
    N, t = 3, 2
    eta, nu, gamma, beta = sp.symbols("eta nu gamma beta", positive=True)
    d = sp.symbols(f"d1:{N + 1}", positive=True)
    d0 = sp.symbols(f"p1:{N + 1}", positive=True)
    psi = sp.symbols(f"psi1:{N + 1}", nonnegative=True)
    w = sp.symbols(f"w1:{t + 1}", nonnegative=True)
    U = sp.Matrix(N, t, lambda n, q: sp.Symbol(f"u{n + 1}{q + 1}", real=True))
    edges = [sum(U[n, q] * d[n] for n in range(N)) for q in range(t)]
    delta = sum(d[n] * sp.log(d[n] / d0[n]) for n in range(N))
    caps = sum(psi[n] * (d[n] - 1 / nu) for n in range(N))
    normalization = beta * (sum(d) - 1)
    # ERLPBoost's Lagrangian (3.12) and SoftBoost's (3.3) at c = gamma
    erlp = gamma + delta / eta + sum(w[q] * (edges[q] - gamma) for q in range(t)) + caps \
        + normalization
    scale = 1 if mistake == "w_unscaled" else eta
    soft = delta + sum(scale * w[q] * (edges[q] - gamma) for q in range(t)) \
        + eta * caps + eta * normalization
    # on the simplex of w (stationarity of (3.12) in gamma): w_t = 1 - sum of the others
    on_simplex = {w[-1]: 1 - sum(w[:-1])}
    domains = {s: (sp.Rational(1, 10), 2) for s in (eta, nu, gamma, beta, *d, *d0)}
    domains.update({s: (0, 1) for s in (*psi, *w)})
    domains.update({s: (-1, 1) for s in U})
    compare = Comparisons(domains)
    compare("eta (L_E - gamma*) = L_S(eta w, eta psi, eta beta)",
            sp.expand((eta * (erlp - gamma)).xreplace(on_simplex)),
            sp.expand(soft.xreplace(on_simplex)))
    # hence the d-stationarity rows coincide, row by row
    for n in range(N):
        compare(f"d_{n + 1} stationarity", sp.diff(eta * erlp, d[n]).xreplace(on_simplex),
                sp.diff(soft, d[n]).xreplace(on_simplex))
    # the value map at the common optimum (the max edge is gamma*): P_E = gamma* + Delta/eta
    p_erlp = gamma + delta / eta
    p_soft = delta
    mapped = eta * p_erlp if mistake == "no_shift" else eta * (p_erlp - gamma)
    compare("P_S = eta (P_E - gamma*)", mapped, p_soft)
    ok = not compare.failures
    return CheckResult(name, reference, ok, "; ".join(compare.failures) if not ok else
                       summarize_methods(compare.methods))


def check_identity_repeated_rows(mistake: str | None = None) -> CheckResult:
    """Row I7 (module docstring). Mistakes: ``"nu_unscaled"`` (nu' = nu), ``"copies_not_split"``
    (each copy of row n carries d_n)."""
    _unknown(mistake, ("nu_unscaled", "copies_not_split"))
    name = "identity_repeated_rows"
    reference = "thesis (3.6), (2.3); docs/theory.md 'Sample weights'; docs/formulations.md I7"
    s = (1, 2, 3)  # integer weights
    N, total = len(s), sum(s)
    nu = sp.Symbol("nu", positive=True)
    d = sp.symbols(f"d1:{N + 1}", positive=True)
    u = sp.symbols(f"u1:{N + 1}", real=True)
    split = [1 if mistake == "copies_not_split" else k for k in s]
    copies = [(n, d[n] / split[n]) for n in range(N) for _ in range(s[n])]
    nu_repeated = nu if mistake == "nu_unscaled" else nu * total / N
    domains = {nu: (1, 2), **{x: (sp.Rational(1, 20), sp.Rational(1, 3)) for x in d},
               **{x: (-1, 1) for x in u}}
    compare = Comparisons(domains)
    on_simplex = {d[-1]: 1 - sum(d[:-1])}
    # the repeated rows' relative entropy to the uniform 1/N' is Delta(d, s / sum s)
    repeated_entropy = sum(x * sp.log(x * total) for _, x in copies)
    weighted_entropy = sum(d[n] * sp.log(d[n] * total / s[n]) for n in range(N))
    compare("Delta(copies, 1/N') = Delta(d, s/sum s)", repeated_entropy.xreplace(on_simplex),
            weighted_entropy.xreplace(on_simplex))
    compare("sum of the copies = sum d", sum(x for _, x in copies), sum(d))
    compare("edge of the copies = edge of d", sum(u[n] * x for n, x in copies),
            sum(u[n] * d[n] for n in range(N)))
    # the cap of a copy, d_n / s_n <= 1/nu', is the weighted cap d_n <= s_n N / (nu sum s)
    for n in range(N):
        compare(f"cap of row {n + 1}", s[n] / nu_repeated, s[n] * N / (nu * total))
    ok = not compare.failures
    return CheckResult(name, reference, ok, "; ".join(compare.failures) if not ok else
                       summarize_methods(compare.methods))


def check_identity_unnormalized(mistake: str | None = None) -> CheckResult:
    """Row I2 (module docstring). Mistake: ``"prior_unnormalized"`` (sum d0 != 1)."""
    _unknown(mistake, ("prior_unnormalized",))
    name = "identity_unnormalized"
    reference = "thesis (3.18), (3.21) vs (3.6); docs/formulations.md I2"
    N = 3
    d = sp.symbols(f"d1:{N + 1}", positive=True)
    p = sp.symbols(f"p1:{N + 1}", positive=True)
    prior = list(p[:-1]) + [(2 if mistake == "prior_unnormalized" else 1) - sum(p[:-1])]
    point = list(d[:-1]) + [1 - sum(d[:-1])]
    relative = sum(x * sp.log(x / q) for x, q in zip(point, prior))
    unnormalized = sum(x * sp.log(x / q) - x + q for x, q in zip(point, prior))
    domains = {x: (sp.Rational(1, 20), sp.Rational(1, 3)) for x in (*d, *p)}
    compare = Comparisons(domains)
    compare("Delta_U = Delta on the simplex", unnormalized, relative)
    ok = not compare.failures
    return CheckResult(name, reference, ok, "; ".join(compare.failures) if not ok else
                       summarize_methods(compare.methods))
