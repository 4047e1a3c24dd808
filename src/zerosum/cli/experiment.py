"""``zerosum experiment NAME``: the experiments registered in zerosum.experiments."""

from __future__ import annotations

import click

from ..experiments import EXPERIMENTS
from . import LazyGroup


@click.group(cls=LazyGroup, lazy={name: f"{module}:command" for name, module in EXPERIMENTS.items()},
             package="zerosum.experiments")
def experiment():
    """Run an experiment and print its tables (and draw its figure)."""
