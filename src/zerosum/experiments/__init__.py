"""Experiments: each module reproduces a table of the seeds (or goes beyond one) and returns a
:class:`~zerosum.experiments.report.Report`.  ``zerosum experiment NAME`` runs it.

To add one: write ``zerosum/experiments/NAME.py`` with a ``command`` made by
:func:`~zerosum.experiments.report.experiment_command`, and add one line to :data:`EXPERIMENTS`.
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
}
