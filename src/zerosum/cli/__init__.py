"""The ``zerosum`` command: the only place that parses arguments and prints.  Subcommands live in
their own modules and load on first use, so ``zerosum --help`` stays fast:

* :mod:`.imperfect` -- ``games``, ``solve``, ``evaluate``; :mod:`.public_tree` and :mod:`.ray` --
  what ``solve`` and ``evaluate`` do on the public tree and split over Ray; :mod:`.runs` -- what
  every solve path shares (resume, run with progress, the result dict, the output files);
* :mod:`.experiment` -- ``zerosum experiment NAME``;
* :mod:`.perfect`, :mod:`.connect4` -- ``search``, ``play``, ``tournament``, ``analyze``;
* :mod:`.serve` -- ``serve``, the local web app (:mod:`zerosum.web`);
* :mod:`.batch` -- ``batch`` and ``report``, a spot template on many flops (:mod:`zerosum.batch`);
* :mod:`.common` -- parsing ``--param``, JSON output, state files, and how progress is shown
  (the reporter of :mod:`zerosum.progress` installed for every command).
* :mod:`.compiling`, :mod:`.numba_start` -- Numba's compiles as the command line sees them (a
  cold cache's notice), and Numba's start without what a warm run does not use.

May import: anything in zerosum, click, Rich.  Nothing outside this package imports it.
"""


from __future__ import annotations

import importlib
import importlib.util

import click

from ..errors import ZerosumError

#: command name -> "module:attribute" (relative to zerosum.cli)
COMMANDS = {
    "games": "imperfect:games",
    "solve": "imperfect:solve",
    "evaluate": "imperfect:evaluate",
    "experiment": "experiment:experiment",
    "play": "perfect:play",
    "analyze": "connect4:analyze",
    "tournament": "perfect:tournament",
    "search": "perfect:search",
    "serve": "serve:serve",
    "warm-up": "warmup:warm_up",
    "batch": "batch:batch",
    "report": "batch:report",
}


class LazyGroup(click.Group):
    """A group whose commands are imported when used, and whose user errors print one line."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, package: str = __name__, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}
        self.package = package

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self._available()))

    def _available(self):
        return {name: target for name, target in self.lazy.items()
                if importlib.util.find_spec(f"{self.package}.{target.split(':')[0]}") is not None}

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is not None or name not in self._available():
            return cmd
        module, attr = self.lazy[name].split(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), attr)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ZerosumError as e:
            raise click.ClickException(str(e)) from None
        except KeyboardInterrupt:  # click's default: "Aborted!" and exit 1; the shell's code is 130
            # iterative solves stop cleanly on the first Ctrl-C and write their files (cli.runs);
            # this is what every other command (and a second Ctrl-C) does
            click.echo("interrupted (Ctrl-C): stopped before finishing, nothing more written", err=True)
            raise click.exceptions.Exit(130) from None


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(package_name="zerosum")
@click.pass_context
def cli(ctx):
    """Solve two-player zero-sum games: exactly where they are small, fast where they are not.

    Start with `zerosum games`, then e.g. `zerosum solve leduc` or `zerosum search tictactoe`;
    `zerosum COMMAND --help` describes each command.
    """
    from .. import progress
    from .common import TerminalReporter

    ctx.with_resource(progress.reporting(TerminalReporter()))  # what the library says, shown while a command runs
    if ctx.invoked_subcommand is None:  # `zerosum` alone: the help, and success
        click.echo(ctx.get_help())


#: BLAS's threads, unless the environment says otherwise: one.  NumPy's and SciPy's OpenBLAS each
#: start a thread per core that spins at start-up, 0.1-0.2 s of CPU per process (``zerosum solve
#: holdem --spot`` of postflop-solver's example turn, 20 iterations: 1.08 against 1.30 s of CPU,
#: the same wall time); zerosum's heavy loops are Numba's, threaded by ``--option threads``
BLAS_THREADS = "1"


class _BlasCheckFirst:
    """Numba's registry (loaded on a process's first compiled call) checks that SciPy's BLAS is
    there by importing ``scipy.linalg.cython_blas``, which imports the whole of ``scipy.linalg``
    first: 0.17-0.24 s of every solve's start-up (about 5 % of a 0.5 % solve of postflop-solver's
    example turn), for a module that only hands out BLAS's function pointers.  This finder, ahead
    of the others until ``numba`` is first imported, loads that one extension module from its file
    instead (:func:`load_cython_blas`): Numba finds it in ``sys.modules``, and ``scipy.linalg``
    loads when something uses it.  The CLI's process only; any failure leaves the import as it was."""

    def find_spec(self, name, path=None, target=None):
        if name == "numba":
            import sys

            if self in sys.meta_path:
                sys.meta_path.remove(self)
            load_cython_blas()
        # (no spec: the usual finders find numba)


def load_cython_blas() -> None:
    """``scipy.linalg.cython_blas`` into ``sys.modules`` without ``scipy.linalg``'s package import
    (see :class:`_BlasCheckFirst`); nothing where SciPy is absent, already loaded, or laid out otherwise."""
    import sys

    name = "scipy.linalg.cython_blas"
    if name in sys.modules or "scipy.linalg" in sys.modules:
        return
    try:
        import importlib.machinery
        import os

        import scipy

        folder = os.path.join(scipy.__path__[0], "linalg")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "cython_blas" + suffix)
            if os.path.exists(path):
                loader = importlib.machinery.ExtensionFileLoader(name, path)
                spec = importlib.util.spec_from_file_location(name, path, loader=loader)
                module = importlib.util.module_from_spec(spec)
                loader.exec_module(module)
                sys.modules[name] = module
                return
    except (ImportError, OSError, AttributeError, IndexError):  # SciPy missing or changed: Numba's own import
        sys.modules.pop(name, None)


def main():  # the command line (the console script runs it through entry)
    import os
    import sys

    os.environ.setdefault("OPENBLAS_NUM_THREADS", BLAS_THREADS)  # before NumPy loads (commands import it lazily)
    if "numba" not in sys.modules:
        sys.meta_path.insert(0, _BlasCheckFirst())
    from .compiling import install

    install()  # one stderr line when this run compiles Numba's kernels (a cold cache)
    cli()


#: how long the console script's start may run without Python's cyclic garbage collector at most
#: (:func:`hold_collections`), where no Numba import ends it before
COLLECTOR_HELD_SECONDS = 1.0


def hold_collections() -> None:
    """Python's cyclic garbage collector off for the start's imports: Numba's makes about 90,000
    objects, over which the collector ran several times (a full collection of 28 ms fell inside
    ``numba.np.ufunc.wrappers``' import alone; the imports of a solve took 8-10 % less CPU
    without it).  Numba's import ends it (:func:`zerosum.cli.numba_start.collect_again`: those
    objects frozen, as ``gc.freeze`` does, so no later collection scans them), or a timer after
    :data:`COLLECTOR_HELD_SECONDS` for a command that never imports Numba."""
    import gc
    import threading

    gc.disable()
    timer = threading.Timer(COLLECTOR_HELD_SECONDS, gc.enable)
    timer.daemon = True
    timer.start()


def entry():  # the ``zerosum`` console script: main, then a quick exit
    hold_collections()
    try:
        main()
    except SystemExit as e:
        _leave(e.code)
    _leave(0)


def _leave(code) -> None:
    """End the process without tearing every module down: the ``atexit`` handlers run (Ray's
    shutdown, temporary folders, finalizers), the streams are flushed, then ``os._exit``.  The
    interpreter's own teardown (a last garbage collection, then every module's objects freed
    one by one) took a third of a one-iteration river solve's CPU, 250-340 ms of 800, for nothing
    the command had not already written (docs/benchmarks.md, "Start-up")."""
    import atexit
    import os
    import sys

    if isinstance(code, str):  # sys.exit("message"): Python prints it and exits with 1
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (zerosum ... | head): nothing more to say
            pass
    os._exit(0 if code is None else int(code) if isinstance(code, int) else 1)
