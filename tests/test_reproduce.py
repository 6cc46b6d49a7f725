"""``dualboost reproduce``: every experiment's --quick version runs and writes its outputs; the
serial, local-process and Dask executors give the same report (timing aside); a missing data
file is one line and exit 2; no output may overwrite an input.

The experiments on the thesis's data read ../shared/data (or $DUALBOOST_SHARED_DATA) and skip
cleanly when it is absent.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from dualboost.cli import main
from dualboost.data import shared_data_dir
from dualboost.reproduce import EXPERIMENTS, Context, Task, reproduce
from dualboost.reproduce.grid import run_tasks
from dualboost.reproduce.report import strip_timing
from dualboost.reproduce.softboost_synthetic import make_data, paired_noise, u_shape

REPO = Path(__file__).resolve().parent.parent


def _data_dir() -> Path | None:
    found = shared_data_dir()
    if found is None:
        alt = REPO.parent.parent / "shared" / "data"  # a worktree two levels below
        found = alt if alt.is_dir() else None
    return found


DATA = _data_dir()
needs_data = pytest.mark.skipif(DATA is None or not (DATA / "german.csv").is_file(),
                                reason="shared data (german.csv) not available")


def _run(tmp_path: Path, name: str, *extra: str) -> tuple[int, Path]:
    out = tmp_path / name
    argv = ["reproduce", name, "--quick", "--out", str(out), "--quiet", *extra]
    return main(argv), out


def _outputs_ok(out: Path) -> dict:
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# ")
    assert "| " in report  # at least one table
    doc = json.loads((out / "runs.json").read_text(encoding="utf-8"))
    assert doc["runs"] and all(r["error"] is None for r in doc["runs"])
    pngs = sorted(out.glob("*.png"))
    assert pngs and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    return doc


def test_list_names_every_experiment(capsys) -> None:
    assert main(["reproduce", "--list"]) == 0
    text = capsys.readouterr().out
    for name in EXPERIMENTS:
        assert name in text
    assert "german.csv" in text and "full version" in text


def test_lower_bound_quick(tmp_path, capsys) -> None:
    code, out = _run(tmp_path, "lpboost-lower-bound")
    assert code == 0, capsys.readouterr().err
    doc = _outputs_ok(out)
    lp = {r["kwargs"]["N"]: r["result"] for r in doc["runs"]
          if r["kwargs"]["algorithm"] == "lpboost"}
    # Theorem 2.5: N/2 iterations still 0.99 below the optimum, then the last hypothesis
    assert {N: r["gap_99_iterations"] for N, r in lp.items()} == {N: N // 2 for N in lp}
    assert all(r["T"] == N // 2 + 1 for N, r in lp.items())
    sb = [r["result"] for r in doc["runs"] if r["kwargs"]["algorithm"] == "softboost"]
    assert all(r["T"] == 2 for r in sb)
    assert "**yes**" in (out / "report.md").read_text(encoding="utf-8")


def test_softboost_synthetic_quick(tmp_path, capsys) -> None:
    code, out = _run(tmp_path, "softboost-synthetic")
    assert code == 0, capsys.readouterr().err
    doc = _outputs_ok(out)
    opt = [r["result"]["optimum"] for r in doc["runs"] if r["key"][0] == "opt"]
    fig3 = {r["key"][1]: r["result"] for r in doc["runs"] if r["key"][0] == "fig3"}
    # no algorithm's LP value over its hypotheses exceeds the LP over all 200 (weak duality)
    best = max(opt)
    assert all(max(c for c in r["curve"] if c is not None) <= best + 1e-7
               for r in fig3.values())
    # every curve is the soft margin (2.2) of the weights so far: it ends at the output's
    assert {"corrective_erlpboost", "corrective_binary_erlpboost"} <= set(fig3)
    for r in fig3.values():
        assert [c for c in r["curve"] if c is not None][-1] == pytest.approx(
            r["soft_margin"], abs=1e-9)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "**U-shaped error in ν/N.** Criterion:" in report
    assert "read as a rescaling of those **columns**" in report


def _synthetic_columns(rescale: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All 2000 rows' 100 columns, the noisy and the clean labels, from make_data."""
    d = make_data(0, rescale)
    H = np.vstack([d["H_train"], d["H_test"]])
    assert np.array_equal(H[:, 100:], -H[:, :100])  # the negations
    return (H[:, :100], np.concatenate([d["y_train"], d["y_test"]]),
            np.concatenate([d["y_train_clean"], d["y_test_clean"]]))


def test_synthetic_data_rescales_the_signal_columns() -> None:
    # seed 004 §5 read as: +1/2 on the positives' first 10 columns, then those whole columns
    # divided by 1.5 -- positives' signal entries in [1/3, 1], negatives' in [0, 2/3]
    X, y, clean = _synthetic_columns("column")
    pos, neg = X[clean > 0], X[clean < 0]
    assert len(pos) == len(neg) == 1000
    assert np.count_nonzero(y != clean) == 200  # 10 % of the labels flipped
    assert pos[:, :10].min() >= 1 / 3 and pos[:, :10].max() <= 1.0
    assert neg[:, :10].min() >= 0.0 and neg[:, :10].max() <= 2 / 3
    # the columns are 'again in [0, 1]' and fill it (1000 uniform draws reach each end)
    assert np.all(X[:, :10].max(axis=0) > 0.99) and np.all(X[:, :10].min(axis=0) < 0.01)
    np.testing.assert_allclose(pos[:, :10].mean(), 2 / 3, atol=0.01)
    np.testing.assert_allclose(neg[:, :10].mean(), 1 / 3, atol=0.01)
    for part in (pos, neg):  # the 90 noise columns are untouched uniform [0, 1]
        assert part[:, 10:].min() >= 0.0 and part[:, 10:].max() <= 1.0
        np.testing.assert_allclose(part[:, 10:].mean(), 0.5, atol=0.01)


def test_synthetic_data_other_readings() -> None:
    X, _, clean = _synthetic_columns("minmax")
    np.testing.assert_allclose(X[:, :10].min(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(X[:, :10].max(axis=0), 1.0, atol=1e-12)
    X, _, clean = _synthetic_columns("shifted")  # only the shifted entries divided
    np.testing.assert_allclose(X[clean < 0, :10].mean(), 0.5, atol=0.01)
    assert X[clean > 0, :10].min() >= 1 / 3
    with pytest.raises(ValueError, match="rescale must be one of"):
        make_data(0, "divide")


def test_softboost_synthetic_runs_the_column_reading(tmp_path) -> None:
    ctx = Context(data_dir=None, out=tmp_path, quick=True)
    got = EXPERIMENTS["softboost-synthetic"].load_data(ctx)["synthetic"]
    want = make_data(0, "column")
    assert all(np.array_equal(got[k], want[k]) for k in want)


def _wrong(M: int, count: int, start: int = 0) -> np.ndarray:
    w = np.zeros(M, bool)
    w[start:start + count] = True
    return w


def test_paired_noise_counts_only_discordant_examples() -> None:
    a, b = _wrong(100, 10), _wrong(100, 6)  # b's mistakes are a subset of a's
    diff, noise = paired_noise(a, b)
    assert diff == pytest.approx(0.04) and noise == pytest.approx(2 * 2 / 100)
    assert paired_noise(a, a) == (0.0, 0.0)


def test_u_shape_needs_both_arms_beyond_the_noise() -> None:
    M, fr = 1500, [0.1, 0.2, 0.4, 0.8]
    opt = [0.0, 0.01, 0.02, 0.05]  # the first point is degenerate and ignored
    u = [_wrong(M, 750), _wrong(M, 300), _wrong(M, 160), _wrong(M, 260)]
    got = u_shape(fr, [w.mean() for w in u], u, opt)
    assert got["verdict"] and got["min"]["frac"] == 0.4 and got["left"]["frac"] == 0.2
    # the right arm 5 examples worse, but on other examples: 205 discordant, noise 2 sqrt(205)
    flat = [_wrong(M, 750), _wrong(M, 300), _wrong(M, 160), _wrong(M, 165, start=100)]
    got = u_shape(fr, [w.mean() for w in flat], flat, opt)
    assert not got["verdict"] and got["left"]["above"] and not got["right"]["above"]
    down = [_wrong(M, 300), _wrong(M, 250), _wrong(M, 200), _wrong(M, 100)]  # minimum at an end
    assert not u_shape(fr, [w.mean() for w in down], down, opt)["verdict"]
    assert u_shape(fr, [w.mean() for w in u], u, [0.0, 0.0, 0.02, 0.05]) is None


@needs_data
def test_instability_quick(tmp_path, capsys) -> None:
    code, out = _run(tmp_path, "thesis-instability", "--data-dir", str(DATA))
    assert code == 0, capsys.readouterr().err
    doc = _outputs_ok(out)
    for r in doc["runs"]:
        errors = r["result"]["test_error"]
        assert len(errors) == r["result"]["T"] or r["kwargs"]["algorithm"] != "lpboost"
        assert all(0.0 <= e <= 1.0 for e in errors)


@needs_data
def test_thesis_tables_quick(tmp_path, capsys) -> None:
    code, out = _run(tmp_path, "thesis-tables", "--data-dir", str(DATA))
    assert code == 0, capsys.readouterr().err
    _outputs_ok(out)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "| raw data | german | erlp | 27.00 |" in report  # Table 5.5's german entry
    assert "SVM hypotheses" in report


def _fails(data: dict, **kwargs) -> dict:
    raise ValueError("this run fails on purpose")


def test_serial_jobs_and_dask_give_one_report(tmp_path) -> None:
    reports = []
    for mode in ("serial", "jobs", "dask"):
        ctx = Context(data_dir=None, out=tmp_path / mode, quick=True)
        if mode == "dask":
            distributed = pytest.importorskip("distributed")
            # in-process workers (inproc transport): quick, nothing listens on a port
            with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                          dashboard_address=None) as cluster, \
                    distributed.Client(cluster) as client:
                reproduce("lpboost-lower-bound", ctx, scheduler=client, progress=False)
        else:
            reproduce("lpboost-lower-bound", ctx, jobs=2 if mode == "jobs" else 1,
                      progress=False)
        text = (tmp_path / mode / "report.md").read_text(encoding="utf-8")
        assert "[s]" in text and "Time:" in text  # timing is there, and marked
        reports.append(strip_timing(text))
        runs = json.loads((tmp_path / mode / "runs.json").read_text(encoding="utf-8"))["runs"]
        reports.append(json.dumps([{k: v for k, v in r.items()
                                    if k not in ("seconds", "cpu_seconds")} | {
            "result": {k: v for k, v in r["result"].items() if k != "seconds"}}
            for r in runs], sort_keys=True))
    assert reports[0] == reports[2] == reports[4]
    assert reports[1] == reports[3] == reports[5]


def test_failed_run_is_reported_not_raised(tmp_path) -> None:
    task = Task(key=("x",), fn=f"{__name__}:_fails", label="failing")
    ok = Task(key=("y",), fn="dualboost.reproduce.lower_bound:run_one",
              kwargs={"N": 8, "algorithm": "softboost"}, label="ok")
    records = run_tasks([task, ok], {})
    assert records[0]["error"].startswith("ValueError: this run fails on purpose")
    assert records[1]["error"] is None and records[1]["result"]["T"] == 2
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        records = run_tasks([task, ok], {}, scheduler=client)
    assert "failed after 1 retry" in records[0]["error"]
    assert records[1]["error"] is None


def test_missing_data_is_one_line_exit_2(tmp_path, capsys) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code = main(["reproduce", "thesis-instability", "--quick", "--data-dir", str(empty),
                 "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "german.csv" in err[0] and "UCI" in err[0]
    assert not (tmp_path / "out" / "report.md").exists()


def test_outputs_never_overwrite_inputs(tmp_path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "german.csv").write_text("column_1,class\n1,1\n", encoding="utf-8")
    before = (data / "german.csv").read_bytes()
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(data / "german.csv", out / "report.md")  # report.md would overwrite the input
    code = main(["reproduce", "thesis-instability", "--quick", "--data-dir", str(data),
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "overwrite that input" in err
    assert (data / "german.csv").read_bytes() == before
    # the data directory itself as --out: refused too
    code = main(["reproduce", "thesis-instability", "--quick", "--data-dir", str(data),
                 "--out", str(data)])
    assert code == 2 and "data directory" in capsys.readouterr().err
    shutil.rmtree(out)


def test_kernel_oracle_is_exact_and_scaled() -> None:
    """The SVM-hypothesis oracle: X (X^T r) / s equals the brute-force best of all 2N columns,
    dense and sparse alike, every value in [-1, 1] and the largest |value| exactly 1."""
    import numpy as np
    import scipy.sparse as sp

    from dualboost.oracles import make_oracle

    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 6)) * (rng.random((40, 6)) < 0.5)
    y = np.where(rng.random(40) < 0.5, 1.0, -1.0)
    dense = make_oracle("kernel").fit(X, y)
    sparse = make_oracle("kernel").fit(sp.csr_matrix(X), y)
    U, hyps = dense.all_columns()
    assert np.all(np.abs(U) <= 1.0) and np.isclose(np.abs(U).max(), 1.0)
    for _ in range(5):
        d = rng.dirichlet(np.ones(40))
        for oracle in (dense, sparse):
            h, u = oracle.best(d)
            assert np.isclose(u @ d, (U.T @ d).max())
            assert np.allclose(u, y * h.predict(X))
            assert np.allclose(h.predict(sp.csr_matrix(X)), h.predict(X))


def test_fw_report_quick(tmp_path, capsys) -> None:
    if "fw-report" not in EXPERIMENTS:
        pytest.skip("this version has no fw / mlpboost algorithms")
    code, out = _run(tmp_path, "fw-report")
    assert code == 0, capsys.readouterr().err
    doc = _outputs_ok(out)
    retrains = [r for r in doc["runs"] if r["kwargs"]["fold"] is None]
    assert retrains and all(0.0 <= r["result"]["error"] <= 1.0 for r in retrains)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "| MLPB (SS only) | 0.08 |" in report  # seed 003 Table 3's entry beside ours


def test_fw_report_timing_verdicts_say_within_noise_for_small_differences() -> None:
    """fw-report's claims flipped between runs at sub-second differences (issue 29)."""
    from dualboost.reproduce.fw_report import faster

    assert faster(0.20, 0.10).startswith("within noise")  # 0.1 s: noise
    assert faster(0.38, 0.56).startswith("within noise")
    assert faster(8.0, 9.0).startswith("within noise")  # 1 s but 11 %
    assert faster(1.0, 2.0) == "**yes**"
    assert faster(3.0, 1.0) == "**no**"
    assert faster(float("nan"), 1.0) == "not measured"


@needs_data
def test_shen_li_quick(tmp_path, capsys) -> None:
    if "shen-li" not in EXPERIMENTS:
        pytest.skip("this version has no adaboost_cg / logitboost_cg algorithms")
    code, out = _run(tmp_path, "shen-li", "--data-dir", str(DATA))
    assert code == 0, capsys.readouterr().err
    doc = _outputs_ok(out)
    table4 = [r["result"] for r in doc["runs"] if r["key"][0] == "table4"]
    assert table4
    for res in table4:
        assert res["T"] > 0
        # totally corrective at the same T: never worse on the training set at the snapshot
        assert res["adaboost_cg"]["train"][0] <= res["adaboost"]["train"][0] + 0.05
        # (6) at AdaBoost's rescaled iterate is feasible for (5), so a converged AdaBoost-CG's
        # value can only be lower (up to its eps = 1e-5 on the scale of P, 1/T in (6))
        if res["adaboost_cg"]["status"] == "converged":
            slack = 10 * 1e-5 / res["T"]
            assert res["adaboost_cg"]["objective"][-1] <= res["adaboost"]["objective"][-1] + slack
    assert (out / "fig5_objective.png").is_file() and (out / "fig4_margins.png").is_file()


@needs_data
def test_shen_li_quick_has_adaboost_qp(tmp_path, capsys) -> None:
    """Seed 002 Table 2: AdaBoost-QP beside AdaBoost on both data sets, its T and AdaBoost's
    round chosen on validation from the quick grids, and the QP optimal over the pool."""
    if "shen-li" not in EXPERIMENTS:
        pytest.skip("this version has no adaboost_cg / logitboost_cg algorithms")
    from dualboost.reproduce import shen_li

    code, out = _run(tmp_path, "shen-li", "--data-dir", str(DATA))
    assert code == 0, capsys.readouterr().err
    doc = _outputs_ok(out)
    table2 = [r for r in doc["runs"] if r["key"][0] == "table2"]
    assert {r["key"][1] for r in table2} == {"german", "breast_cancer"}
    for r in table2:
        res = r["result"]
        assert res["adaboost"]["rounds"] in shen_li.QUICK_STOPS
        assert res["adaboost_qp"]["T"] in shen_li.QUICK_TS
        assert res["adaboost_qp_full"]["T"] in shen_li.QUICK_TS
        assert len(res["adaboost_qp"]["valid"]) == len(shen_li.QUICK_TS)
        assert 0 < res["adaboost_qp"]["nonzero"] <= res["adaboost_qp"]["pool"]
        # AdaBoost's normalized weights are a point of the QP's simplex over the pool, so the
        # QP's (39)*T = mean(rho) - var(rho)/(2T) is at least AdaBoost's at the same T
        mv = res["mean_variance"]
        assert mv["adaboost_qp"] >= mv["adaboost"] - 1e-5
        assert res["adaboost_qp"]["min_margin"] <= res["adaboost_qp"]["mean_margin"]
    report = (out / "report.md").read_text(encoding="utf-8")
    # seed 002 Table 2's and Table 3's entries beside ours
    assert "| german (g-numer) | AdaBoost-QP | test error | 0.249 | 0.033 |" in report
    assert "| breast_cancer (b-cancer) | AdaBoost | minimum margin | 0.048 | 0.009 |" in report
    assert "| german (g-numer) | 0.243 | 0.026 |" in report


@needs_data
def test_thesis_tables_takes_a_users_libsvm_file(tmp_path, capsys) -> None:
    """Any LIBSVM file in --data-dir joins the tables (NAME.train + NAME.t concatenated, then
    split 60/20/20); german.csv is linked, not copied."""
    import numpy as np

    data = tmp_path / "data"
    data.mkdir()
    os.symlink(DATA / "german.csv", data / "german.csv")
    rng = np.random.default_rng(0)
    for name, n in (("toy.train", 60), ("toy.t", 20)):
        lines = []
        for _ in range(n):
            label = 1 if rng.random() < 0.5 else -1
            lines.append(f"{label} 1:{rng.random():.3f} 2:{rng.random() + 0.5 * (label > 0):.3f}")
        (data / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = _run(tmp_path, "thesis-tables", "--data-dir", str(data))
    assert code == 0, capsys.readouterr().err
    doc = _outputs_ok(out)
    assert {r["key"][0] for r in doc["runs"]} == {"german", "toy"}
    assert "| raw data | toy | erlp |" in (out / "report.md").read_text(encoding="utf-8")


def _expected_tasks(grid, sizes: dict[str, int]) -> int:
    """The task count of ``grid`` from its definition: per set and class, every algorithm at
    every (nu/N, eta), one AdaBoost run (or one linear SVM per C on the SVM hypotheses) and
    LPBoost at every (eps, nu/N)."""
    from dualboost.reproduce.thesis_tables import _algorithms

    total = 0
    from dualboost.reproduce.thesis_tables import CORRECTIVE

    for N in sizes.values():
        fracs, _ = grid.pairs(N)
        for oracle in grid.classes:
            for algorithm in _algorithms():
                a_fracs, etas = grid.pairs(N, algorithm in CORRECTIVE, oracle)
                total += len(a_fracs) * len(etas)
            total += len(grid.svm_C) if oracle == "kernel" else 1
            total += len(grid.lp_eps) * len(fracs)
    return total


@pytest.mark.parametrize("choice", [None, "reduced", "medium", "table5.3"])
def test_thesis_tables_grid_option_reaches_the_grid(tmp_path, monkeypatch, capsys,
                                                     choice) -> None:
    """--grid picks the grid the tasks come from (and --quick its own): the task count is the
    chosen grid's, the report names it. No fit runs (the runner is replaced)."""
    import numpy as np

    import dualboost.reproduce as reproduce_pkg
    from dualboost.reproduce import thesis_tables as tt

    sizes = {"german": 600, "a9a": 29305}
    monkeypatch.setattr(tt.ThesisTables, "load_data", lambda self, ctx: {
        ds: {"y_train": np.zeros(n), "y_test": np.zeros(n // 3)} for ds, n in sizes.items()
        if not (ctx.quick and ds == "a9a")})
    seen: list = []

    def fake_run(tasks, data, **kwargs):
        seen.append(len(tasks))
        return [{"key": list(t.key), "label": t.label, "kwargs": t.kwargs, "result": None,
                 "seconds": 0.0, "error": "not run"} for t in tasks]

    monkeypatch.setattr(reproduce_pkg, "run_tasks", fake_run)
    counts = {}
    for name, extra in (("quick", ["--quick"]),
                        (choice or tt.DEFAULT_GRID, [] if choice is None else ["--grid", choice])):
        out = tmp_path / name
        main(["reproduce", "thesis-tables", "--out", str(out), "--quiet", *extra])
        counts[name] = seen.pop()
        report = (out / "report.md").read_text(encoding="utf-8")
        assert f"Grid `{name}`" in report
    assert counts["quick"] == _expected_tasks(tt.QUICK, {"german": 600})
    chosen = choice or tt.DEFAULT_GRID
    assert counts[chosen] == _expected_tasks(tt.GRIDS[chosen], sizes)
    assert counts[chosen] > counts["quick"]


def test_thesis_tables_grid_choices_are_checked(tmp_path, capsys) -> None:
    assert main(["reproduce", "thesis-tables", "--grid", "huge", "--out",
                 str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "unknown grid 'huge'" in err and "table5.3" in err
    assert main(["reproduce", "thesis-tables", "--grid", "reduced", "--quick", "--out",
                 str(tmp_path / "o")]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["reproduce", "lpboost-lower-bound", "--grid", "reduced", "--out",
                 str(tmp_path / "o")]) == 2
    assert "--grid does not apply" in capsys.readouterr().err


def test_list_states_each_grids_size_and_time(capsys) -> None:
    from dualboost.reproduce import thesis_tables as tt

    assert main(["reproduce", "--list"]) == 0
    text = capsys.readouterr().out
    for name, grid in tt.GRIDS.items():
        line = next(t for t in text.splitlines() if f"--grid {name}" in t)
        assert f"{_expected_tasks(grid, tt.LISTING_SIZES):,} runs" in line
        assert "estimated" in line and "not estimated" not in line


@needs_data
def test_adaboost_checkpoints_equal_the_full_prediction_matrix() -> None:
    """adaboost_run predicts each distinct stump once and adds up its weights: the errors at
    every checkpoint equal those of the T-column prediction matrix (one column per round)."""
    import numpy as np

    from dualboost.reproduce.datasets import load_german
    from dualboost.reproduce.fitting import error_of, fit, predictions
    from dualboost.reproduce.thesis_tables import adaboost_run

    d = load_german(Context(data_dir=DATA, out=Path(".")))
    data = {"german": d}
    got = adaboost_run(data, dataset="german", oracle="stumps", rounds=200,
                       checkpoints=[50, 100, 200])
    result, _, _ = fit(d["X_train"], d["y_train"], formulation="lpboost", algorithm="adaboost",
                       nu=1, oracle="stumps", max_iter=200)
    assert len({repr(h) for h in result.hypotheses}) < len(result.hypotheses)  # repeats
    H = predictions(result.hypotheses, d["X_test"])
    w = np.asarray(result.weights, dtype=float)
    for c in got["checkpoints"]:
        k = c["rounds"]
        assert c["test_error"] == error_of(w[:k], H, d["y_test"], result.tie_label)
