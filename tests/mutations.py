"""Deliberately wrong (and a few deliberately equivalent) variants of the shipped formulation files.

A data module for tests/test_mutations.py (not collected by pytest). Each :class:`Mutation` names a
file in ``formulations/``, an exact piece of its text that must occur there exactly once, its
replacement, what the change does to the math, and what ``python -m dualboost.verify`` must say:

* ``"fail"``: the variant changes the math (a sign slip, a wrong conjugate, a wrong cap, a wrong
  constant, a wrong fast path ...); the verifier must exit non-zero with at least one
  *formulation* check (catalogue ids D*, K*, C*, F*, R*, T*, E11, L*, G1, S*; docs/theory.md)
  failing, not merely a solver that gave up.
* ``"pass"``: the variant is the same math written differently (reordered terms, an equivalent
  expression, renamed locals, a valid but weaker declared constant); the verifier must pass it.

Equation numbers are the thesis's (seed 000): LPBoost (2.2)/(2.3); ERLPBoost (3.6), (3.10),
(3.11), (3.13), (3.14), (3.16).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutation:
    id: str
    source: str  # file name in formulations/
    old: str  # exact text, must occur exactly once in the source
    new: str
    description: str
    expected: str  # "fail" | "pass"
    #: a math-changing variant the verifier does not catch yet: why (the test is a strict xfail,
    #: so it turns red the day the verifier catches it and the marker must go)
    known_miss: str | None = None


def _m(id, source, old, new, description, expected="fail", known_miss=None):
    assert expected in ("fail", "pass"), expected
    return Mutation(id, source, old, new, description, expected, known_miss)


LP = "lpboost.py"
ER = "erlpboost.py"
FAST_PATHS = ("    # -- fast paths -----------------------------------------------------------"
              "---------------\n")

LPBOOST = [
    # -- the hand-assembled KKT system (check K3) -----------------------------------------------
    _m("lp_kkt_gradient_ones", LP,
       "return soft_margin_system(U, d, np.zeros(self.N), self.nu,",
       "return soft_margin_system(U, d, np.ones(self.N), self.nu,",
       "kkt_system: objective gradient 1 in d (the LP's is 0)"),
    _m("lp_kkt_no_caps", LP,
       "np.zeros(self.N), self.nu, self.has_caps,", "np.zeros(self.N), self.nu, False,",
       "kkt_system without the cap block psi"),
    # -- min/max and signs in the models ---------------------------------------------------
    _m("lp_dual_objective_sign", LP,
       "cp.Maximize(-beta - penalty)", "cp.Maximize(beta - penalty)",
       "dual (2.2) objective +beta instead of -beta (the soft margin is -beta)"),
    _m("lp_dual_minimize", LP,
       "cp.Maximize(-beta - penalty)", "cp.Minimize(-beta - penalty)",
       "dual (2.2) minimized instead of maximized"),
    _m("lp_primal_maximize", LP,
       "cp.Minimize(gamma)", "cp.Maximize(gamma)",
       "primal (2.3) maximized instead of minimized"),
    _m("lp_dual_edge_sign", LP,
       "[U @ w + slack + beta >= 0,", "[-(U @ w) + slack + beta >= 0,",
       "edge term of the dual constraint U w + psi + beta >= 0 with the wrong sign"),
    _m("lp_primal_edge_sign", LP,
       '{"w": U.T @ d <= gamma}', '{"w": -(U.T @ d) <= gamma}',
       "primal edge constraints -U^T d <= gamma (sign slip in the edge term)"),
    _m("lp_dual_drops_psi_slack", LP,
       "slack, penalty = psi, cp.sum(cp.multiply(self.cap, psi))",
       "slack, penalty = 0, cp.sum(cp.multiply(self.cap, psi))",
       "psi dropped from the dual constraint (the dual becomes the hard margin)"),
    _m("lp_dual_drops_psi_penalty", LP,
       "slack, penalty = psi, cp.sum(cp.multiply(self.cap, psi))", "slack, penalty = psi, 0",
       "the -sum(psi)/nu term dropped from the dual objective"),
    # -- caps: 1/nu replaced in one place ---------------------------------------------------
    _m("lp_primal_cap_nu_plus_1", LP,
       'constraints["psi"] = d <= self.cap',
       'constraints["psi"] = d <= self.cap * self.nu / (self.nu + 1)',
       "primal caps d <= 1/(nu+1) (dual keeps 1/nu)"),
    _m("lp_primal_cap_nu_over_N", LP,
       'constraints["psi"] = d <= self.cap', 'constraints["psi"] = d <= self.nu / self.N',
       "primal caps d <= nu/N (nu read as a fraction)"),
    _m("lp_dual_cap_nu_plus_1", LP,
       "slack, penalty = psi, cp.sum(cp.multiply(self.cap, psi))",
       "slack, penalty = psi, cp.sum(cp.multiply(self.cap, psi)) * self.nu / (self.nu + 1)",
       "dual penalty sum(psi)/(nu+1) (primal keeps 1/nu)"),
    _m("lp_primal_objective_cap", LP,
       "np.any(d > self.cap + 1e-7)", "np.any(d > self.cap * self.nu / (self.nu + 1) + 1e-7)",
       "primal_objective's feasibility test uses the cap 1/(nu+1)"),
    # -- numpy primal objective ----------------------------------------------------------------
    _m("lp_primal_objective_min_edge", LP,
       "return float((U.T @ d).max()) if", "return float((U.T @ d).min()) if",
       "primal_objective: min of the edges instead of max"),
    # -- fast dual objective ------------------------------------------------------------------
    _m("lp_fast_dual_cap", LP,
       "return float(-beta - np.sum(self.cap * psi))",
       "return float(-beta - np.sum(self.cap * psi) * self.nu / (self.nu + 1))",
       "fast dual_objective: penalty sum(psi)/(nu+1)"),
    _m("lp_fast_dual_beta_max", LP,
       "beta = -slack_margins.min()", "beta = -slack_margins.max()",
       "fast dual_objective: optimal beta from the max instead of the min of U w + psi"),
    _m("lp_fast_dual_psi_sign", LP,
       "slack_margins = U @ w + psi", "slack_margins = U @ w - psi",
       "fast dual_objective: U w - psi (sign slip in psi)"),
    _m("lp_fast_dual_objective_sign", LP,
       "return float(-beta - np.sum(self.cap * psi))",
       "return float(beta - np.sum(self.cap * psi))",
       "fast dual_objective: +beta"),
    # -- best response ----------------------------------------------------------------------
    _m("lp_best_response_psi_cap", LP,
       "lp_slacks(margins, self.nu, self.cap_vector) if",
       "lp_slacks(margins, self.nu + 1, self.cap_vector) if",
       "best_response: psi for nu+1 (the slacks of the wrong soft margin)"),
    _m("lp_best_response_d_cap", LP,
       "d = capped_simplex_minimizer(margins, self.nu, self.cap_vector)",
       "d = capped_simplex_minimizer(margins, self.nu + 1, self.cap_vector)",
       "best_response: d on the simplex capped at 1/(nu+1)", "fail"),
    _m("lp_best_response_beta_max", LP,
       "beta = -float((margins + psi).min())", "beta = -float((margins + psi).max())",
       "best_response: beta from the max instead of the min", "fail"),
    _m("lp_best_response_margin_sign", LP,
       "margins = U @ w\n", "margins = -(U @ w)\n",
       "best_response: margins -U w (sign slip in the edge term)"),
    # -- math-preserving rewrites --------------------------------------------------------------
    _m("lp_ok_reordered_constraints", LP,
       "[U @ w + slack + beta >= 0, cp.sum(w) == 1]", "[cp.sum(w) == 1, beta + slack + U @ w >= 0]",
       "dual constraints reordered, terms reordered", "pass"),
    _m("lp_ok_objective_negated_sum", LP,
       "cp.Maximize(-beta - penalty)", "cp.Maximize(-(penalty + beta))",
       "dual objective written as -(penalty + beta)", "pass"),
    _m("lp_ok_primal_objective_np_max", LP,
       "return float((U.T @ d).max()) if", "return float(np.max(d @ U)) if",
       "primal_objective as np.max(d @ U)", "pass"),
    _m("lp_ok_renamed_locals", LP,
       "        slack_margins = U @ w + psi\n"
       "        beta = point.get(\"beta\")\n"
       "        if beta is None:\n"
       "            beta = -slack_margins.min()\n"
       "        elif (slack_margins + beta).min() < -1e-9 * (1 + abs(beta)):\n",
       "        shifted = psi + U @ w\n"
       "        beta = point.get(\"beta\")\n"
       "        if beta is None:\n"
       "            beta = -np.min(shifted)\n"
       "        elif np.min(shifted + beta) < -1e-9 * (1 + abs(beta)):\n",
       "fast dual_objective with renamed locals and np.min", "pass"),
]

ERLPBOOST = [
    # -- hand-written gradient and values used by the fast master and the run's KKT check -------
    _m("er_regularizer_gradient_no_one", ER,
       "return 1.0 + np.log(d / self.d0)", "return np.log(d / self.d0)",
       "regularizer_gradient: ln(d/d0) without the 1 of grad sum d ln(d/d0)"),
    _m("er_regularizer_gradient_no_d0", ER,
       "return 1.0 + np.log(d / self.d0)", "return 1.0 + np.log(d)",
       "regularizer_gradient: d0 forgotten (visible for non-uniform d0)"),
    _m("er_best_response_theta_penalty", ER,
       "penalty = float(np.sum(self.cap * psi)) if",
       "penalty = float(np.sum(self.cap * psi)) * self.nu ** 2 if",
       "best_response: Theta with the cap penalty sum(psi) nu instead of sum(psi)/nu"),
    _m("er_best_response_theta_beta_sign", ER,
       "dual = -conjugate / self.eta - beta - penalty",
       "dual = -conjugate / self.eta + beta - penalty",
       "best_response: Theta with +beta (3.14)"),
    _m("er_best_response_primal_no_eta", ER,
       "float(edges.max()) + float(d @ (proj.log_d - log_d0)) / self.eta",
       "float(edges.max()) + float(d @ (proj.log_d - log_d0))",
       "best_response: P(d) with R(d) instead of R(d)/eta (3.6)"),
    # -- wrong conjugate (the cvxpy R*) --------------------------------------------------------
    _m("er_conjugate_exp_y", ER,
       "return self.d0 @ cp.exp(y - 1)", "return self.d0 @ cp.exp(y)",
       "conjugate exp(y) instead of exp(y - 1) (thesis (3.14))"),
    _m("er_conjugate_no_d0", ER,
       "return self.d0 @ cp.exp(y - 1)", "return cp.sum(cp.exp(y - 1))",
       "conjugate without the d0 weights"),
    _m("er_conjugate_scale", ER,
       "return self.d0 @ cp.exp(y - 1)", "return 2 * (self.d0 @ cp.exp(y - 1))",
       "conjugate scaled by 2"),
    _m("er_conjugate_sign", ER,
       "return self.d0 @ cp.exp(y - 1)", "return self.d0 @ cp.exp(-y - 1)",
       "conjugate exp(-y - 1) (sign slip in the dual objective's argument)"),
    # -- wrong regularizer (the cvxpy R) -------------------------------------------------------
    _m("er_regularizer_d0_sign", ER,
       "return -cp.sum(cp.entr(d)) - np.log(self.d0) @ d",
       "return -cp.sum(cp.entr(d)) + np.log(self.d0) @ d",
       "regularizer sum d ln(d d0) (sign slip on ln d0): R(d0) != 0"),
    _m("er_regularizer_scale", ER,
       "return -cp.sum(cp.entr(d)) - np.log(self.d0) @ d",
       "return 2 * (-cp.sum(cp.entr(d)) - np.log(self.d0) @ d)",
       "regularizer doubled in the primal only (conjugate unchanged)"),
    # -- numpy fast paths -----------------------------------------------------------------------
    _m("er_fast_regularizer_no_d0", ER,
       "rel_entr(np.clip(d, 0.0, None), self.d0)", "rel_entr(np.clip(d, 0.0, None), 1.0)",
       "fast regularizer_value: sum d ln d (d0 missing)"),
    _m("er_fast_regularizer_uniform", ER,
       "rel_entr(np.clip(d, 0.0, None), self.d0)",
       "rel_entr(np.clip(d, 0.0, None), 1.0 / self.N)",
       "fast regularizer_value ignores d0 (uniform used): wrong for a non-uniform d0"),
    _m("er_fast_conjugate_exp_y", ER,
       "logsumexp(y - 1, b=self.d0)", "logsumexp(y, b=self.d0)",
       "fast conjugate_value exp(y) instead of exp(y - 1)"),
    _m("er_fast_conjugate_uniform", ER,
       "logsumexp(y - 1, b=self.d0)", "logsumexp(y - 1) - np.log(self.N)",
       "fast conjugate_value ignores d0 (uniform used)"),
    _m("er_gradient_exp_y", ER,
       "return self.d0 * np.exp(y - 1)", "return self.d0 * np.exp(y)",
       "conjugate_gradient (the map (3.13)) exp(y) instead of exp(y - 1)"),
    _m("er_gradient_sign", ER,
       "return self.d0 * np.exp(y - 1)", "return self.d0 * np.exp(-y - 1)",
       "conjugate_gradient exp(-y - 1)"),
    _m("er_gradient_uniform", ER,
       "return self.d0 * np.exp(y - 1)", "return np.exp(y - 1) / self.N",
       "conjugate_gradient ignores d0 (uniform used)"),
    # -- optimal beta (3.16) --------------------------------------------------------------------
    _m("er_beta_constant_sign", ER,
       "return float((-1.0 + logsumexp(", "return float((1.0 + logsumexp(",
       "optimal_beta (3.16) with +1/eta instead of -1/eta"),
    _m("er_beta_exponent_sign", ER,
       "logsumexp(-self.eta * s, b=self.d0)", "logsumexp(self.eta * s, b=self.d0)",
       "optimal_beta (3.16) with exp(+eta (U w + psi))"),
    _m("er_beta_ignores_psi", ER,
       "s = self._slack_margins(self.check_columns(U), point)\n        return float(",
       "s = self.check_columns(U) @ np.asarray(point[\"w\"], dtype=float)\n        return float(",
       "optimal_beta (3.16) from U w alone (psi dropped)"),
    _m("er_beta_uniform", ER,
       "logsumexp(-self.eta * s, b=self.d0)",
       "logsumexp(-self.eta * s, b=np.full(self.N, 1.0 / self.N))",
       "optimal_beta (3.16) ignores d0 (uniform used)"),
    # -- d_from_dual override ---------------------------------------------------------------------
    _m("er_d_from_dual_ignores_psi", ER,
       "    def optimal_beta(self, U, point):\n",
       "    def d_from_dual(self, U, point):\n"
       "        beta = point.get(\"beta\")\n"
       "        if beta is None:\n"
       "            beta = self.optimal_beta(U, point)\n"
       "        w = np.asarray(point[\"w\"], dtype=float)\n"
       "        return self.conjugate_gradient(-self.eta * (self.check_columns(U) @ w + beta))\n"
       "\n"
       "    def optimal_beta(self, U, point):\n",
       "a hand-written d_from_dual (3.11) that drops psi"),
    # -- declared constants -----------------------------------------------------------------------
    _m("er_modulus_2", ER,
       "    def modulus(self):\n        return 1.0", "    def modulus(self):\n        return 2.0",
       "modulus sigma = 2 (Pinsker gives 1, tight on two-coordinate moves)"),
    _m("er_range_bound_half", ER,
       "return math.log(1.0 / (self.nu * float(np.min(self.d0))))",
       "return 0.5 * math.log(1.0 / (self.nu * float(np.min(self.d0))))",
       "range bound B = ln(N/nu)/2 (attained value ln(N/nu) at a vertex of the capped simplex)"),
    _m("er_range_bound_nu_plus_1", ER,
       "(self.nu * float(np.min(self.d0)))", "((self.nu + 1) * float(np.min(self.d0)))",
       "range bound ln(N/(nu+1))"),
    _m("er_range_bound_max_d0", ER,
       "float(np.min(self.d0))", "float(np.max(self.d0))",
       "range bound with max d0 instead of min d0 (equal for a uniform d0)"),
    # -- an eta / iteration bound stated by the class (R3 compares it with dualboost.theory) ---
    _m("er_stated_eta_missing_factor_2", ER, FAST_PATHS,
       "    def default_eta(self, eps):\n"
       "        return max(self.range_bound() / eps, 0.5)\n\n" + FAST_PATHS,
       "a stated default_eta B/eps instead of T1's max(2B/eps, sigma/2)"),
    _m("er_stated_bound_hardcoded_log", ER, FAST_PATHS,
       "    def iteration_bound(self, stopping=\"simple\"):\n"
       "        factor = 32.0 if stopping == \"simple\" else 64.0\n"
       "        return factor * math.log(self.N / self.nu) / self.eps ** 2\n\n" + FAST_PATHS,
       "a stated iteration bound 32 ln(N/nu)/eps^2 (Thm 3.10 for a uniform d0 only; B is "
       "ln(1/(nu min d0)))"),
    _m("er_stated_bound_half", ER, FAST_PATHS,
       "    def iteration_bound(self, stopping=\"simple\"):\n"
       "        factor = 8.0 if stopping == \"simple\" else 16.0\n"
       "        return factor * self.eta / (self.modulus() * self.eps)\n\n" + FAST_PATHS,
       "a stated iteration bound 8 eta/(sigma eps) (T4 says 16, 32 for the practical rule)"),
    # -- best response --------------------------------------------------------------------------
    _m("er_best_response_psi_log_scale_sign", ER,
       "shift = np.log(self.nu) + proj.log_scale",
       "shift = np.log(self.nu) - proj.log_scale",
       "best_response: psi with -log_scale"),
    _m("er_best_response_psi_everywhere_unclipped", ER,
       "            psi_capped = np.maximum((shift + log_a.take(capped)) / self.eta, 0.0)\n"
       "            psi.put(capped, psi_capped)\n",
       "            psi = (np.log(1.0 / self.cap) + proj.log_scale + log_a) / self.eta\n"
       "            psi_capped = psi.take(capped)\n",
       "best_response: psi formula applied to every example and not clipped at 0"),
    _m("er_best_response_beta_sign", ER,
       "beta = (-1.0 - proj.log_scale) / self.eta", "beta = (-1.0 + proj.log_scale) / self.eta",
       "best_response: beta with +log_scale", "fail"),
    _m("er_best_response_eta_sign", ER,
       "np.multiply(log_a, -self.eta, out=log_a)",
       "np.multiply(log_a, self.eta, out=log_a)",
       "best_response: d0 exp(+eta U w) (sign slip in the edge term)"),
    _m("er_best_response_cap", ER,
       "capped_entropic_projection(log_a, self.nu if",
       "capped_entropic_projection(log_a, self.nu + 1 if",
       "best_response: projection onto the simplex capped at 1/(nu+1)"),
    _m("er_best_response_psi_cap", ER,
       "shift = np.log(self.nu) + proj.log_scale",
       "shift = np.log(self.nu + 1) + proj.log_scale",
       "best_response: psi with ln(nu+1)"),
    _m("er_best_response_uniform", ER,
       "        log_a += log_d0\n",
       "        log_a -= np.log(self.N)\n",
       "best_response ignores d0 (uniform used)"),
    # -- math-preserving rewrites --------------------------------------------------------------
    _m("er_ok_rel_entr", ER,
       "return -cp.sum(cp.entr(d)) - np.log(self.d0) @ d", "return cp.sum(cp.rel_entr(d, self.d0))",
       "regularizer as cp.sum(cp.rel_entr(d, d0)) (the same function)", "pass"),
    _m("er_ok_reordered_regularizer", ER,
       "return -cp.sum(cp.entr(d)) - np.log(self.d0) @ d",
       "return -(np.log(self.d0) @ d) - cp.sum(cp.entr(d))",
       "regularizer terms reordered", "pass"),
    _m("er_ok_conjugate_factored", ER,
       "return self.d0 @ cp.exp(y - 1)",
       "return math.exp(-1.0) * cp.sum(cp.multiply(self.d0, cp.exp(y)))",
       "conjugate as e^-1 sum d0 exp(y)", "pass"),
    _m("er_ok_gradient_log", ER,
       "return self.d0 * np.exp(y - 1)", "return np.exp(y - 1.0 + np.log(self.d0))",
       "conjugate_gradient as exp(y - 1 + ln d0)", "pass"),
    _m("er_ok_beta_renamed", ER,
       "s = self._slack_margins(self.check_columns(U), point)\n"
       "        return float((-1.0 + logsumexp(-self.eta * s, b=self.d0)) / self.eta)",
       "slack_margins = self._slack_margins(self.check_columns(U), point)\n"
       "        log_mass = logsumexp(-self.eta * slack_margins, b=self.d0)\n"
       "        return float(log_mass / self.eta - 1.0 / self.eta)",
       "optimal_beta (3.16) with renamed locals, the division distributed", "pass"),
    _m("er_ok_psi_everywhere_clipped", ER,
       "            psi_capped = np.maximum((shift + log_a.take(capped)) / self.eta, 0.0)\n"
       "            psi.put(capped, psi_capped)\n",
       "            psi = np.maximum((np.log(1.0 / self.cap) + proj.log_scale + log_a) / self.eta,"
       " 0.0)\n            psi_capped = psi.take(capped)\n",
       "best_response: the psi formula on every example, clipped at 0 (negative exactly off the "
       "capped set)", "pass"),
    _m("er_ok_d_from_dual_override", ER,
       "    def optimal_beta(self, U, point):\n",
       "    def d_from_dual(self, U, point):\n"
       "        beta = point.get(\"beta\")\n"
       "        if beta is None:\n"
       "            beta = self.optimal_beta(U, point)\n"
       "        s = self._slack_margins(self.check_columns(U), point)\n"
       "        return self.d0 * np.exp(-self.eta * (s + beta) - 1.0)\n"
       "\n"
       "    def optimal_beta(self, U, point):\n",
       "a hand-written d_from_dual, (3.13) written out", "pass"),
    _m("er_ok_stated_eta_and_bound", ER, FAST_PATHS,
       "    def default_eta(self, eps):\n"
       "        return max(2.0 * self.range_bound() / eps, self.modulus() / 2.0)\n\n"
       "    def iteration_bound(self, stopping=\"simple\"):\n"
       "        factor = 16.0 if stopping == \"simple\" else 32.0\n"
       "        return factor * self.eta / (self.modulus() * self.eps)\n\n" + FAST_PATHS,
       "default_eta (T1) and iteration_bound (T4) stated correctly", "pass"),
    _m("er_ok_weaker_modulus", ER,
       "    def modulus(self):\n        return 1.0", "    def modulus(self):\n        return 0.5",
       "modulus sigma = 1/2: true (weaker than Pinsker), eta and every bound stay valid", "pass"),
]

BI = "binary_erlpboost.py"
L2 = "erlpboost_l2.py"
TS = "erlpboost_tsallis.py"
UN = "erlpboost_unnormalized.py"

BINARY = [
    _m("bi_regularizer_gradient_sign", BI,
       "return np.log(d / self.d0) - np.log((c - d) / (c - self.d0))",
       "return np.log(d / self.d0) + np.log((c - d) / (c - self.d0))",
       "regularizer_gradient: + for the complement term of (3.25)"),
    _m("bi_conjugate_no_constant", BI,
       "cp.sum(np.log1p(-a) + cp.logistic(logit(a) + y)) / self.nu",
       "cp.sum(cp.logistic(logit(a) + y)) / self.nu",
       "binary conjugate (3.26) without its ln(1 - nu d0) term (R* too large by a constant)"),
    _m("bi_conjugate_no_one_over_nu", BI,
       "cp.sum(np.log1p(-a) + cp.logistic(logit(a) + y)) / self.nu",
       "cp.sum(np.log1p(-a) + cp.logistic(logit(a) + y))",
       "binary conjugate without the 1/nu factor"),
    _m("bi_regularizer_no_complement", BI,
       "\n                - cp.sum(cp.entr(c - d)) - np.log(c - self.d0) @ (c - d))",
       ")",
       "binary regularizer (3.25) without the complement sum (plain relative entropy)"),
    _m("bi_regularizer_complement_sign", BI,
       "- np.log(c - self.d0) @ (c - d))", "+ np.log(c - self.d0) @ (c - d))",
       "binary regularizer: sign slip on ln(1/nu - d0): R(d0) != 0"),
    _m("bi_gradient_no_one_over_nu", BI,
       "return expit(self._d0_terms()[1] + y) / self.nu",
       "return expit(self._d0_terms()[1] + y)",
       "binary conjugate_gradient (3.27) without the 1/nu scale"),
    _m("bi_gradient_sign", BI,
       "return expit(self._d0_terms()[1] + y) / self.nu",
       "return expit(self._d0_terms()[1] - y) / self.nu",
       "binary conjugate_gradient with sigmoid(logit(nu d0) - y)"),
    _m("bi_fast_conjugate_no_constant", BI,
       "np.sum(log1p_minus_a + np.logaddexp(0.0, logit_a + y))",
       "np.sum(np.logaddexp(0.0, logit_a + y))",
       "binary fast conjugate_value without ln(1 - nu d0)"),
    _m("bi_fast_regularizer_no_complement", BI,
       "rel_entr(d, self.d0).sum() + rel_entr(c - d, c - self.d0).sum()",
       "rel_entr(d, self.d0).sum()",
       "binary fast regularizer_value without the complement sum"),
    _m("bi_range_bound_printed_thm_3_23", BI,
       "return math.log(1.0 / (self.nu * float(np.min(self.d0)))) + max(1.0, complement)",
       "return math.log(1.0 / (self.nu * float(np.min(self.d0))))",
       "binary range bound ln(N/nu) (the printed Thm 3.23; the +1 is missing)"),
    _m("bi_modulus_4", BI,
       "    def modulus(self):\n        return 1.0", "    def modulus(self):\n        return 4.0",
       "binary modulus sigma = 4 (near d = (1/2, 1/2, 0, ...) at nu = 1 it is at most 2)"),
    _m("bi_stated_bound_printed_thm_3_21", BI,
       "    # -- KKT recovery",
       "    def iteration_bound(self, stopping=\"simple\"):\n"
       "        factor = 32.0 if stopping == \"simple\" else 64.0\n"
       "        return factor * math.log(self.N / self.nu) / self.eps ** 2\n\n"
       "    # -- KKT recovery",
       "binary: a stated iteration bound with ln(N/nu) where B = ln(N/nu) + 1 (Thms 3.21/3.23)"),
    _m("bi_ok_gradient_logistic", BI,
       "return expit(self._d0_terms()[1] + y) / self.nu",
       "a = self.nu * self.d0\n"
       "        return a / (a + (1.0 - a) * np.exp(-np.asarray(y, dtype=float))) / self.nu",
       "binary conjugate_gradient (3.27) written as a / (a + (1 - a) e^-y) / nu", "pass"),
]

L2_VARIANTS = [
    _m("l2_conjugate_no_pos", L2,
       "cp.sum_squares(cp.pos(self.d0 + y / self.N))", "cp.sum_squares(self.d0 + y / self.N)",
       "L2 conjugate taken over R^N instead of d >= 0 (no pos)"),
    _m("l2_conjugate_scale", L2,
       "return self.N / 2.0 * (cp.sum_squares(cp.pos(",
       "return self.N * (cp.sum_squares(cp.pos(",
       "L2 conjugate with N instead of N/2"),
    _m("l2_conjugate_y_scale", L2,
       "cp.pos(self.d0 + y / self.N)", "cp.pos(self.d0 + y)",
       "L2 conjugate with y instead of y/N"),
    _m("l2_regularizer_uniform", L2,
       "cp.sum_squares(d - self.d0)", "cp.sum_squares(d - 1.0 / self.N)",
       "L2 regularizer centred at the uniform d instead of d0"),
    _m("l2_modulus_N", L2,
       "    def modulus(self):\n        return 1.0",
       "    def modulus(self):\n        return float(self.N)",
       "L2 modulus sigma = N (true w.r.t. ||.||_2^2 scaled, not w.r.t. ||.||_1)"),
    _m("l2_range_bound_cap", L2,
       "return self.N / 2.0 * (1.0 / self.nu +", "return self.N / 2.0 * (1.0 / self.N +",
       "L2 range bound with 1/N in place of the cap 1/nu"),
    _m("l2_fast_gradient_no_clip", L2,
       "return np.maximum(self.d0 + np.asarray(y, dtype=float) / self.N, 0.0)",
       "return self.d0 + np.asarray(y, dtype=float) / self.N",
       "L2 conjugate_gradient not clipped at 0"),
    _m("l2_fast_regularizer_scale", L2,
       "return float(self.N / 2.0 * np.sum(", "return float(self.N * np.sum(",
       "L2 fast regularizer_value with N instead of N/2"),
    _m("l2_fast_conjugate_sign", L2,
       "- self.d0 @ self.d0))", "+ self.d0 @ self.d0))",
       "L2 fast conjugate_value: + ||d0||^2"),
    _m("l2_ok_reordered", L2,
       "return self.N / 2.0 * cp.sum_squares(d - self.d0)",
       "return cp.sum_squares(self.d0 - d) * (0.5 * self.N)",
       "L2 regularizer with the factor and the difference reordered", "pass"),
]

TSALLIS = [
    _m("ts_modulus_1", TS,
       "return self.q * self.nu ** (1 - self.q)", "return 1.0",
       "Tsallis modulus sigma = 1 (the true one is q nu^(1-q) < 1 at nu = 1)", "fail"),
    _m("ts_conjugate_exponent", TS,
       "cp.power(self._g(y), -q / (1 - q), approx=False)",
       "cp.power(self._g(y), -1 / (1 - q), approx=False)",
       "Tsallis conjugate with exponent -1/(1-q) instead of -q/(1-q)"),
    _m("ts_g_sign", TS,
       "return self._d0_powers()[0] - (1 - self.q) / self.q * y",
       "return self._d0_powers()[0] + (1 - self.q) / self.q * y",
       "Tsallis g(y) with +y (sign slip; every conjugate piece shares it)"),
    _m("ts_regularizer_no_constant", TS,
       "/ (1 - q) \\\n            + float(np.sum(self.d0 ** q))",
       "/ (1 - q)",
       "Tsallis regularizer without its constant: R(d0) != 0"),
    _m("ts_range_bound_max_d0", TS,
       "q * np.min(self.d0) ** (q - 1)", "q * np.max(self.d0) ** (q - 1)",
       "Tsallis range bound with max d0 (equal for a uniform d0)"),
    _m("ts_fast_beta_no_eta", TS,
       "return float((t - c.min()) * q / ((1 - q) * self.eta))",
       "return float((t - c.min()) * q / (1 - q))",
       "Tsallis fast optimal_beta without the 1/eta"),
    _m("ts_fast_gradient_exponent", TS,
       "return _power(g, -1 / (1 - self.q))", "return _power(g, -self.q / (1 - self.q))",
       "Tsallis conjugate_gradient with exponent -q/(1-q)"),
    _m("ts_ok_conjugate_value_power", TS,
       "np.sum(g * self.conjugate_gradient(y))",
       "np.sum(g ** (-self.q / (1 - self.q)))",
       "Tsallis fast conjugate_value as sum g^(-q/(1-q)) (= g times the gradient)", "pass"),
    _m("ts_ok_weaker_modulus", TS,
       "return self.q * self.nu ** (1 - self.q)", "return self.q",
       "Tsallis modulus q <= q nu^(1-q): true, weaker", "pass"),
]

UNNORMALIZED = [
    _m("un_beta_normalized", UN,
       "return float(logsumexp(-self.eta * s, b=self.d0) / self.eta)",
       "return float((-1.0 + logsumexp(-self.eta * s, b=self.d0)) / self.eta)",
       "unnormalized optimal beta with the normalized (3.16)'s -1/eta"),
    _m("un_conjugate_minus_1", UN,
       "return self.d0 @ cp.exp(y) - float(self.d0.sum())",
       "return self.d0 @ cp.exp(y - 1) - float(self.d0.sum())",
       "unnormalized conjugate exp(y - 1) (the normalized one's exponent)"),
    _m("un_conjugate_no_constant", UN,
       "return self.d0 @ cp.exp(y) - float(self.d0.sum())", "return self.d0 @ cp.exp(y)",
       "unnormalized conjugate without -sum(d0)"),
    _m("un_gradient_minus_1", UN,
       "return self.d0 * np.exp(y)", "return self.d0 * np.exp(y - 1)",
       "unnormalized conjugate_gradient (3.20) with exp(y - 1)"),
    _m("un_fast_conjugate_no_constant", UN,
       "return float(np.exp(logsumexp(y, b=self.d0)) - self.d0.sum())",
       "return float(np.exp(logsumexp(y, b=self.d0)))",
       "unnormalized fast conjugate_value without -sum(d0)"),
    _m("un_ok_beta_log_sum", UN,
       "return float(logsumexp(-self.eta * s, b=self.d0) / self.eta)",
       "return float(np.log(np.sum(self.d0 * np.exp(-self.eta * s))) / self.eta)",
       "unnormalized optimal beta as ln(sum d0 exp(-eta s)) / eta", "pass"),
]

SB = "softboost.py"

SOFTBOOST = [
    _m("sb_dual_no_plus_1", SB,
       "s = U @ w + beta + 1\n", "s = U @ w + beta\n",
       "SoftBoost dual (3.3)/(3.4) without the -1 in the exponent"),
    _m("sb_dual_bound_sign", SB,
       "- beta - bound * cp.sum(w) - penalty", "- beta + bound * cp.sum(w) - penalty",
       "SoftBoost dual with +c sum(w) (sign slip in the edge term)"),
    _m("sb_dual_normalized_w", SB,
       "Model(cp.Problem(cp.Maximize(objective)), variables",
       "Model(cp.Problem(cp.Maximize(objective), [cp.sum(w) == 1]), variables",
       "SoftBoost dual with sum(w) = 1 (the misprint of Lemma 3.1)"),
    _m("sb_dual_drops_psi", SB,
       "            s = s + psi\n", "",
       "SoftBoost dual: psi dropped from the exponent (only its -sum(psi)/nu penalty left)"),
    _m("sb_dual_cap", SB,
       "            penalty = cp.sum(psi) / self.nu\n",
       "            penalty = cp.sum(psi) / (self.nu + 1)\n",
       "SoftBoost dual penalty sum(psi)/(nu+1)"),
    _m("sb_primal_edge_bound_eps", SB,
       'constraints = {"w": U.T @ d <= bound}', 'constraints = {"w": U.T @ d <= bound + self.eps}',
       "SoftBoost primal (3.1) with the edge bound c + eps (the dual keeps c)"),
    _m("sb_primal_objective_uniform", SB,
       "return float(rel_entr(np.clip(d, 0.0, None), self.d0).sum())",
       "return float(rel_entr(np.clip(d, 0.0, None), 1.0 / self.N).sum())",
       "SoftBoost numpy primal objective ignores d0 (uniform used)"),
    _m("sb_optimal_beta_sign", SB,
       "return float(-1.0 + logsumexp(-s, b=self.d0))",
       "return float(1.0 + logsumexp(-s, b=self.d0))",
       "SoftBoost optimal beta with +1"),
    _m("sb_d_from_dual_no_minus_1", SB,
       "return self.d0 * np.exp(-s - float(beta) - 1.0)",
       "return self.d0 * np.exp(-s - float(beta))",
       "SoftBoost (3.4) d(w, psi, beta) without the -1"),
    _m("sb_fast_dual_no_bound", SB,
       "return float(-logsumexp(-s, b=self.d0) - self._bound() * w.sum() - self._penalty(point))",
       "return float(-logsumexp(-s, b=self.d0) - self._penalty(point))",
       "SoftBoost fast dual objective without -c sum(w)"),
    _m("sb_best_response_psi_sign", SB,
       "psi[proj.capped] = np.log(self.nu) + proj.log_scale + log_a[proj.capped]",
       "psi[proj.capped] = np.log(self.nu) - proj.log_scale + log_a[proj.capped]",
       "SoftBoost best_response: psi with -log_scale", "fail"),
    _m("sb_ok_reordered_dual", SB,
       "objective = -self.d0 @ cp.exp(-s) - beta - bound * cp.sum(w) - penalty",
       "objective = -(beta + penalty) - cp.sum(w) * bound "
       "- cp.sum(cp.multiply(self.d0, cp.exp(-s)))",
       "SoftBoost dual objective terms reordered", "pass"),
]

TB = "totalboost.py"

# The verifier's former blind spots (docs/theory.md P1, P2, W1, R2): a weighted path, a declared
# capability, a parameter schema, the modulus sigma, each wrong; and fresh slips in conjugates,
# closed forms and the prior d0.
BLIND_SPOTS = [
    # -- the weighted path (the weighted cases of quick, check W1 and the rows on them) ----------
    _m("w_er_projection_unweighted_caps", ER,
       "                                          cap=self.cap_vector,\n",
       "                                          cap=None,\n",
       "best_response: the capped projection with the caps 1/nu, not the weighted caps"),
    _m("w_er_psi_unweighted_caps", ER,
       "shift = (-np.log(self.cap_vector) + proj.log_scale).take(capped)",
       "shift = np.log(self.nu) + proj.log_scale",
       "best_response: psi from ln(nu), not ln(1/cap_n) of the weighted caps"),
    _m("w_er_penalty_unweighted", ER,
       "penalty = float(np.sum(self.cap * psi)) if",
       "penalty = float(np.sum(psi) / self.nu) if",
       "best_response: Theta's penalty sum(psi)/nu instead of caps . psi with weights"),
    _m("w_er_range_bound_weighted_half", ER,
       "return math.log(float(np.max(self.cap_vector / self.d0)))",
       "return 0.5 * math.log(float(np.max(self.cap_vector / self.d0)))",
       "weighted range bound halved (max ln(cap/d0) is attained)"),
    _m("w_lp_slacks_unweighted", LP,
       "lp_slacks(margins, self.nu, self.cap_vector) if",
       "lp_slacks(margins, self.nu, None) if",
       "LP best_response: psi of the unweighted soft margin (caught where nu sum(s)/N is not "
       "an integer: otherwise the caps sum to 1 exactly and the soft margin's rho is not "
       "unique)"),
    _m("w_lp_primal_caps_unweighted", LP,
       'constraints["psi"] = d <= self.cap', 'constraints["psi"] = d <= 1.0 / self.nu',
       "LP primal with the caps 1/nu, not the weighted caps (the dual keeps them)"),
    _m("w_lp_fast_dual_penalty_unweighted", LP,
       "return float(-beta - np.sum(self.cap * psi))",
       "return float(-beta - np.sum(psi) / self.nu)",
       "LP fast dual_objective: penalty sum(psi)/nu instead of caps . psi with weights"),
    # -- sample-weight support declared where the weighted problem is another one ----------------
    _m("w_l2_declares_support", L2,
       '    cones = ("soc",)\n', '    cones = ("soc",)\n    supports_sample_weight = True\n',
       "l2 declares sample_weight: its repeated rows aggregate to sum D^2/s, not R with a prior"),
    _m("w_ts_declares_support", TS,
       '    cones = ("pow",)\n', '    cones = ("pow",)\n    supports_sample_weight = True\n',
       "Tsallis declares sample_weight (its repeated rows give a weighted power sum)"),
    # -- declared capabilities (P2) -------------------------------------------------------------
    _m("cap_lp_strictly_convex", LP,
       "Capabilities(strictly_convex=False,", "Capabilities(strictly_convex=True,",
       "LPBoost declares a strictly convex primal (the LP's d is not unique)"),
    _m("cap_lp_lists_missing_fast_path", LP,
       'closed_forms=("dual_objective", "best_response"),',
       'closed_forms=("dual_objective", "best_response", "d_from_dual"),',
       "LPBoost lists a d_from_dual fast path it does not write"),
    _m("cap_l2_lists_missing_fast_path", L2,
       'fast_paths = ("regularizer_value",', 'fast_paths = ("best_response", "regularizer_value",',
       "l2 lists best_response as a fast path (the fast master would rest on the derived one)"),
    _m("cap_er_cones_lp", ER, 'cones = ("exp",)', 'cones = ()',
       "ERLPBoost declares no exponential cone (the solver policy would pick LP solvers)"),
    # -- parameter schema (P1) ---------------------------------------------------------------------
    _m("schema_ts_default_outside", TS,
       "default=0.5, low=0, high=1,", "default=1.5, low=0, high=1,",
       "Tsallis default q = 1.5 outside its range (0, 1): every case would be n/a"),
    _m("schema_tb_nu_overridden", TB,
       "    pinned = (fixed(NU, 1.0),)\n",
       "    pinned = (fixed(NU, 1.0),)\n\n    def _check(self):\n        self.nu = 2.0\n",
       "TotalBoost runs at nu = 2 although its schema pins nu = 1"),
    _m("schema_tb_nu_declared", TB,
       "    params = (EPS, D0, EDGE_BOUND)", "    params = (NU, EPS, D0, EDGE_BOUND)",
       "TotalBoost accepts nu (= 2, 3.5, ...) while pinned at 1"),
    # -- sigma overstated by 2%, B understated by 2% (R2, R1) ----------------------------------
    _m("sigma_er_102", ER,
       "    def modulus(self):\n        return 1.0", "    def modulus(self):\n        return 1.02",
       "relative entropy sigma = 1.02 (Pinsker's 1 is tight)"),
    _m("sigma_l2_102", L2,
       "    def modulus(self):\n        return 1.0", "    def modulus(self):\n        return 1.02",
       "l2 sigma = 1.02 (N ||v||_2^2 >= ||v||_1^2 is tight on balanced moves)"),
    _m("sigma_un_102", UN,
       "    def modulus(self):\n        return 1.0", "    def modulus(self):\n        return 1.02",
       "unnormalized relative entropy sigma = 1.02"),
    _m("range_er_098", ER,
       "return math.log(1.0 / (self.nu * float(np.min(self.d0))))",
       "return 0.98 * math.log(1.0 / (self.nu * float(np.min(self.d0))))",
       "relative entropy B understated by 2% (attained at a vertex for integer nu)"),
    _m("range_l2_098", L2,
       "return self.N / 2.0 * (1.0 / self.nu +", "return 0.98 * self.N / 2.0 * (1.0 / self.nu +",
       "l2 B understated by 2% (attained at a vertex for integer nu)"),
    # -- fresh slips: conjugate signs, closed-form constants, d0 handling --------------------------
    _m("fresh_un_conjugate_constant_sign", UN,
       "return self.d0 @ cp.exp(y) - float(self.d0.sum())",
       "return self.d0 @ cp.exp(y) + float(self.d0.sum())",
       "unnormalized conjugate + sum(d0) (sign slip in the constant)"),
    _m("fresh_l2_conjugate_y_sign", L2,
       "cp.pos(self.d0 + y / self.N)", "cp.pos(self.d0 - y / self.N)",
       "l2 conjugate (d0 - y/N)_+ (sign slip in the argument)"),
    _m("fresh_bi_gradient_uniform_d0", BI,
       "return expit(self._d0_terms()[1] + y) / self.nu",
       "return expit(logit(self.nu / self.N) + y) / self.nu",
       "binary conjugate_gradient (3.27) with the uniform prior in place of d0"),
    _m("fresh_ts_beta_constant", TS,
       "return float((t - c.min()) * q / ((1 - q) * self.eta))",
       "return float((t - c.min()) * (1 - q) / (q * self.eta))",
       "Tsallis optimal beta with q/(1-q) inverted (equal at the default q = 1/2: caught on the "
       "case that moves q off its default)"),
    _m("fresh_er_beta_eta_squared", ER,
       "return float((-1.0 + logsumexp(-self.eta * s, b=self.d0)) / self.eta)",
       "return float((-1.0 + logsumexp(-self.eta * s, b=self.d0)) / self.eta ** 2)",
       "optimal beta (3.16) divided by eta^2"),
    # -- equivalent rewrites ------------------------------------------------------------------
    _m("ok_er_no_sample_weight", ER,
       "    supports_sample_weight = True\n", "",
       "ERLPBoost without sample-weight support (weights refused, nothing else changes)", "pass"),
    _m("ok_un_declares_support", UN,
       '    cones = ("exp",)\n', '    cones = ("exp",)\n    supports_sample_weight = True\n',
       "unnormalized entropy declares sample_weight (its extra terms are linear: it aggregates "
       "like the relative entropy; docs/theory.md 'Sample weights')", "pass"),
    _m("ok_tb_class_attribute", TB,
       "    pinned = (fixed(NU, 1.0),)\n", "    pinned = (fixed(NU, 1.0),)\n    nu = 2.0\n",
       "a stray class attribute nu = 2 (the pin sets the instance's nu = 1)", "pass"),
    _m("ok_l2_weaker_sigma", L2,
       "    def modulus(self):\n        return 1.0", "    def modulus(self):\n        return 0.99",
       "l2 sigma = 0.99 (true, weaker)", "pass"),
    _m("ok_lp_unlisted_override", LP,
       'closed_forms=("dual_objective", "best_response"),', 'closed_forms=("best_response",),',
       "LPBoost lists one fast path less (the override is still compared by D3)", "pass"),
]


# -- seed 001's relaxation family (formulations/sss_*.py; catalogue F1-F10) ------------------------
S1, S2, S3 = "sss_hard_margin.py", "sss_soft_margin.py", "sss_topk.py"
S4, S5, S10 = "sss_norm_ball.py", "sss_norm_penalty.py", "sss_sq_norm_penalty.py"
S7, S8 = "sss_smoothed_hard.py", "sss_smoothed_soft.py"

SSS_FAMILY = [
    # F1: the hard l1 margin
    _m("sss1_dual_ball_radius_2", S1, "[U @ w + beta >= 0, cp.norm1(w) <= 1]",
       "[U @ w + beta >= 0, cp.norm1(w) <= 2]", "F1 dual: ||w||_1 <= 2 (the l1 ball doubled)"),
    _m("sss1_dual_margin_sign", S1, "[U @ w + beta >= 0,", "[-(U @ w) + beta >= 0,",
       "F1 dual: margins -U w (sign slip)"),
    _m("sss1_best_response_largest_margin", S1, "smallest = int(np.argmin(z))",
       "smallest = int(np.argmax(z))", "F1 best response at the largest margin (C4)"),
    _m("sss1_softmax_sign", S1, "return softmax(-np.asarray(z, dtype=float) / beta)",
       "return softmax(np.asarray(z, dtype=float) / beta)",
       "Figure 1 map softmax(+z/beta): weight on the best-classified examples (C6)"),
    _m("ok_sss1_scaled_objective", S1, "cp.Maximize(-beta)", "cp.Maximize(-1.0 * beta)",
       "F1 dual objective written -1.0 * beta", "pass"),
    # F2: the capped simplex / hinge soft margin
    _m("sss2_dual_penalty_times_nu", S2, "cp.Maximize(-beta - cp.sum(psi) / self.nu)",
       "cp.Maximize(-beta - cp.sum(psi) * self.nu)", "F2 dual: hinge cost nu instead of 1/nu"),
    _m("sss2_primal_cap_nu_plus_1", S2, 'return 0, {"psi": d <= 1.0 / self.nu}',
       'return 0, {"psi": d <= 1.0 / (self.nu + 1)}', "F2 primal: caps 1/(nu + 1)"),
    _m("sss2_value_drops_1_over_nu", S2, "value = gamma - float(psi.sum()) / self.nu",
       "value = gamma - float(psi.sum())", "F2 closed-form AvgMin without the 1/nu (C4)"),
    _m("sss2_projection_without_caps", S2,
       "capped_entropic_projection(-np.asarray(z, dtype=float) / beta, self.nu).d",
       "capped_entropic_projection(-np.asarray(z, dtype=float) / beta, 1.0).d",
       "Figure 1 map without the caps (softmax, not Eq. 14's projection) (C6)"),
    _m("sss2_relation_reversed", S2, "max(float(np.max(d * np.maximum(z - gamma, 0.0))),",
       "max(float(np.max(d * np.maximum(gamma - z, 0.0))),",
       "F2 relation stated backwards: weight above gamma* (C6)"),
    _m("ok_sss2_penalty_inside_sum", S2, "cp.Maximize(-beta - cp.sum(psi) / self.nu)",
       "cp.Maximize(-beta - cp.sum(psi / self.nu))", "F2 dual: 1/nu inside the sum", "pass"),
    # F3: top-k
    _m("sss3_dual_divides_by_k_plus_1", S3, "value = cp.sum_smallest(U @ w, self.k) / self.k",
       "value = cp.sum_smallest(U @ w, self.k) / (self.k + 1)", "F3 dual: AvgMin with 1/(k+1)"),
    _m("sss3_primal_cap_1_over_k_minus_1", S3, 'return 0, {"psi": d <= 1.0 / self.k}',
       'return 0, {"psi": d <= 1.0 / max(self.k - 1, 1)}', "F3 primal: caps 1/(k-1)"),
    _m("sss3_sum_not_mean", S3, "return float(smallest.mean()), {}",
       "return float(smallest.sum()), {}", "F3 closed form: the sum of the k smallest (C4)"),
    _m("ok_sss3_sum_largest", S3, "value = cp.sum_smallest(U @ w, self.k) / self.k",
       "value = -cp.sum_largest(-(U @ w), self.k) / self.k",
       "F3 dual via sum_largest of -U w", "pass"),
    # F4: the l_p ball
    _m("sss4_dual_norm_not_dual", S4,
       "cp.Maximize(-beta - self.radius * cvxpy_norm(psi, self.q_value))",
       "cp.Maximize(-beta - self.radius * cvxpy_norm(psi, 1.0))",
       "F4 dual: l1 norm of the hinges, not the dual norm q"),
    _m("sss4_dual_drops_hinge", S4, "[U @ w + psi + beta >= 0, cp.norm1(w) <= 1])",
       "[U @ w + beta >= 0, cp.norm1(w) <= 1])", "F4 dual: psi dropped from the margins"),
    _m("sss4_relaxed_value_p_norm", S4,
       "return gamma - self.radius * numpy_norm(np.maximum(gamma - z, 0.0), self.q_value)",
       "return gamma - self.radius * numpy_norm(np.maximum(gamma - z, 0.0), 1.0)",
       "F4 closed-form relaxed margin with the l1 norm (C4)"),
    _m("sss4_relation_map_unscaled", S4,
       "d - self.radius * xi ** (q - 1.0) / size ** (q - 1.0))))",
       "d - xi ** (q - 1.0) / size ** (q - 1.0))))", "F4 relation d* without the radius (C6)"),
    # F5: the norm penalty
    _m("sss5_dual_budget_doubled", S5, "cvxpy_norm(psi, self.q_value) <= self.weight,",
       "cvxpy_norm(psi, self.q_value) <= 2 * self.weight,", "F5 dual: hinge budget 2 weight"),
    _m("sss5_primal_l1_penalty", S5, "return self.weight * cvxpy_norm(d, self.p_value), {}",
       "return self.weight * cvxpy_norm(d, 1.0), {}", "F5 primal: the l1 penalty (a constant)"),
    _m("sss5_bisection_budget", S5,
       "if numpy_norm(np.maximum(mid - z, 0.0), self.q_value) <= self.weight:",
       "if numpy_norm(np.maximum(mid - z, 0.0), 1.0) <= self.weight:",
       "F5 closed-form relaxed margin with an l1 budget (C4)"),
    _m("sss5_relation_unnormalized", S5, "d - powered / powered.sum())))",
       "d - powered)))", "F5 relation d* = xi* (not normalized) (C6)"),
    # F10: the squared norm
    _m("sss10_primal_no_half", S10, "return self.weight / 2 * cp.sum_squares(d), {}",
       "return self.weight * cp.sum_squares(d), {}", "F10 primal: weight ||d||^2, no 1/2"),
    _m("sss10_dual_no_two", S10,
       "value = -beta - cp.square(cvxpy_norm(psi, self.q_value)) / (2 * self.weight)",
       "value = -beta - cp.square(cvxpy_norm(psi, self.q_value)) / self.weight",
       "F10 dual: ||xi||^2 / weight, no 1/2"),
    _m("sss10_hinge_level", S10, "levels = (mass + sums) / counts",
       "levels = (mass + sums) / (counts + 1)", "F10 sorting for gamma* off by one (C1, C4)"),
    _m("sss10_map_without_weight", S10,
       "return np.maximum(gamma - z, 0.0) / self.weight\n",
       "return np.maximum(gamma - z, 0.0)\n", "F10 d = [gamma - U w]_+ without 1/weight (C2)"),
    _m("ok_sss10_half_after", S10, "return self.weight / 2 * cp.sum_squares(d), {}",
       "return self.weight * cp.sum_squares(d) / 2, {}", "F10 primal: /2 written after",
       "pass"),
    # F7: the entropy-smoothed hard margin
    _m("sss7_dual_lse_sign", S7, "cp.log_sum_exp(-(U @ w) / self.beta)",
       "cp.log_sum_exp((U @ w) / self.beta)", "F7 dual: soft-max of +U w/beta"),
    _m("sss7_primal_drops_ln_n", S7,
       "return -self.beta * cp.sum(cp.entr(d)) + self.beta * math.log(self.N), {}",
       "return -self.beta * cp.sum(cp.entr(d)), {}",
       "F7 primal: sum d ln d without + ln N (value shifted by beta ln N)"),
    _m("sss7_map_without_minus_one", S7, "return np.exp(-(z + float(b)) / self.beta - 1.0)",
       "return np.exp(-(z + float(b)) / self.beta)", "F7 d(w, beta) without the -1 (C2)"),
    _m("sss7_optimal_beta_sign", S7,
       "return float(self.beta * (log_sum_exp(-z / self.beta) - 1.0))",
       "return float(self.beta * (log_sum_exp(-z / self.beta) + 1.0))",
       "F7 optimal multiplier with +1 (C3)"),
    _m("ok_sss7_softmax_by_hand", S7, "return value, {}, softmax(x)",
       "return value, {}, np.exp(x - log_sum_exp(x))", "F7 softmax written out", "pass"),
    # F8: the entropy-smoothed soft margin
    _m("sss8_dual_penalty_without_nu", S8, "value = (-cp.sum(psi) / self.nu",
       "value = (-cp.sum(psi)", "F8 dual: hinge cost 1 instead of 1/nu"),
    _m("sss8_psi_without_ln_nu", S8,
       "psi[proj.capped] = self.beta * (math.log(self.nu) + proj.log_scale",
       "psi[proj.capped] = self.beta * (proj.log_scale",
       "F8 closed-form psi without ln nu on the capped entries (C4)"),
    _m("sss8_softmax_unscaled", S8, "return softmax(-s / self.beta)", "return softmax(-s)",
       "F8 d(w, psi) without 1/beta (C1)"),
    _m("ok_sss8_penalty_inside_sum", S8, "value = (-cp.sum(psi) / self.nu",
       "value = (-cp.sum(psi / self.nu)", "F8 dual: 1/nu inside the sum", "pass"),
]

# -- seed 002 (Shen & Li): the exponential loss (14), AdaBoost-QP (41), the l_p hinge (27)/(28),
# -- cost-sensitive AdaBoost-l1 (F9); D5 compares each with the seed's problem as printed ----------
AE, AQ, PH, AC = "adaboost_exp.py", "adaboost_qp.py", "lpboost_phinge.py", "adaboost_l1_cost.py"

SHEN_LI_MORE = [
    # adaboost_exp: (2) + l1 budget <-> (14)
    _m("sl_ae_dual_exp_sign", AE,
       "objective = self.T - self.T * (self.d0 @ cp.exp(-(U @ w) / self.T))",
       "objective = self.T - self.T * (self.d0 @ cp.exp((U @ w) / self.T))",
       "dual: exp(+U w / T) (sign slip: the loss of the negated margins)"),
    _m("sl_ae_dual_T_scale", AE,
       "objective = self.T - self.T * (self.d0 @ cp.exp(-(U @ w) / self.T))",
       "objective = self.T - self.T * (self.d0 @ cp.exp(-(U @ w) * self.T))",
       "dual: exp(-T U w) instead of exp(-U w / T) (the budget 1/T read as T)"),
    _m("sl_ae_primal_normalized", AE,
       'constraints = {"w": U.T @ d <= gamma}',
       'constraints = {"w": U.T @ d <= gamma, "beta": cp.sum(d) == 1}',
       "primal with sum(d) = 1 (the simplex of (10), not (14)'s orthant)"),
    _m("sl_ae_conjugate_kl", AE,
       "+ math.log(self.N) * cp.sum(d) - cp.sum(d) + 1.0)",
       "+ math.log(self.N) * cp.sum(d))",
       "primal regularizer the relative entropy, not the unnormalized one (wrong conjugate "
       "of exp)"),
    _m("sl_ae_map_T", AE,
       'return self.d0 * np.exp(-(U @ np.asarray(point["w"], dtype=float)) / self.T)',
       'return self.d0 * np.exp(-(U @ np.asarray(point["w"], dtype=float)) * self.T)',
       "u <-> w map d = d0 exp(-T U w) (the wrong scale of T)"),
    _m("sl_ae_seed_map_N", AE,
       "return self.N * (1.0 - value / self.T)", "return 1.0 - value / self.T",
       "seed_objective: Opt(2) without the factor N (mean loss read as the sum)"),
    _m("ok_sl_ae_dual_factored", AE,
       "objective = self.T - self.T * (self.d0 @ cp.exp(-(U @ w) / self.T))",
       "objective = self.T * (1.0 - self.d0 @ cp.exp(-(U @ w) / self.T))",
       "dual objective with T factored out", "pass"),
    # adaboost_qp: (41) <-> its derived dual (d of any sign)
    _m("sl_aq_primal_nonneg", AQ,
       'd = cp.Variable(self.N, name="d")', 'd = cp.Variable(self.N, nonneg=True, name="d")',
       "primal with d >= 0 (the l2 member, not (41)'s dual: u~ is free)"),
    _m("sl_aq_primal_T_scale", AQ,
       "objective = gamma + self.N * self.T / 2.0 * cp.sum_squares(d - self.d0)",
       "objective = gamma + self.N / (2.0 * self.T) * cp.sum_squares(d - self.d0)",
       "primal regularizer N/(2T) ||d - d0||^2 (T inverted)"),
    _m("sl_aq_map_sign", AQ,
       "d = self.d0 - centered / (self.N * self.T)", "d = self.d0 + centered / (self.N * self.T)",
       "u <-> w map u~ = (1 + (rho - mean)/T)/N (sign slip)"),
    _m("sl_aq_beta_sign", AQ,
       "return -float(np.mean(U @ np.asarray(point[\"w\"], dtype=float)))",
       "return float(np.mean(U @ np.asarray(point[\"w\"], dtype=float)))",
       "optimal beta +mean(U w)"),
    _m("sl_aq_dual_drops_mean", AQ,
       "objective = self.d0 @ s - cp.sum_squares(s) / (2.0 * self.N * self.T) - beta",
       "objective = -cp.sum_squares(s) / (2.0 * self.N * self.T) - beta",
       "dual without the linear term s.d0 (wrong conjugate of the l2 regularizer)"),
    _m("sl_aq_seed_map_sign", AQ,
       "return -self.T * value", "return self.T * value",
       "seed_objective: Opt(41) = +T value (sign slip)"),
    _m("ok_sl_aq_primal_rescaled", AQ,
       "objective = gamma + self.N * self.T / 2.0 * cp.sum_squares(d - self.d0)",
       "objective = gamma + self.T * self.N / 2.0 * cp.sum_squares(self.d0 - d)",
       "primal regularizer written as (T N/2) ||d0 - d||^2", "pass"),
    # lpboost_phinge: (27)/(28) as a member of the regularized family
    _m("sl_ph_conjugate_shift_sign", PH,
       "scaled = cp.pos(y + 1.0 / (q - 1)) / (kappa * q)",
       "scaled = cp.pos(y - 1.0 / (q - 1)) / (kappa * q)",
       "conjugate with pos(y - 1/(q-1)) (sign slip: not the conjugate of R)"),
    _m("sl_ph_eta_over_q", PH,
       "self.eta = (self.p * self.D * self.N) ** (self.q - 1.0) / (self.q - 1.0)",
       "self.eta = (self.p * self.D * self.N) ** (self.q - 1.0) / self.q",
       "eta of D divided by q instead of q - 1 (the coefficient c_p of (28) mistranslated)"),
    _m("sl_ph_eta_no_p", PH,
       "self.eta = (self.p * self.D * self.N) ** (self.q - 1.0) / (self.q - 1.0)",
       "self.eta = (self.D * self.N) ** (self.q - 1.0) / (self.q - 1.0)",
       "eta of D without the factor p (scale of the penalty: 1/(2D) at p = 2, not 1/(4D))"),
    _m("sl_ph_regularizer_linear_sign", PH,
       "- cp.sum(d) / (q - 1) + 1 / q", "+ cp.sum(d) / (q - 1) + 1 / q",
       "regularizer's linear term with the wrong sign (R(d0) != 0, not R*'s conjugate)"),
    _m("sl_ph_modulus_15", PH,
       "return 1.0 if self.q <= 2.0 + 1e-12 else 0.0",
       "return 1.5 if self.q <= 2.0 + 1e-12 else 0.0",
       "sigma = 1.5 (1 is tight for the squared hinge)"),
    _m("sl_ph_range_half", PH,
       "return (self.N ** (q - 1) - 1.0) / (q * (q - 1))",
       "return 0.5 * (self.N ** (q - 1) - 1.0) / (q * (q - 1))",
       "range bound halved (attained at a vertex)"),
    _m("ok_sl_ph_reordered", PH,
       "- cp.sum(d) / (q - 1) + 1 / q", "+ 1 / q - cp.sum(d) / (q - 1)",
       "regularizer's terms reordered", "pass"),
    # adaboost_l1_cost: weighted (5) <-> ERLPBoost with d0 = c / sum c
    _m("sl_ac_prior_uniform", AC,
       "self.d0 = self.c / float(self.c.sum())", "self.d0 = np.full(self.N, 1.0 / self.N)",
       "prior uniform: the costs ignored (caught where c is not uniform)"),
    _m("sl_ac_eta_T", AC,
       "self.eta = 1.0 / self.T", "self.eta = self.T",
       "eta = T instead of 1/T (the budget 1/T read as T)"),
    _m("sl_ac_prior_unnormalized", AC,
       "self.d0 = self.c / float(self.c.sum())", "self.d0 = self.c",
       "prior c itself, not c / sum c (R = sum d ln(d/c) is negative on the simplex)"),
    _m("sl_ac_seed_shift_sign", AC,
       "return math.log(float(self.c.sum())) - value / self.T",
       "return -math.log(float(self.c.sum())) - value / self.T",
       "seed_objective with -ln(sum c) (the shift's sign)"),
    _m("ok_sl_ac_scaled_costs", AC,
       "self.d0 = self.c / float(self.c.sum())",
       "self.d0 = (2.0 * self.c) / float((2.0 * self.c).sum())",
       "prior from 2c (the costs' scale does not matter)", "pass"),
]

# -- seed 002 (Shen & Li): AdaBoost_l1 (5)/(15), its inequality budget (F1b), LogitBoost_l1 ---
AD = "adaboost_l1.py"
AI = "adaboost_l1_ineq.py"
LB = "logitboost_l1.py"

SHEN_LI = [
    _m("ad_eta_is_T", AD,
       "self.eta = 1.0 / float(self.T)", "self.eta = float(self.T)",
       "AdaBoost_l1 with eta = T (scale of T: (15)'s entropy weighted 1/T)"),
    _m("ad_prior_not_uniform", AD,
       "self.d0 = np.full(self.N, 1.0 / self.N)",
       "self.d0 = np.arange(1.0, self.N + 1) / (self.N * (self.N + 1) / 2)",
       "AdaBoost_l1 with a non-uniform prior: not (15) (u is not softmax(-rho/T), (24))"),
    _m("ad_printed_sign", AD,
       "[(shift - value) / T", "[(value - shift) / T",
       "Opt(5) reported with the sign of Opt(15) (-Opt(15)/T has the opposite sign)"),
    _m("ad_printed_no_shift", AD,
       "shift = T * math.log(N)", "shift = 0.0",
       "Opt(15) reported as P, without the shift T ln N"),
    _m("ad_ok_eta_power", AD,
       "self.eta = 1.0 / float(self.T)", "self.eta = float(self.T) ** -1",
       "eta = T ** -1", "pass"),
    _m("ad_ok_printed_negated", AD,
       "[(shift - value) / T", "[-(value - shift) / T",
       "Opt(5) as -(P - T ln N)/T", "pass"),
    _m("ai_dual_equality_budget", AI,
       "[cp.sum(w) + slack == 1]", "[cp.sum(w) == 1, slack == 0]",
       "F1b dual with the equality budget sum(w) = 1 (budget)"),
    _m("ai_floor_sign", AI,
       '"slack": -gamma <= 0', '"slack": gamma <= 0',
       "F1b primal with the floor gamma <= 0 (sign slip of r >= 0)"),
    _m("ai_objective_no_floor", AI,
       "max_edge = max(float((U.T @ d).max()) if U.shape[1] else 0.0, 0.0)",
       "max_edge = float((U.T @ d).max()) if U.shape[1] else 0.0",
       "F1b numpy P without the floor max(., 0) ((15) instead of (15) with r >= 0)"),
    _m("ai_slack_last", AI,
       "point = Multipliers(w=w_all[1:], slack=float(w_all[0]))",
       "point = Multipliers(w=w_all[:-1], slack=float(w_all[-1]))",
       "F1b w read off the wrong end of [0, U] (a wrong u <-> w map)"),
    _m("ai_always_normalized", AI,
       "        if w.sum() > 1.0:\n            w = w / w.sum()\n        out = Multipliers(",
       "        if w.sum() > 0.0:\n            w = w / w.sum()\n        out = Multipliers(",
       "F1b dual points always normalized to sum(w) = 1 (the equality budget's map)"),
    _m("ai_ok_slack_form", AI,
       "[cp.sum(w) + slack == 1]", "[slack == 1 - cp.sum(w)]",
       "F1b budget row written as slack = 1 - sum(w)", "pass"),
    _m("ai_ok_slack_value", AI,
       "slack = 1.0 - float(w.sum())", "slack = float(1.0 - w.sum())",
       "unused budget computed in numpy", "pass"),
    _m("lb_conjugate_exp", LB,
       "return cp.sum(cp.logistic(y))", "return cp.sum(cp.exp(y))",
       "LogitBoost_l1 conjugate e^y (the unnormalized entropy's, not ln(1 + e^y))"),
    _m("lb_no_complement", LB,
       "return -cp.sum(cp.entr(d)) - cp.sum(cp.entr(1 - d))", "return -cp.sum(cp.entr(d))",
       "(31) without the (1 - u) ln(1 - u) term"),
    _m("lb_dual_sign", LB,
       "cp.Maximize(-self.conjugate(-self.eta * (U @ w)) / self.eta)",
       "cp.Maximize(-self.conjugate(self.eta * (U @ w)) / self.eta)",
       "(32) with +margins in the conjugate (sign slip)"),
    _m("lb_eta_is_T", LB,
       "self.eta = 1.0 / float(self.T)", "self.eta = float(self.T)",
       "LogitBoost_l1 with eta = T (scale of T)"),
    _m("lb_best_response_sign", LB,
       "d = expit(-self.eta * margins)", "d = expit(self.eta * margins)",
       "(33) with the sign of the margin flipped (a wrong u <-> w map)"),
    _m("lb_fast_conjugate", LB,
       "return float(np.sum(np.logaddexp(0.0, np.asarray(y, dtype=float))))",
       "return float(np.sum(np.logaddexp(1.0, np.asarray(y, dtype=float))))",
       "numpy R* ln(e + e^y)"),
    _m("lb_ok_sigmoid", LB,
       "d = expit(-self.eta * margins)", "d = 0.5 * (1.0 + np.tanh(-0.5 * self.eta * margins))",
       "(33) as (1 + tanh(-s/2))/2", "pass"),
    _m("lb_ok_regularizer_sum", LB,
       "return -cp.sum(cp.entr(d)) - cp.sum(cp.entr(1 - d))",
       "return -cp.sum(cp.entr(d) + cp.entr(1 - d))",
       "(31)'s regularizer as one sum", "pass"),
]

# -- algorithm variants (tests/test_corrective.py) ------------------------------------------
# Textual edits of dualboost/algorithms/corrective.py (``source`` is that path). Each variant
# is run on a real instance and must make at least one of the run's checks fail (the claims
# V3-V14 of docs/corrective.md, A1, G1): the claims live in corrective_claims.py, which the
# variants leave alone. ``instance`` in the description's brackets names the run
# (tests/test_corrective.py: MUTANT_RUNS).
CO = "dualboost/algorithms/corrective.py"

CORRECTIVE_MUTATIONS = [
    _m("co_step_double", CO,
       "alpha = min(1.0, max(0.0, self.sigma * g / (L * L))) if L > 0 else 0.0",
       "alpha = min(1.0, max(0.0, 2.0 * self.sigma * g / (L * L))) if L > 0 else 0.0",
       "[corrective_erlpboost] a wrong step size: twice the short step"),
    _m("co_step_unsquared", CO,
       "alpha = min(1.0, max(0.0, self.sigma * g / (L * L))) if L > 0 else 0.0",
       "alpha = min(1.0, max(0.0, self.sigma * g / L)) if L > 0 else 0.0",
       "[corrective_erlpboost] Alg. 4.1 (b) as printed: ||x||_inf unsquared"),
    _m("co_sss_beta", CO,
       "self.beta = float(f.eps) / (2.0 * math.log(N))",
       "self.beta = float(f.eps) / math.log(N)",
       "[sss] a wrong beta: eps/ln N instead of eps/(2 ln N) (Figure 1)"),
    _m("co_eta_scale", CO,
       "self._sigma_over_eta = sigma / float(f.eta)",
       "self._sigma_over_eta = sigma / (0.25 * float(f.eta))",
       "[corrective_erlpboost] a wrong smoothing in the step: sigma/(eta/4)"),
    _m("co_no_forced_first", CO,
       "    forced_first_step = True\n",
       "    forced_first_step = False\n",
       "[corrective_erlpboost] w^1 from the short step instead of e_(h^1) (sum w < 1 forever)"),
    _m("co_sss_paper_stop", CO,
       "        if gap <= eps:\n",
       "        if g <= eps:\n",
       "[sss_paper] the paper's unfixed test g_t <= eps in place of the certified gap"),
    _m("co_lower_overstated", CO,
       "return fast_soft_margin(self.z, self.nu, self.sample_weight) / total",
       "return fast_soft_margin(self.z, float(self.N), self.sample_weight) / total",
       "[corrective_erlpboost] the bracket's lower end is the mean margin (nu = N): it "
       "overstates the soft margin"),
    _m("co_sss_map_beta", CO,
       "        c = self.lam + self.beta\n",
       "        c = self.lam + 0.25 * self.beta\n",
       "[sss] d_t from the relaxation smoothed by beta/4 while the step uses beta"),
    _m("co_step_tiny", CO,
       "alpha = min(1.0, max(0.0, self.sigma * g / (L * L))) if L > 0 else 0.0",
       "alpha = 0.01 * min(1.0, max(0.0, self.sigma * g / (L * L))) if L > 0 else 0.0",
       "[sss_coarse] a hundredth of the short step"),
    _m("co_stop_late", CO,
       "        if gap <= eps:\n",
       "        if gap <= eps and t > 2000:\n",
       "[sss_coarse] a stopping test that waits past the bound (T > 64 ln(N)/eps^2)"),
    _m("co_binary_dual_sign", CO,
       "dual = -float(f.conjugate_value(-eta * (z + beta))) / eta - beta",
       "dual = -float(f.conjugate_value(-eta * (z + beta))) / eta + beta",
       "[corrective_binary_erlpboost] Theta_B (3.26) with +beta"),
]

# -- seed 002's hinge (21)/(22) and squared hinge (27) with their own D; D5 solves the seed's
# w-domain problem as printed --------------------------------------------------------------------
LH, SQ = "lpboost_hinge.py", "lpboost_sqhinge.py"

SHEN_LI_HINGE = [
    # lpboost_hinge: lpboost with nu = 1/D
    _m("sl_lh_nu_DN", LH,
       "self.nu = min(float(self.N), max(1.0, 1.0 / self.D))",
       "self.nu = min(float(self.N), max(1.0, self.D * self.N))",
       "u <-> d map: the cap count nu = D N (D read as a fraction), not 1/D"),
    _m("sl_lh_nu_off_by_one", LH,
       "self.nu = min(float(self.N), max(1.0, 1.0 / self.D))",
       "self.nu = min(float(self.N), max(1.0, 1.0 / self.D + 1.0))",
       "the caps 1/(1/D + 1) instead of D (budget: another soft margin)"),
    _m("sl_lh_seed_sign", LH, "        return -value\n", "        return value\n",
       "seed_objective: Opt(21) with the wrong sign"),
    _m("sl_lh_seed_penalty_inverted", LH,
       "cp.Minimize(self.D * cp.sum(xi) - rho)", "cp.Minimize(cp.sum(xi) / self.D - rho)",
       "(21) with the penalty sum(xi)/D (the caps 1/D and the price D swapped)"),
    _m("sl_lh_seed_slack_sign", LH,
       "[U @ w >= rho - xi, cp.sum(w) == 1]", "[U @ w >= rho + xi, cp.sum(w) == 1]",
       "(21) with the slack's sign flipped (the hard margin (19), no soft margin)"),
    _m("ok_sl_lh_reordered", LH,
       "cp.Minimize(self.D * cp.sum(xi) - rho)", "cp.Minimize(-rho + cp.sum(self.D * xi))",
       "(21)'s objective reordered", "pass"),
    # lpboost_sqhinge: the squared hinge as a member, eta = 2DN
    _m("sl_sq_eta_no_2", SQ,
       "self.eta = 2.0 * self.D * self.N", "self.eta = self.D * self.N",
       "eta = DN without the factor 2 (the coefficient 1/(2D) of (27), not 1/(4D))"),
    _m("sl_sq_eta_inverted", SQ,
       "self.eta = 2.0 * self.D * self.N", "self.eta = 1.0 / (2.0 * self.D * self.N)",
       "eta = 1/(2DN) (the scale of D inverted)"),
    _m("sl_sq_conjugate_sign", SQ,
       "cp.pos(1.0 / self.N + y / self.N)", "cp.pos(1.0 / self.N - y / self.N)",
       "conjugate with pos(1/N - y/N) (sign slip: not the conjugate of R)"),
    _m("sl_sq_regularizer_linear_sign", SQ,
       "- cp.sum(d) + 0.5", "+ cp.sum(d) - 1.5",
       "regularizer (N/2) sum d^2 + sum d - 3/2: equal to R on the simplex, not R*'s conjugate "
       "over d >= 0"),
    _m("sl_sq_modulus_2", SQ,
       "def modulus(self):\n        return 1.0", "def modulus(self):\n        return 2.0",
       "sigma = 2 (1 is tight w.r.t. the l1 norm)"),
    _m("sl_sq_range_half", SQ,
       "return (self.N - 1.0) / 2.0", "return (self.N - 1.0) / 4.0",
       "range bound halved (attained at a vertex)"),
    _m("sl_sq_seed_shift", SQ,
       "return -(value + 1.0 / (4.0 * self.D * self.N))",
       "return -(value + 1.0 / (2.0 * self.D * self.N))",
       "seed_objective: Opt(27) = P + 1/(2DN) (the shift's scale)"),
    _m("sl_sq_fast_conjugate_gradient", SQ,
       "return np.maximum(1.0 / self.N + np.asarray(y, dtype=float) / self.N, 0.0)",
       "return np.maximum(1.0 / self.N + np.asarray(y, dtype=float), 0.0)",
       "fast path d = grad R*(y) without the 1/N (the map w -> d)"),
    _m("ok_sl_sq_regularizer_centered", SQ,
       "return self.N / 2.0 * cp.sum_squares(d) - cp.sum(d) + 0.5",
       "return self.N / 2.0 * cp.sum_squares(d - 1.0 / self.N)",
       "regularizer written (N/2)||d - 1/N||^2 (equal for every d, not only on the simplex)",
       "pass"),
]


#: issue 29's blind spots: pins against the identity the member states, the ends of a declared
#: range, sigma and B of seed 001's smoothed margins (held to R1/R2 like the family's)
DECLARED_FACTS = [
    _m("tb_pinned_nu_2", TB, "pinned = (fixed(NU, 1.0),)", "pinned = (fixed(NU, 2.0),)",
       "TotalBoost pinned at nu = 2: I1 states TotalBoost is SoftBoost at nu = 1"),
    _m("ts_range_to_2", TS, "default=0.5, low=0, high=1, low_open=True, high_open=True",
       "default=0.5, low=0, high=2, low_open=True, high_open=True",
       "Tsallis q range (0, 2): admits q >= 1, where R is concave and sigma, B break"),
    _m("sss_soft_sigma_plus_2pct", "sss_smoothed_soft.py",
       '        """sigma = 1 (Pinsker)."""\n        return 1.0',
       '        """sigma = 1 (Pinsker)."""\n        return 1.02',
       "sss_smoothed_soft: sigma 2 % above Pinsker's (tight) 1"),
    _m("sss_hard_B_minus_2pct", "sss_smoothed_hard.py", "        return math.log(self.N)\n",
       "        return 0.98 * math.log(self.N)\n",
       "sss_smoothed_hard: B 2 % below ln N, which h reaches at a vertex"),
    _m("sl_T_range_without_its_end", AD,
       'eta = 1/T", default=0.1, low=0,\n                low_open=True)',
       'eta = 1/T", default=0.1)',
       "Shen & Li's T declared without its lower end 0: the schema admits T <= 0 (eta < 0)"),
    # printed objectives (D6): each against the printed problem solved on its own
    _m("sl_15_printed_without_shift", AD, "[value - shift for value in (dual, primal)]",
       "[value for value in (dual, primal)]",
       "Shen & Li's (15) printed without its T ln N shift"),
    _m("lb_32_printed_times_T", LB, '[-primal / T, -dual / T]', '[-primal * T, -dual * T]',
       "LogitBoost's (32) printed as -T Opt(31) instead of -Opt(31)/T"),
    # borrowed fast masters: M1 compares them with the member's own models (a formulation row)
    _m("sss_soft_borrows_lpboost_nu_plus_half", "sss_soft_margin.py",
       "LPBoost(self.N, nu=self.nu, eps=self.eps)",
       "LPBoost(self.N, nu=self.nu + 0.5, eps=self.eps)",
       "sss_soft_margin's fast master is LPBoost at nu + 0.5, not nu"),
    _m("sss_smoothed_borrows_erlpboost_eta_105", "sss_smoothed_soft.py",
       "eta=1.0 / self.beta, eps=self.eps)", "eta=1.05 / self.beta, eps=self.eps)",
       "sss_smoothed_soft's fast master is ERLPBoost at eta = 1.05/beta, not 1/beta"),
]

MUTATIONS: list[Mutation] = (LPBOOST + ERLPBOOST + BINARY + L2_VARIANTS + TSALLIS
                             + UNNORMALIZED + SOFTBOOST + BLIND_SPOTS + SSS_FAMILY
                             + SHEN_LI_MORE + SHEN_LI + SHEN_LI_HINGE + DECLARED_FACTS)

_ids = [m.id for m in MUTATIONS + CORRECTIVE_MUTATIONS]
assert len(_ids) == len(set(_ids)), "duplicate mutation ids"


# -- algorithm mutants: Frank-Wolfe and MLPBoost (dualboost/algorithms/frank_wolfe.py) -----------
# Each is a textual edit of the algorithm module, run on a real instance by
# tests/test_frank_wolfe.py::test_algorithm_mutant_fails_a_claim; at least one of the listed
# claims (docs/frank_wolfe.md FW1-FW5, evaluated by the shipped claims) must FAIL.

@dataclass(frozen=True)
class AlgorithmMutation:
    id: str
    source: str  # file name in dualboost/algorithms/
    old: str  # exact text, must occur exactly once in the source
    new: str
    description: str
    #: the run: algorithm, step, formulation, nu_frac, eps, max_iter (breast cancer, stumps)
    run: dict
    #: claim ids of which at least one must fail
    fails: tuple


FW = "frank_wolfe.py"


def _fw_run(algorithm="fw", step="short", formulation="erlpboost", nu_frac=0.2, eps=0.05,
            max_iter=3000):
    return {"algorithm": algorithm, "step": step, "formulation": formulation,
            "nu_frac": nu_frac, "eps": eps, "max_iter": max_iter}


FRANK_WOLFE_MUTATIONS = [
    AlgorithmMutation(
        "fw_short_step_doubled", FW,
        "lam_short = min(max(gap / (eta * L * L), 0.0), 1.0) if L > 0 else 0.0",
        "lam_short = min(max(2 * gap / (eta * L * L), 0.0), 1.0) if L > 0 else 0.0",
        "short step twice the descent lemma's maximizer", _fw_run(), ("FW2",)),
    AlgorithmMutation(
        "fw_classic_step_halved", FW, "lam = 2.0 / (self.k + 2.0) if rule",
        "lam = 1.0 / (self.k + 2.0) if rule", "classic step 1/(k+2) instead of 2/(k+2)",
        _fw_run(step="classic"), ("FW2",)),
    AlgorithmMutation(
        "fw_projection_eta_doubled", FW,
        "d, log_d, free = self.project(self.log_d0 - self.eta * z)",
        "d, log_d, free = self.project(self.log_d0 - 2 * self.eta * z)",
        "d(w) from the softmax at 2 eta (a wrong smoothing in the gradient)", _fw_run(),
        ("FW1",)),
    AlgorithmMutation(
        "fw_default_eta_halved", FW, "return max(2.0 * B / eps, 0.5)",
        "return max(B / eps, 0.5)",
        "lpboost's default eta = ln(N/nu)/eps instead of 2 ln(N/nu)/eps",
        _fw_run(step="line_search", formulation="lpboost"), ("FW1",)),
    AlgorithmMutation(
        "fw_line_search_reversed_bracket", FW,
        "            if s > 0:\n                lo = lam\n            else:\n"
        "                hi, closed = lam, True\n",
        "            if s < 0:\n                lo = lam\n            else:\n"
        "                hi, closed = lam, True\n",
        "the authors' line-search error: the bracket moves the wrong way on the slope's sign",
        _fw_run(step="line_search"), ("FW2",)),
    AlgorithmMutation(
        "fw_pairwise_no_safeguard", FW,
        'if point.value - self.point.value < info["guaranteed"]:', "if False:",
        "pairwise steps taken whatever their progress (drop steps below the guarantee)",
        _fw_run(step="pairwise", nu_frac=0.05, eps=0.05, max_iter=3000), ("FW3",)),
    AlgorithmMutation(
        "mlpboost_lp_always_wins", FW, "if d_value > self.point.value:", "if True:",
        "MLPBoost takes the LP's weights even when their smoothed value is smaller",
        _fw_run(algorithm="mlpboost", eps=0.01), ("FW3",)),
    AlgorithmMutation(
        "fw_stop_at_1_5_eps", FW, "return self.min_edge - self.lower\n",
        "return self.min_edge - self.lower - self.eps / 2\n",
        "the certified stop tests min edge - soft margin <= 1.5 eps (seed 001's flawed test)",
        _fw_run(step="line_search", eps=0.01), ("FW5",)),
    AlgorithmMutation(
        "fw_never_stops", FW, "return self.eps if self.stopping == \"certified\" else",
        "return self.eps * 1e-9 if self.stopping == \"certified\" else",
        "the stopping threshold eps 1e-9: the run goes past the iteration bound (K >= "
        "16 eta/delta = 412 at eps = 0.5)", _fw_run(eps=0.5, max_iter=600), ("FW4",)),
]

_fw_ids = [m.id for m in FRANK_WOLFE_MUTATIONS]
assert len(_fw_ids) == len(set(_fw_ids)), "duplicate algorithm mutation ids"
