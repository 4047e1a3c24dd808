"""Many flops at once: one hold'em spot template solved on a set of flops, and the aggregate
reports players study (docs/batch.md).

* :mod:`.flops` -- the 1,755 suit-isomorphic flop classes with their weights (:func:`flop_classes`),
  their textures, and the flop sets a batch runs on (``all``, ``random:N[:SEED]``, a file, a
  texture filter);
* :mod:`.run` -- one flop solved to a target in % of the pot (:func:`solve_flop`: the spot's
  board replaced by the flop, the public tree with suit isomorphism and DCFR, as
  ``zerosum solve holdem --spot`` runs it) and the batch (:func:`run_batch`): each flop a Ray task
  or a plain loop, each result written at once to the results folder, so a stopped batch resumes;
* :mod:`.report` -- reading a results folder (:func:`read_results`), the weighted aggregate
  (:func:`aggregate`), its table as CSV, the heat map's table (:func:`heatmap_table`) and the plots.

May import: numpy, matplotlib (in the plot only, through :mod:`zerosum.plots`), Ray (inside
functions, through :mod:`zerosum.distributed`), :mod:`zerosum.poker`, :mod:`zerosum.public_tree`
(its public functions: the tree builder, the solver, hand classes), :mod:`zerosum.games`,
:mod:`zerosum.distributed`, :mod:`zerosum.plots`, :mod:`zerosum.errors`.  Never the command line
(:mod:`zerosum.cli.batch` calls this).
"""

from __future__ import annotations

#: public name -> the module that defines it, imported on first use
_LAZY = {
    "FlopClass": "flops", "flop_classes": "flops", "flop_set": "flops", "texture": "flops", "canonical": "flops",
    "solve_flop": "run", "run_batch": "run", "load_template": "run",
    "read_results": "report", "aggregate": "report", "heatmap_table": "report", "task_memory": "run",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'zerosum.batch' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["FlopClass", "aggregate", "canonical", "flop_classes", "flop_set", "heatmap_table", "load_template",
           "read_results", "run_batch", "solve_flop", "task_memory", "texture"]
