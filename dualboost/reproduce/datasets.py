"""The thesis's data sets as the experiments read them (thesis §5, Table 5.2).

* a9a: the train / valid / test files as shipped (29,305 / 9,768 / 9,769; 123 binary
  features, the sizes of Table 5.2);
* german: ``german.csv`` split 60/20/20 by ``numpy.random.default_rng(seed).permutation``
  (the thesis's split seed is not given);
* any other LIBSVM file in the data directory (``NAME`` or ``NAME.train`` + ``.test``): all
  rows split 60/20/20 the same way (the thesis's processing: concatenate, then split).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .base import Context, DataNeed, require

A9A = (DataNeed("a9a.train", "the LIBSVM binary data sets page (a9a: UCI Adult), split as in "
                "the thesis's Table 5.2 (29,305 / 9,768 / 9,769)"),
       DataNeed("a9a.valid", "the same split's validation part"),
       DataNeed("a9a.test", "the same split's test part"))
GERMAN = DataNeed("german.csv", "UCI Statlog German credit (LIBSVM german.numer; the thesis "
                  "split it 60/20/20 with an unstated seed)")
#: files in --data-dir that are not extra LIBSVM sets
KNOWN = {"a9a.train", "a9a.valid", "a9a.test", "german.csv", "PROVENANCE.md"}


def load_a9a(ctx: Context) -> dict:
    from ..data import load_dataset

    parts = {}
    for need, part in zip(A9A, ("train", "valid", "test")):
        ds = load_dataset(str(require(ctx, need)), n_features=123)
        parts[part] = (sp.csr_matrix(ds.X), ds.y)
    return _as_split("a9a", parts)


def load_german(ctx: Context) -> dict:
    from ..data import load_dataset

    ds = load_dataset(str(require(ctx, GERMAN)), label="class")
    return split("german", np.asarray(ds.X, dtype=float), ds.y, ctx.seed)


def split(name: str, X, y: np.ndarray, seed: int) -> dict:
    """60/20/20 by a seeded permutation."""
    n = len(y)
    perm = np.random.default_rng(seed).permutation(n)
    a, b = int(round(0.6 * n)), int(round(0.8 * n))
    parts = {p: (X[idx], y[idx]) for p, idx in (("train", perm[:a]), ("valid", perm[a:b]),
                                                 ("test", perm[b:]))}
    return _as_split(name, parts)


def _as_split(name: str, parts: dict) -> dict:
    out = {"name": name}
    for p, (X, y) in parts.items():
        out[f"X_{p}"], out[f"y_{p}"] = X, np.asarray(y, dtype=float)
    return out


def extra_libsvm(ctx: Context) -> list[dict]:
    """Every other LIBSVM file in --data-dir, split 60/20/20 (files ``NAME.t``/``NAME.test``
    are concatenated with ``NAME`` / ``NAME.train`` first)."""
    from ..data import load_dataset
    from ..errors import DualBoostInputError

    if ctx.data_dir is None:
        return []
    groups: dict[str, list[Path]] = {}
    for p in sorted(Path(ctx.data_dir).iterdir()):
        if not p.is_file() or p.name in KNOWN or p.name.startswith(".") or \
                p.suffix.lower() in (".md", ".csv", ".txt", ".json", ".png"):
            continue
        stem = p.name
        for suffix in (".train", ".test", ".t", ".valid"):
            if stem.endswith(suffix):
                stem = stem[: -len(suffix)]
        groups.setdefault(stem, []).append(p)
    found = []
    for stem, files in groups.items():
        try:
            loaded = [load_dataset(str(f)) for f in files]
        except DualBoostInputError:
            continue  # not a LIBSVM file
        width = max(d.X.shape[1] for d in loaded)
        X = sp.vstack([sp.csr_matrix(d.X, shape=(d.X.shape[0], width))
                       if d.X.shape[1] == width else
                       sp.hstack([sp.csr_matrix(d.X),
                                  sp.csr_matrix((d.X.shape[0], width - d.X.shape[1]))])
                       for d in loaded]).tocsr()
        y = np.concatenate([d.y for d in loaded])
        found.append(split(stem, X, y, ctx.seed))
    return found
