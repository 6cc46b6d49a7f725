"""``dualboost predict``: apply the model saved by ``dualboost fit --json`` to new data.

One ``prediction,score`` line per example (an original label value and f(x) = sum_q w_q h_q(x);
the tie rule of :func:`dualboost.model_io.labels_for_scores`), and the accuracy when the data
have labels. The data are read as the model's training data were: CSV columns by name against
the training header, LIBSVM files with the training file's index base
(:func:`dualboost.model_io.load_prediction_data`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..outputs import write_text
from .common import EXIT_OK, CLIError, index_base, positive_int, print_note
from .files import check_files, existing


def add_parser(sub: Any) -> None:
    predict = sub.add_parser(
        "predict", help="apply a model saved by 'dualboost fit --json' to new data",
        description="Apply the model saved by 'dualboost fit --json' to new data: one line per "
                    "example with the prediction (an original label value) and the score "
                    "f(x) = sum_q w_q h_q(x); a score of 0 (within 1e-9) goes to the training "
                    "set's majority class. Prints the accuracy when the data have labels. "
                    "--out may not be the --model or the --data file (exit 2 before any work).",
    )
    predict.add_argument("--model", required=True, metavar="RUN.json",
                         help="the JSON written by 'dualboost fit --json' (stumps, raw "
                              "features or kernel hypotheses; a kernel hypothesis stores its "
                              "training row and scale, and its value on new data is clipped "
                              "to [-1, 1])")
    predict.add_argument("--data", required=True, metavar="SPEC",
                         help="a .csv file, a LIBSVM file, or breast_cancer. A CSV file with a "
                              "header is matched by column name against the training header "
                              "(a missing feature column is an error; other columns, e.g. ids, "
                              "are ignored and said so); without a header, or for a model "
                              "trained without one, the columns are the model's features in "
                              "order, optionally followed by a label column. Also .npy / "
                              ".npz (dense X and y, or scipy.sparse.save_npz; no column names: "
                              "matched by position, said so) and Parquet (a file, a directory "
                              "or a quoted glob; matched by column name like a CSV header)")
    predict.add_argument("--label", metavar="NAME", default=None,
                         help="label column of a CSV or Parquet file, or of a .npy/.npz "
                              "file 'last' or a 0-based index (default: the training label "
                              "column when the file has it; by position, the last column when "
                              "there is one more column than the model has features)")
    predict.add_argument("--n-features", type=positive_int, default=None, metavar="K",
                         help="width of a LIBSVM file (default: the model's n_features)")
    predict.add_argument("--index-base", type=index_base, default=None, metavar="{0,1}",
                         help="feature numbering of a LIBSVM file (default: the training "
                              "file's, recorded in the model; must agree with it)")
    predict.add_argument("--out", metavar="PRED.csv", default=None,
                         help="write 'prediction,score' rows to this CSV file (default: "
                              "stdout); the accuracy line then goes to stdout, else to stderr")


def _label_text(value: Any) -> str:
    """An original label for a CSV cell: integral floats without '.0' (a CSV label '1' was
    read as 1.0)."""
    import numpy as np

    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value.item() if isinstance(value, np.generic) else value)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from ..model_io import encode_against, load_model, load_prediction_data

    check_files([*existing("--model", args.model), *existing("--data", args.data)],
                [("--out", args.out, "csv")])
    model = load_model(args.model)
    width = _agreeing("--n-features", args.n_features, "n_features", model.n_features)
    base = _agreeing("--index-base", args.index_base, "libsvm_index_base", model.index_base,
                     " (the training file's numbering)")
    data = load_prediction_data(args.data, n_features=width, label=args.label,
                                feature_names=model.feature_names,
                                label_column=model.label_column, index_base=base)
    for note in data.notes:
        print_note(note)
    scores = model.decision_function(data.X)
    predictions = model.predict_scores(scores)
    lines = ["prediction,score"] + [f"{_label_text(p)},{float(v)!r}"
                                    for p, v in zip(predictions, scores)]
    text = "\n".join(lines) + "\n"
    # the labels are checked before anything is written: a label the model never saw is an
    # error (exit 2) that leaves no predictions file behind (write_text renames a complete
    # temporary file into place)
    truth = (encode_against(data.labels, model.classes) if data.labels is not None else None)
    if args.out is not None:
        write_text(args.out, text, "--out")
    else:
        sys.stdout.write(text)
    if truth is not None:
        correct = int(np.sum(encode_against(predictions, model.classes) == truth))
        n = truth.size
        print(f"accuracy {correct / n:.4f} ({correct} of {n} correct, error "
              f"{1 - correct / n:.4f}) on {data.name}",
              file=sys.stdout if args.out is not None else sys.stderr, flush=True)
    return EXIT_OK


def _agreeing(option: str, given: Any, key: str, recorded: Any, why: str = "") -> Any:
    """The model's recorded value, or the option's where the model has none; an option that
    contradicts the model is an error (the model was trained on that reading of the data)."""
    if given is None:
        return recorded
    if recorded is not None and given != recorded:
        raise CLIError(f"{option} {given} differs from the model's {key} = {recorded}{why}")
    return given
