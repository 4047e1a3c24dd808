"""Issue 27, item 3: experiments compile their Numba kernels before timing (CPU s per row
excludes the compile), and the deep figure's CPU panel is right."""

from __future__ import annotations

import subprocess
import sys

WARM = """
from zerosum.core.compile import compiled
from zerosum.games import load_game
from zerosum.learning.q_learning import _q_learning
from zerosum.learning.policy_gradient import _reinforce
from zerosum.experiments.learned_oracles import warm_up
assert not _q_learning.signatures and not _reinforce.signatures   # a fresh process: nothing compiled
seconds = warm_up(compiled(load_game("kuhn")), ["q-learning"])
assert _q_learning.signatures and not _reinforce.signatures, "warm-up must run the oracle's kernels"
assert seconds > 0
print("ok")
"""


def test_warm_up_runs_the_oracle_kernels_in_a_fresh_process():
    r = subprocess.run([sys.executable, "-c", WARM], check=False, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


def test_learned_oracles_reports_the_warm_up_apart():
    from zerosum.experiments.learned_oracles import learned_oracles

    rep = learned_oracles(game="kuhn", iterations=2, budgets=(50,), seeds=1, oracles=("q-learning",),
                          sanity_budgets=())
    assert any("excludes Numba's compile" in n for n in rep.notes)
    assert [r[0] for r in rep.tables[0].rows] == ["exact", "q-learning"]


def test_deep_figure_has_a_cpu_axis_per_panel_and_draws_cfr_plus(tmp_path, monkeypatch):
    from zerosum import plots
    from zerosum.experiments import deep

    saved = {}
    monkeypatch.setattr(plots, "save_figure", lambda fig, path: saved.update(fig=fig))
    by_nodes = {"sd-cfr": ([10, 20], [1.0, 0.5]), "cfr+": ([10, 40], [0.9, 0.1])}
    by_cpu = {"sd-cfr": ([0.01, 0.02], [1.0, 0.5]), "cfr+": ([0.001, 0.004], [0.9, 0.1])}
    deep._figure(by_nodes, by_cpu, tmp_path / "d.png", "t")
    a, b = saved["fig"].axes[:2]
    assert (a.get_xlabel(), b.get_xlabel()) == ("nodes touched", "CPU seconds")
    assert [line.get_label() for line in b.get_lines()] == ["sd-cfr", "cfr+"]
    assert list(b.get_lines()[1].get_xdata()) == [0.001, 0.004]   # drawn over CPU seconds, not nodes
