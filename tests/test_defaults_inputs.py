"""Issue 31: inputs refused cleanly (duplicate CSV columns, an implausible --n-features, a label
the model never saw leaves no predictions file), a summary that fits on a screen, and the
algorithms' own defaults (max_iter sized per algorithm, stagewise rounds that finish, a JSON
history of bounded size)."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from dualboost.cli import main


def _csv(path, header, rows):
    path.write_text(header + "\n" + "\n".join(",".join(str(v) for v in r) for r in rows) + "\n")
    return path


def _rows(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    return [list(np.round(x, 4)) + [int(v)] for x, v in zip(X, y)]


def test_fit_refuses_duplicate_column_names(tmp_path, capsys):
    data = _csv(tmp_path / "dup.csv", "a,b,a,label", _rows())
    code = main(["fit", "--data", str(data), "--label", "label", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "two columns named 'a'" in lines[0] and "1 and 3" in lines[0]


def test_an_implausible_n_features_is_refused_before_allocating(tmp_path, capsys):
    data = tmp_path / "small.svm"
    data.write_text("".join(f"{1 if i % 2 else -1} 1:{i * 0.1:.1f} 2:{1 - i * 0.05:.2f}\n"
                            for i in range(20)))
    for width in ("1000000000000", "10000000"):
        tick = time.perf_counter()
        code = main(["fit", "--data", str(data), "--n-features", width, "--quiet"])
        err = capsys.readouterr().err
        assert code == 2 and "implausible" in err and len(err.strip().splitlines()) == 1
        assert time.perf_counter() - tick < 5
    # a plausible width (the training data's, a little wider than this file's) still runs
    code = main(["fit", "--data", str(data), "--n-features", "5", "--max-iter", "3",
                 "--quiet"])
    capsys.readouterr()
    assert code in (0, 3)


def test_predict_on_an_unseen_label_leaves_no_file(tmp_path, capsys):
    train = _csv(tmp_path / "train.csv", "a,b,c,label", _rows())
    model = tmp_path / "model.json"
    assert main(["fit", "--data", str(train), "--label", "label", "--json", str(model),
                 "--quiet", "--max-iter", "5"]) in (0, 3)
    rows = _rows(seed=1)
    rows[3][-1] = 7  # a class the model never saw
    test = _csv(tmp_path / "test.csv", "a,b,c,label", rows)
    out = tmp_path / "pred.csv"
    capsys.readouterr()
    code = main(["predict", "--model", str(model), "--data", str(test), "--label", "label",
                 "--out", str(out)])
    assert code == 2
    assert not out.exists()
    assert not list(tmp_path.glob(".pred*"))  # no temporary file either


def test_a_default_fit_prints_a_short_summary(tmp_path, capsys):
    out = tmp_path / "fit.json"
    code = main(["fit", "--data", "breast_cancer", "--json", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = captured.out.strip().splitlines()
    assert len(lines) <= 20, captured.out
    assert all(len(line) <= 160 for line in lines)
    doc = json.loads(out.read_text())
    for warning in doc["warnings"]:  # one line each, with its code
        assert sum(warning["code"] in line for line in lines) >= 1
    # --verbose: the full table
    code = main(["fit", "--data", "breast_cancer", "--verbose"])
    verbose = capsys.readouterr().out
    assert len(verbose.splitlines()) > len(lines)


def test_notes_are_one_line_each():
    from dualboost.cli.summary import diagnostic_line

    long = {"code": "vacuous_guarantee", "message": "the guarantee is empty: " + "x " * 400}
    kind, line = diagnostic_line(long)
    assert kind == "note" and "\n" not in line and len(line) <= 120
    kind, line = diagnostic_line({"code": "degenerate_combination", "message": "y " * 300})
    assert kind == "warning" and len(line) <= 120


def test_stagewise_rounds_finish(tmp_path, capsys):
    out = tmp_path / "ada.json"
    code = main(["fit", "--data", "breast_cancer", "--algorithm", "adaboost", "--max-iter",
                 "200", "--json", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(out.read_text())
    assert doc["status"] == "rounds_completed" and doc["success"]
    assert "rounds_completed" in captured.out


def test_corrective_default_max_iter_comes_from_its_bound():
    from dualboost.algorithms.corrective import CORRECTIVE_MAX_ITER
    from dualboost.api import run

    rng = np.random.default_rng(2)
    X = rng.normal(size=(120, 4))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=120) > 0, 1.0, -1.0)
    for algorithm in ("corrective_erlpboost", "sss", "lpboost", "fw"):
        result = run(X, y, algorithm=algorithm, nu_frac=0.5, eps=0.05, kkt=False)
        if algorithm in ("corrective_erlpboost", "sss"):
            assert 1000 <= result.max_iter <= CORRECTIVE_MAX_ITER
        elif algorithm == "lpboost":
            assert result.max_iter == 1000
        else:
            assert result.max_iter > 1000
        assert result.status != "max_iter", (algorithm, result.message)


def test_the_json_history_is_thinned():
    from types import SimpleNamespace

    from dualboost import model_io

    records = [SimpleNamespace(t=i, notice="slow" if i == 2500 else None)
               for i in range(50_000)]
    kept = model_io.thinned(records)
    assert len(kept) <= model_io.HISTORY_RECORD_LIMIT + 1
    ts = [r.t for r in kept]
    assert ts == sorted(ts) and ts[0] == 0 and ts[-1] == 49_999 and 2500 in ts
    assert model_io.thinned(records[:100]) == records[:100]


@pytest.mark.parametrize("n", [1, 3])
def test_unique_headers_still_read(tmp_path, n):
    data = _csv(tmp_path / "ok.csv", "a,b,c,label", _rows(20 * n))
    assert main(["fit", "--data", str(data), "--label", "label", "--max-iter", "3",
                 "--quiet"]) in (0, 3)
