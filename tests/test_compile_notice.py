"""The first run's compile, through the real ``zerosum`` command in a subprocess with Numba's cache
in a new folder (``NUMBA_CACHE_DIR``): a cold run says once, on stderr, that it compiles the
kernels, a warm one does not; the duration estimate times the iterations, not the compile (it
used to say "about 2 min" for ``make run``'s 1.3 s run).

Leduc CFR+, 80,000 iterations: 4-10 s of iterations (more than a second past the first step, on
a fast machine too), 1-3 s of compiling when cold (the history tree's kernels; the public tree's
take 45 s, too long for a test: measured in the note of issue 52).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ZEROSUM = Path(sys.executable).with_name("zerosum")
NOTICE = "compiling the kernels for this machine, once: about"
COMMAND = ["solve", "leduc", "--algorithm", "cfr+", "--iterations", "80000", "--json"]

pytestmark = pytest.mark.skipif(not ZEROSUM.exists(), reason="the zerosum console script is not installed")


def _run(args, cache: Path, **env):
    t = time.perf_counter()
    done = subprocess.run([str(ZEROSUM), *args], capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache), **env})
    wall = time.perf_counter() - t
    assert done.returncode == 0, done.stderr
    return done, wall


def _estimate(stderr: str) -> float:
    """The seconds of the one ``expected duration`` line."""
    found = re.findall(r"expected duration: about ([\d.]+) (s|min|h) for ([\d,]+) iterations", stderr)
    assert len(found) == 1, stderr
    value, unit, _ = found[0]
    return float(value) * {"s": 1, "min": 60, "h": 3600}[unit]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The same solve twice on one new cache folder: cold, then warm; every estimate printed
    (``ZEROSUM_ESTIMATE_SECONDS=0``: not only past a minute)."""
    cache = tmp_path_factory.mktemp("numba-cache")
    assert not any(cache.iterdir())
    cold = _run(COMMAND, cache, ZEROSUM_ESTIMATE_SECONDS="0")
    warm = _run(COMMAND, cache, ZEROSUM_ESTIMATE_SECONDS="0")
    return cache, cold, warm


def test_a_cold_run_says_once_that_it_compiles_and_a_warm_one_does_not(runs):
    cache, (cold, _), (warm, _) = runs
    assert cold.stderr.count(NOTICE) == 1, cold.stderr
    line = next(l for l in cold.stderr.splitlines() if NOTICE in l)
    assert re.search(r"about \d+ s", line), line  # a figure, from the path's measured table
    assert any(cache.rglob("*.nbi")), "the cold run cached its kernels in NUMBA_CACHE_DIR"
    assert NOTICE not in warm.stderr, warm.stderr
    assert NOTICE not in cold.stdout and json.loads(cold.stdout)["iterations"] == 80000  # stdout stays JSON


def test_the_estimate_times_the_iterations_not_the_compile(runs):
    """Cold and warm, the estimate is within 2x of the iterations' real time: the warm run's solve
    seconds (nothing compiled there; the cold run's solve seconds include its compile)."""
    _, (cold, cold_wall), (warm, _) = runs
    real = json.loads(warm.stdout)["seconds"]["solve"]
    for stderr in (cold.stderr, warm.stderr):
        expected = _estimate(stderr)
        assert real / 2 <= expected <= 2 * real, (expected, real, stderr)
    assert _estimate(cold.stderr) < cold_wall  # never the compile on top


def test_make_runs_command_cold_prints_no_estimate(tmp_path):
    """Only runs expected past a minute print one: ``make run``'s 1,000 iterations, cold, used to
    say "about 2 min" for a run of 1.3 s."""
    done, _ = _run(["solve", "leduc", "--algorithm", "cfr+", "--iterations", "1000"], tmp_path)
    assert done.stderr.count(NOTICE) == 1, done.stderr
    assert "expected duration" not in done.stderr, done.stderr


def test_a_command_without_kernels_does_not_import_numba(tmp_path):
    """The notice's listener registers when Numba is first imported: `zerosum games` stays light."""
    code = ("import sys; sys.argv = ['zerosum', 'games']\n"
            "from zerosum.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('numba loaded' if 'numba' in sys.modules else 'numba not loaded', file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "numba not loaded" in done.stderr and NOTICE not in done.stderr, done.stderr


def test_warm_up_spots_are_valid_and_run_in_the_storage_real_spots_get(tmp_path):
    """`zerosum warm-up` (make's set-up) solves its small spots in float32, the type that a real
    spot's tree defaults to (Numba compiles per argument types: float64 would leave the example
    turn's kernels to compile on its first solve, 22 s measured); each spot loads as a game."""
    from zerosum.cli.imperfect import load_spot_game
    from zerosum.cli.warmup import RUNS, SPOTS

    holdem = [args for _, args in RUNS if "holdem" in args]
    assert len(holdem) == len(SPOTS) and all("dtype=float32" in args for args in holdem)
    assert any("kuhn" in args and "cfr+" in args for _, args in RUNS)  # make run's solver, the history tree
    for name, spot in SPOTS.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"name": name, **spot}))
        game = load_spot_game("holdem", (), str(path))
        assert spot["board"] in game.id
