"""Issue 50's rule for the public tree: no function over 80 lines (the one pass, ``dfs_from``,
included) or over 8 parameters (``self``/``cls`` not counted, ``*args`` and ``**kwargs``
counted).  Numba kernels are exempt from the parameters' rule only: their node operations take
the arrays one by one (bundling them cost 3-5 % of a pass's speed);
a kernel is a function decorated with ``njit``/``jit``/``intrinsic`` or with a module name bound
to an ``njit(...)`` call (``_pass``, ``_node_pass``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "zerosum" / "public_tree"
MAX_LINES, MAX_PARAMS = 80, 8


def _functions():
    """(path, name, lines, parameters, is a Numba kernel) of every function under ROOT."""
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text())
        jit = {"njit", "jit", "intrinsic"}
        for node in tree.body:  # module names bound to njit(...): decorators in their own right
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and "jit" in ast.unparse(node.value.func):
                jit |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = node.args
            params = [x for x in a.posonlyargs + a.args + a.kwonlyargs if x.arg not in ("self", "cls")]
            n_params = len(params) + (a.vararg is not None) + (a.kwarg is not None)
            names = {n.id if isinstance(n, ast.Name) else n.attr for d in node.decorator_list for n in ast.walk(d)
                     if isinstance(n, (ast.Name, ast.Attribute))}
            yield path.relative_to(ROOT), node.name, node.end_lineno - node.lineno + 1, n_params, bool(names & jit)


def test_no_long_python_function_in_the_public_tree():
    found = list(_functions())
    assert len(found) > 100 and any(kernel for *_, kernel in found)  # the walk saw the package and its kernels
    over = [f"{path}:{name} ({lines} lines, {n} parameters)" for path, name, lines, n, kernel in found
            if not kernel and (lines > MAX_LINES or n > MAX_PARAMS)]
    assert not over, f"split these into named steps or bundle their parameters: {over}"


def test_no_function_of_the_public_tree_over_80_lines_kernels_included():
    """The pass a newcomer reads first, ``kernels.dfs_from``, among them: its modes are written
    in its module's docstring, not in a page of its own docstring."""
    found = list(_functions())
    assert any(name == "dfs_from" and kernel for _, name, *_, kernel in found)
    over = [f"{path}:{name} ({lines} lines)" for path, name, lines, _, _ in found if lines > MAX_LINES]
    assert not over, f"split these into named steps: {over}"
