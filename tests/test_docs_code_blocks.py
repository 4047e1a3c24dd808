"""Every Python code block of the documentation runs: the ```python blocks of docs/*.md and README.md,
each page's blocks in order in one fresh namespace (a later block may use an earlier one's names), in
a fresh temporary folder (blocks that save files write there).

A block that must not run here (it needs files the reader brings, or takes minutes) is marked on the
line before its fence with ``<!-- no-run: the reason -->``; the reason is required, and a marker
with no block after it is refused, so that markers cannot drift away from their blocks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: the marker of a block not run, on the line before the fence: <!-- no-run: REASON -->
NO_RUN = re.compile(r"^\s*<!--\s*no-run\s*(?::\s*(?P<reason>.*?))?\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w+-]*)\s*$")


def code_blocks(text: str) -> list[dict]:
    """The fenced blocks of a Markdown page: language, first line (1-based), code (its indent
    removed), and the no-run reason where marked (None: runs)."""
    lines = text.splitlines()
    blocks, k = [], 0
    while k < len(lines):
        m = FENCE.match(lines[k])
        if not m or not m.group("lang"):
            k += 1
            continue
        indent, start = m.group("indent"), k + 1
        end = start
        while end < len(lines) and not re.match(rf"^{re.escape(indent)}```\s*$", lines[end]):
            end += 1
        prev = next((lines[j] for j in range(k - 1, -1, -1) if lines[j].strip()), "")
        marked = NO_RUN.match(prev)
        code = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[start:end])
        blocks.append({"lang": m.group("lang"), "line": start, "code": code,
                       "no_run": (marked.group("reason") or "") if marked else None})
        k = end + 1
    return blocks


def _pages_with_python() -> list[Path]:
    """The pages with a Python block to run (pages whose every block is marked no-run are left out)."""
    return [p for p in PAGES if any(b["lang"] == "python" and b["no_run"] is None for b in code_blocks(p.read_text()))]


def test_the_pages_have_python_blocks():
    """The extraction finds the blocks (a broken pattern would make the test below vacuous)."""
    names = {p.name for p in _pages_with_python()}
    assert {"README.md", "game-api.md", "getting-started.md", "search.md"} <= names
    api = [b for b in code_blocks((ROOT / "docs" / "game-api.md").read_text()) if b["lang"] == "python"]
    assert any("zerosum.games.register(" in b["code"] and b["no_run"] is None for b in api)


def test_markers_have_reasons_and_blocks():
    for page in PAGES:
        text = page.read_text()
        lines = text.splitlines()
        marked_at = {b["line"] for b in code_blocks(text) if b["no_run"] is not None}
        for k, line in enumerate(lines):
            m = NO_RUN.match(line)
            if not m:
                continue
            assert (m.group("reason") or "").strip(), f"{page.name}:{k + 1}: <!-- no-run: REASON --> needs a reason"
            nxt = next((j for j in range(k + 1, len(lines)) if lines[j].strip()), None)
            assert nxt is not None and FENCE.match(lines[nxt]) and nxt + 1 in marked_at, \
                f"{page.name}:{k + 1}: a no-run marker must come right before a code block"


@pytest.mark.parametrize("page", _pages_with_python(), ids=lambda p: p.name)
def test_python_blocks_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    ran = 0
    for block in code_blocks(page.read_text()):
        if block["lang"] != "python" or block["no_run"] is not None:
            continue
        try:
            exec(compile(block["code"], f"{page.name}:{block['line']}", "exec"), namespace)  # noqa: S102 -- the docs are ours
        except Exception as e:  # noqa: BLE001 -- any error of a block fails it, named
            pytest.fail(f"{page.name}, the block at line {block['line']}: {type(e).__name__}: {e}")
        ran += 1
    assert ran > 0
