"""README.md and the walkthroughs in ``docs/*.md`` run and print what they say they print.

A walkthrough is a markdown file with ```python code blocks, each immediately followed by a
```text block holding exactly what that code printed. The python blocks of one file run top to
bottom in one namespace (like notebook cells), from the project root, with matplotlib's Agg
backend and ``DUALBOOST_FIGURE_DIR`` pointing at a temporary directory (so figures are redrawn
there and the tracked ``docs/figures`` are left alone). Each block's stdout is compared with its
text block:

* whitespace is normalized (runs of blanks collapse, blank lines are dropped);
* numbers are compared with a relative tolerance of 1e-3 or an absolute one of 1e-6;
* timings, i.e. numbers followed by the unit ``s``, ``sec`` or ``seconds`` (``1.86 s``), are not
  compared at all;
* everything else must be identical.

Files without python blocks (e.g. ``docs/json_schema.md``) are not walkthroughs and are skipped.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import math
import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
SKIP = {"json_schema.md"}

REL_TOL = 1e-3
ABS_TOL = 1e-6

FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
TIMING_UNIT = re.compile(r"\s*(?:s|sec|seconds)\b")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


@dataclass
class Block:
    lang: str
    text: str
    line: int  # 1-based line of the opening fence


def parse_blocks(markdown: str) -> list[Block]:
    """All fenced code blocks of a markdown text, in order."""
    blocks: list[Block] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2).lower(), i
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"line {start + 1}: code block is never closed")
        blocks.append(Block(lang, "\n".join(body) + ("\n" if body else ""), start + 1))
        i += 1
    return blocks


def cells(markdown: str) -> list[tuple[Block, Block]]:
    """(python block, the text block right after it) pairs; raises on a python block without one."""
    blocks = parse_blocks(markdown)
    pairs = []
    for k, block in enumerate(blocks):
        if block.lang != "python":
            continue
        after = blocks[k + 1] if k + 1 < len(blocks) else None
        if after is None or after.lang != "text":
            raise ValueError(f"line {block.line}: a ```python block must be followed by a ```text "
                             "block with its output")
        pairs.append((block, after))
    return pairs


def walkthroughs() -> list[Path]:
    if not DOCS.is_dir():
        return []
    candidates = [REPO / "README.md", *sorted(DOCS.glob("*.md"))]
    return [p for p in candidates
            if p.is_file() and p.name not in SKIP
            and any(b.lang == "python" for b in parse_blocks(p.read_text(encoding="utf-8")))]


# --- comparison ----------------------------------------------------------------------------

def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _tokens(line: str) -> list[tuple[str, float | str]]:
    """Split a normalized line into ('text', str) and ('num', value) / ('time', str) pieces."""
    out: list[tuple[str, float | str]] = []
    pos = 0
    for m in NUMBER.finditer(line):
        if m.start() > pos:
            out.append(("text", line[pos:m.start()]))
        kind = "time" if TIMING_UNIT.match(line, m.end()) else "num"
        out.append((kind, float(m.group()) if kind == "num" else m.group()))
        pos = m.end()
    if pos < len(line):
        out.append(("text", line[pos:]))
    return out


def _close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(ABS_TOL, REL_TOL * max(abs(a), abs(b))) + 1e-15


def line_mismatch(expected: str, actual: str) -> str | None:
    """None when the two normalized lines agree, else a short reason."""
    te, ta = _tokens(expected), _tokens(actual)
    if [k for k, _ in te] != [k for k, _ in ta]:
        return "different layout of text and numbers"
    for (kind, e), (_, a) in zip(te, ta):
        if kind == "text" and e != a:
            return f"text {e!r} != {a!r}"
        if kind == "num" and not _close(e, a):
            return f"number {e!r} != {a!r} (rel tol {REL_TOL:g}, abs tol {ABS_TOL:g})"
    return None


def output_mismatch(expected: str, actual: str) -> str | None:
    """None when the printed output matches the documented one, else a readable report."""
    exp, act = _lines(expected), _lines(actual)
    reasons = []
    if len(exp) != len(act):
        reasons.append(f"{len(exp)} documented non-blank lines, {len(act)} printed")
    else:
        for n, (e, a) in enumerate(zip(exp, act), start=1):
            why = line_mismatch(e, a)
            if why:
                reasons.append(f"output line {n}: {why}")
    if not reasons:
        return None
    diff = "\n".join(difflib.unified_diff(exp, act, "documented", "printed", lineterm=""))
    return "\n".join(reasons) + "\n" + diff


# --- the tests -----------------------------------------------------------------------------

def test_comparison_rules():
    assert output_mismatch("T = 40  margin 0.277207\n", "T  =  40 margin 0.2772071\n") is None
    assert output_mismatch("gap 1.39e-13\n", "gap 0.0\n") is None  # absolute tolerance
    assert output_mismatch("took 1.86 s, 2s, 3 seconds\n", "took 9.99 s, 5s, 1 seconds\n") is None
    assert output_mismatch("T = 40\n", "T = 41\n") is not None
    assert output_mismatch("margin 0.2772\n", "margin 0.2792\n") is not None
    assert output_mismatch("True\n", "False\n") is not None
    assert output_mismatch("a\nb\n", "a\n") is not None
    assert output_mismatch("2 stumps\n", "3 stumps\n") is not None  # 's' of a word is no unit
    with pytest.raises(ValueError, match="followed by a ```text block"):
        cells("```python\nprint(1)\n```\nprose\n```python\nprint(2)\n```\n```text\n2\n```\n")


def test_walkthroughs_exist_and_are_well_formed():
    docs = walkthroughs()
    assert docs, "no walkthrough with ```python blocks found in docs/"
    for path in docs:
        text = path.read_text(encoding="utf-8")
        assert cells(text), path
        for target in IMAGE.findall(text):
            if "://" not in target:
                assert (path.parent / target).is_file(), f"{path.name}: missing image {target}"


def test_swap_regularizer_walkthrough_is_run():
    # docs/walkthrough_swap_regularizer.md writes a regularizer file, verifies it and breaks it;
    # it must stay a walkthrough (python blocks with outputs) so test_walkthrough_output runs it
    assert "walkthrough_swap_regularizer.md" in {p.name for p in walkthroughs()}


@pytest.mark.slow
@pytest.mark.parametrize("path", walkthroughs(), ids=lambda p: p.name)
def test_walkthrough_output(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("DUALBOOST_FIGURE_DIR", str(tmp_path))
    monkeypatch.chdir(REPO)

    namespace: dict = {"__name__": f"docs_{path.stem}"}
    failures = []
    for number, (code, documented) in enumerate(cells(path.read_text(encoding="utf-8")), start=1):
        where = f"{path.name}, python block {number} (line {code.line})"
        stdout = io.StringIO()
        try:
            with contextlib.redirect_stdout(stdout):
                exec(compile(code.text, f"<{where}>", "exec"), namespace)
        except Exception:
            pytest.fail(f"{where} raised:\n{traceback.format_exc()}\nprinted so far:\n"
                        f"{stdout.getvalue()}", pytrace=False)
        problem = output_mismatch(documented.text, stdout.getvalue())
        if problem:
            failures.append(f"{where}: output differs from the text block at line "
                            f"{documented.line}\n{problem}")
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)

    # Figures the walkthrough links to under figures/ must have been redrawn by its code.
    for target in IMAGE.findall(path.read_text(encoding="utf-8")):
        if target.startswith("figures/"):
            assert (tmp_path / Path(target).name).is_file(), f"{target} was not regenerated"


def _first_block(markdown: str, lang: str, after: str = "") -> str:
    start = markdown.index(after) if after else 0
    return next(b.text for b in parse_blocks(markdown[start:]) if b.lang == lang)


def test_readme_swap_example_is_the_shipped_file():
    """README's DoubledEntropy is docs/examples/doubled_entropy.py, which tests/test_swap_path.py
    verifies and fits."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = _first_block(readme, "py", after="## Swap the regularizer")
    shipped = (DOCS / "examples" / "doubled_entropy.py").read_text(encoding="utf-8")
    assert block.strip() == shipped.strip()


def test_walkthrough_file_is_the_shipped_file():
    page = (DOCS / "walkthrough_swap_regularizer.md").read_text(encoding="utf-8")
    shipped = (DOCS / "examples" / "power43.py").read_text(encoding="utf-8")
    assert _first_block(page, "python").strip() == shipped.strip()
