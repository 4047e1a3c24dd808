"""Experiments: each module reproduces a table of the seeds (or goes beyond one) and returns a
:class:`~zerosum.experiments.report.Report`.  ``zerosum experiment NAME`` runs it.

To add one: write ``zerosum/experiments/NAME.py`` with a function returning a ``Report`` (it takes
``plot``, a PNG path or None, and ``progress``, False under ``--json``; it never prints, and says its
progress through :mod:`zerosum.progress`), add one line to :data:`EXPERIMENTS`, and its command,
options and all, to ``zerosum/cli/experiment.py`` (made with ``experiment_command`` there).
"""

#: CLI name -> module (inside zerosum.experiments)
EXPERIMENTS: dict[str, str] = {
    "discounting": "discounting",
    "cfr": "cfr",
    "mccfr": "mccfr",
    "sampling-pays": "sampling_pays",
    "psro": "psro",
    "lab15": "lab15",
    "kuhn": "kuhn",
    "dynamics": "dynamics",
    "learned-oracles": "learned_oracles",
    "approximation": "approximation",
    "deep": "deep",
    "subgames": "subgames",
    "abstraction": "subgames",
    "depth-limited": "subgames",
}
