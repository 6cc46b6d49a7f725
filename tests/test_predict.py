"""Models outside Python (issue 9, item 5): the JSON of ``dualboost fit`` is a complete model.

``dualboost predict`` must reproduce the fit's own scores exactly (same stumps, same weights, same
summation order) and the predictions with the documented tie rule; the references here are
computed from the data and the fitted BoostResult, not from the code under test.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dualboost.api import run
from dualboost.cli import main
from dualboost.data import load_dataset, shared_data_dir
from dualboost.errors import DualBoostInputError
from dualboost.model_io import load_model, majority_class


def read_predictions(path) -> tuple[list[str], np.ndarray]:
    lines = path.read_text().splitlines()
    assert lines[0] == "prediction,score"
    rows = [line.split(",") for line in lines[1:]]
    return [r[0] for r in rows], np.array([float(r[1]) for r in rows])


def reference_labels(result, X, classes, y_pm) -> tuple[list[str], np.ndarray]:
    """Labels from BoostResult.decision_function with the documented rule (ties: majority)."""
    scores = result.decision_function(X)
    majority = classes[1] if np.sum(y_pm > 0) > np.sum(y_pm < 0) else classes[0]
    labels = np.where(scores > 0, classes[1], classes[0]).astype(object)
    labels[np.abs(scores) <= 1e-9] = majority  # ties: 0 up to the weights' rounding
    text = [str(int(v)) if float(v).is_integer() else str(v) for v in labels]
    return text, scores


def _fit_and_predict(tmp_path, capsys, data_args, fit_args, run_kwargs, X, y_pm, classes):
    model = tmp_path / "run.json"
    pred = tmp_path / "pred.csv"
    code = main(["fit", *data_args, *fit_args, "--json", str(model), "--quiet"])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    code = main(["predict", "--model", str(model), *data_args, "--out", str(pred)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    labels, scores = read_predictions(pred)
    result = run(X, y_pm, **run_kwargs)  # the same fit in Python
    ref_labels, ref_scores = reference_labels(result, X, classes, y_pm)
    assert np.array_equal(scores, ref_scores)  # exactly: same stumps, weights, order
    assert labels == ref_labels
    accuracy = float(np.mean(np.asarray(labels) == np.asarray(
        [str(int(c)) if float(c).is_integer() else str(c)
         for c in classes[(y_pm > 0).astype(int)]])))
    assert f"accuracy {accuracy:.4f}" in captured.out
    return result, json.loads(model.read_text())


def test_predict_reproduces_the_fit_on_breast_cancer_csv(tmp_path, capsys):
    ds = load_dataset("breast_cancer")
    labels = ds.classes[(ds.y > 0).astype(int)]
    header = ",".join([f"f{j}" for j in range(ds.F)] + ["target"])
    np.savetxt(tmp_path / "bc.csv", np.c_[ds.X, labels], delimiter=",", fmt="%.17g",
               header=header, comments="")
    result, doc = _fit_and_predict(
        tmp_path, capsys, ["--data", str(tmp_path / "bc.csv"), "--label", "target"],
        ["--nu-frac", "0.2", "--eps", "0.05"], {"nu_frac": 0.2, "eps": 0.05},
        ds.X, ds.y, ds.classes)
    assert doc["n_features"] == ds.F and doc["classes"] == [0.0, 1.0]
    assert doc["tie_class"] == majority_class(ds.y, [0.0, 1.0])


def test_predict_reproduces_the_fit_on_german(tmp_path, capsys):
    root = shared_data_dir()
    path = root / "german.csv" if root is not None else None
    if path is None or not path.is_file():
        pytest.skip("german.csv is not available")
    ds = load_dataset(str(path))
    _fit_and_predict(tmp_path, capsys, ["--data", str(path)],
                     ["--formulation", "lpboost", "--nu-frac", "0.2", "--eps", "0.05"],
                     {"formulation": "lpboost", "nu_frac": 0.2, "eps": 0.05},
                     ds.X, ds.y, ds.classes)


def test_predict_raw_features_and_csv_without_labels(tmp_path, capsys):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, "yes", "no")
    rows = [",".join([*map(repr, map(float, x)), label]) for x, label in zip(X, y)]
    (tmp_path / "train.csv").write_text("a,b,c,y\n" + "\n".join(rows) + "\n")
    model = tmp_path / "run.json"
    assert main(["fit", "--data", str(tmp_path / "train.csv"), "--oracle", "raw", "--eps", "0.1",
                 "--json", str(model), "--quiet"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    doc = json.loads(model.read_text())
    assert doc["classes"] == ["no", "yes"] and doc["hypotheses"][0]["type"] == "raw"
    # new data without a label column: features only, no accuracy line
    X_new = rng.normal(size=(7, 3)) * 3  # beyond the training range: raw features clip
    (tmp_path / "new.csv").write_text("\n".join(",".join(map(repr, map(float, x)))
                                                for x in X_new) + "\n")
    assert main(["predict", "--model", str(model), "--data", str(tmp_path / "new.csv")]) == 0
    captured = capsys.readouterr()
    assert "accuracy" not in captured.out + captured.err
    lines = captured.out.splitlines()
    assert lines[0] == "prediction,score" and len(lines) == 8
    # independent: f(x) = sum_q w_q s_q clip((x_j - mid) / half, -1, 1)
    f = np.zeros(7)
    for w, h in zip(doc["weights"], doc["hypotheses"]):
        mid, half = (h["min"] + h["max"]) / 2, (h["max"] - h["min"]) / 2
        f += w * h["sign"] * np.clip((X_new[:, h["feature"]] - mid) / half, -1, 1)
    scores = np.array([float(line.split(",")[1]) for line in lines[1:]])
    np.testing.assert_allclose(scores, f, atol=1e-12)
    assert [line.split(",")[0] for line in lines[1:]] == list(np.where(f > 0, "yes", "no"))


def test_ties_go_to_tie_class():
    doc = {"weights": [0.5, 0.5], "classes": ["a", "b"], "tie_class": "b", "n_features": 2,
           "hypotheses": [{"type": "stump", "feature": 1, "threshold": 0.0, "sign": 1},
                          {"type": "stump", "feature": 1, "threshold": 0.0, "sign": -1}]}
    model = load_model(doc)
    X = np.array([[0.0, -1.0], [0.0, 2.0]])
    assert np.all(model.decision_function(X) == 0)
    assert list(model.predict(X)) == ["b", "b"]
    # 0 up to rounding is a tie (a cancelling pair whose LP weights carry 1e-10 errors) ...
    doc["weights"] = [0.5 + 3e-12, 0.5 - 3e-12]
    assert list(load_model(doc).predict(X)) == ["b", "b"]
    # ... a score beyond 1e-9 is not
    doc["weights"] = [0.5 + 1e-8, 0.5 - 1e-8]
    assert list(load_model(doc).predict(X)) == ["a", "b"]
    doc["weights"] = [0.5, 0.5]
    doc["tie_class"] = None  # older documents: classes[0]
    assert list(load_model(doc).predict(X)) == ["a", "a"]
    assert majority_class(np.array([-1, 1, 1]), ["a", "b"]) == "b"
    assert majority_class(np.array([-1, 1]), ["a", "b"]) == "a"


def test_constant_stump_round_trips():
    doc = {"weights": [1.0], "classes": [-1, 1], "n_features": 1,
           "hypotheses": [{"type": "stump", "feature": 0, "threshold": None, "sign": -1}]}
    assert list(load_model(doc).predict(np.array([[5.0], [-5.0]]))) == [-1, -1]


BASE = {"weights": [1.0], "classes": [0, 1],
        "hypotheses": [{"type": "stump", "feature": 0, "threshold": 0.5, "sign": 1}]}


@pytest.mark.parametrize("change,needle", [
    ({"weights": None}, "'weights'"),
    ({"weights": [1.0, 2.0]}, "2 weights but 1 hypotheses"),
    ({"classes": [0, 0]}, "'classes'"),
    ({"classes": [0]}, "'classes'"),
    ({"hypotheses": [{"type": "column", "index": 0, "n_columns": 3}]}, "not on new data"),
    ({"hypotheses": [{"type": "forest"}]}, "unknown type"),
    ({"hypotheses": [{"type": "tree"}]}, "five non-empty arrays"),
    ({"hypotheses": [{"type": "stump", "feature": -1, "threshold": 0, "sign": 1}]}, "feature"),
    ({"hypotheses": [{"type": "stump", "feature": 0, "sign": 1}]}, "threshold"),
    ({"tie_class": 7}, "tie_class"),
    ({"n_features": 0}, "n_features"),
])
def test_bad_documents_are_one_line_errors(change, needle):
    doc = {**BASE, **change}
    doc = {k: v for k, v in doc.items() if v is not None}
    with pytest.raises(DualBoostInputError, match=needle) as info:
        load_model(doc)
    assert "\n" not in str(info.value)


def test_predict_cli_errors(tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "model.json").write_text(json.dumps({**BASE, "n_features": 2}))
    (tmp_path / "x.csv").write_text("1,2,3,4\n")
    cases = [
        (["--model", str(tmp_path / "bad.json"), "--data", "breast_cancer"], "not JSON"),
        (["--model", str(tmp_path / "none.json"), "--data", "breast_cancer"], "no such model"),
        (["--model", str(tmp_path / "model.json"), "--data", str(tmp_path / "x.csv")],
         "has 4 columns"),
        (["--model", str(tmp_path / "model.json"), "--data", str(tmp_path / "x.csv"),
          "--out", str(tmp_path / "no" / "p.csv")], "does not exist"),
    ]
    for argv, needle in cases:
        code = main(["predict", *argv])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and needle in err[0], (argv, err)
    assert not (tmp_path / "no").exists()


def test_libsvm_prediction_with_the_model_width(tmp_path, capsys):
    (tmp_path / "train.svm").write_text(
        "1 1:1 3:2\n-1 1:-1 2:1\n1 1:2 3:1\n-1 1:-2 2:2\n1 1:1.5\n-1 1:-0.5 3:0.1\n")
    (tmp_path / "new.svm").write_text("1 1:1\n-1 1:-1 2:3\n")
    model = tmp_path / "run.json"
    assert main(["fit", "--data", str(tmp_path / "train.svm"), "--eps", "0.1", "--json",
                 str(model), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(model), "--data", str(tmp_path / "new.svm"),
                 "--out", str(tmp_path / "p.csv")]) == 0
    out = capsys.readouterr().out
    assert "accuracy 1.0000 (2 of 2 correct" in out
    labels, _ = read_predictions(tmp_path / "p.csv")
    assert labels == ["1", "-1"]


def test_readme_train_save_predict(tmp_path):
    """README's "Train, save, predict" commands, run as written in tmp_path."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Train, save, predict", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert [c.split()[:2] for c in commands] == [["dualboost", "fit"], ["dualboost", "predict"]]
    outputs = []
    for command in commands:
        argv = [sys.executable, "-m", "dualboost", *command.split()[1:]]
        proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout)
    doc = json.loads((tmp_path / "model.json").read_text())
    assert doc["status"] == "converged"
    labels, scores = read_predictions(tmp_path / "predictions.csv")
    ds = load_dataset("breast_cancer")
    truth = [str(c) for c in ds.classes[(ds.y > 0).astype(int)]]
    correct = sum(a == b for a, b in zip(labels, truth))
    line = f"accuracy {correct / ds.N:.4f} ({correct} of {ds.N} correct"
    assert line in outputs[1]
    # the README quotes the line it printed (one example either way on another machine)
    quoted = re.search(r"`accuracy ([0-9.]+) \(", section).group(1)
    assert abs(float(quoted) - correct / ds.N) <= 1.5 / ds.N
