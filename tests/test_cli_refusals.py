"""Refusals that advise: every refusal names a command that works (and that command is run here):
history-tree algorithms on a game too large, ``pcs-mccfr`` and ``dtype`` where they do not apply,
``--ray`` with an algorithm it cannot split, perfect-information games in ``solve``."""

import json

import pytest
from click.testing import CliRunner

from zerosum.cli import cli

# a river subgame whose history tree (22,473,991 histories, ~11 GB) cannot fit in 10 MB while its
# public tree (~0.9 MB) can: the full-size refusal of a turn subgame, at a size a test can solve
RIVER_SMALL_MEMORY = ["holdem", "--param", "board=Ks7d2c9h5s", "--param", "max_bytes=10000000"]


def run(*args):
    return CliRunner().invoke(cli, list(args))


def _one_line_error(r, *words):
    assert r.exit_code == 1, r.output
    out = r.output.strip()
    assert out.startswith("Error: ") and "\n" not in out and "Traceback" not in out, out
    for w in words:
        assert w in out, out
    return out


@pytest.mark.parametrize("extra", [[], ["--form", "public-tree"], ["--form", "history-tree"]])
def test_history_only_algorithm_on_a_too_large_game_is_sent_to_a_public_tree_algorithm(extra):
    out = _one_line_error(run("solve", *RIVER_SMALL_MEMORY, "-a", "es-mccfr", "-n", "1", *extra),
                          "22,473,991 histories", "use -a cfr+")
    assert "use --form public-tree" not in out and "or --form history-tree" not in out  # neither would work
    r = run("solve", *RIVER_SMALL_MEMORY, "-a", "cfr+", "-n", "1", "--json")  # the advice, followed
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["form"] == "public-tree"


def test_simultaneous_on_a_too_large_game_is_told_to_drop_it():
    out = _one_line_error(run("solve", *RIVER_SMALL_MEMORY, "--simultaneous", "-n", "1"), "drop --simultaneous")
    assert "--form history-tree" not in out
    assert run("solve", *RIVER_SMALL_MEMORY, "-n", "1").exit_code == 0


def test_pcs_mccfr_is_listed_and_named_where_the_others_are():
    rows = {r["algorithm"]: r for r in json.loads(run("solve", "kuhn", "-a", "help", "--json").stdout)["algorithms"]}
    assert rows["pcs-mccfr"]["options"] == ["--seed", "dtype='float64' (public tree)"] and "public tree only" in rows["pcs-mccfr"]["description"]
    _one_line_error(run("solve", "kuhn", "-a", "nope"), "pcs-mccfr,", "es-mccfr,", "cfr+,")
    with open("README.md") as f:
        assert "`pcs-mccfr` (`--seed`" in f.read()


def test_pcs_mccfr_takes_seed_as_the_other_samplers_do():
    def nc(*extra):
        r = run("solve", "poker", "-a", "pcs-mccfr", "-n", "5", "--json", *extra)
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)["nash_conv"]

    assert nc("--seed", "0") == nc()  # the default seed is 0
    assert nc("--seed", "3") == nc("--seed", "3") != nc("--seed", "4")
    _one_line_error(run("solve", "poker", "-a", "pcs-mccfr", "-n", "5", "--option", "seed=3"), "--seed 3")
    _one_line_error(run("solve", "poker", "-a", "cfr+", "-n", "5", "--seed", "3"), "does not take --seed")


@pytest.mark.parametrize("args, fix", [
    (["kuhn"], ["-a", "es-mccfr"]),
    (["poker", "--form", "history-tree"], ["-a", "es-mccfr", "--form", "history-tree"]),
])
def test_pcs_mccfr_where_it_cannot_run_names_a_sampler_that_can(args, fix):
    game, *rest = args
    _one_line_error(run("solve", game, "-a", "pcs-mccfr", "-n", "3", *rest), "use -a es-mccfr")
    assert run("solve", game, "-n", "3", *fix).exit_code == 0


@pytest.mark.parametrize("algorithm", ["lp", "es-mccfr"])
def test_ray_refuses_an_unsplittable_algorithm_before_starting_ray(monkeypatch, algorithm):
    import zerosum.cli.ray as cli_ray

    def no_ray(*a, **k):
        raise AssertionError("Ray was started")

    monkeypatch.setattr(cli_ray, "start", no_ray)
    _one_line_error(run("solve", "poker", "--ray", "auto", "-a", algorithm, "-n", "2"), "without --ray",
                    "cfr+")
    assert run("solve", "poker", "-a", algorithm, "-n", "2").exit_code == 0  # without --ray, as advised


def test_evaluate_holdem_reads_its_game_from_the_policy_file(tmp_path):
    policy = str(tmp_path / "h.json")
    game = ["--param", "board=Ks7d2c9h5s", "--param", "range0=QQ+,AK", "--param", "bets=[3]", "--param", "pot=12"]
    assert run("solve", "holdem", *game, "-n", "3", "--save", policy).exit_code == 0
    named = run("evaluate", "holdem", policy, *game, "--json")
    from_file = run("evaluate", "holdem", policy, "--json")
    assert from_file.exit_code == 0, from_file.output
    assert json.loads(from_file.stdout) == json.loads(named.stdout)
    assert "range0=QQ+,AK" in json.loads(from_file.stdout)["game"]
    _one_line_error(run("evaluate", "holdem", str(tmp_path / "none.json")), "board is required")


@pytest.mark.parametrize("game, works", [
    ("connect4", ["search", "connect4", "--depth", "4"]),
    ("nim", ["search", "nim"]),
])
def test_perfect_information_game_in_solve_points_to_search(game, works):
    _one_line_error(run("solve", game, "-n", "1"), "perfect-information", "`zerosum " + " ".join(works) + "`")
    assert run(*works).exit_code == 0


def test_dtype_on_the_history_tree_says_where_it_applies():
    _one_line_error(run("solve", "kuhn", "--option", "dtype=float32", "-n", "2"), "public tree only",
                    "drop --option dtype")
    rows = {r["algorithm"]: r for r in json.loads(run("solve", "kuhn", "-a", "help", "--json").stdout)["algorithms"]}
    assert "dtype='float64' (public tree)" in rows["cfr+"]["options"]
    r = run("solve", "poker", "--option", "dtype=float32", "-n", "2", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["form"] == "public-tree"


def test_history_tree_of_a_full_river_is_refused_with_the_estimate_and_the_public_tree_call():
    import time

    import zerosum
    from zerosum.public_tree.solver import public_solver

    game = zerosum.load_game("holdem", board="Ks7d2c9h5s")  # 22,473,991 histories: fits in 11 GB, ~20 min
    t0 = time.perf_counter()
    with pytest.raises(zerosum.ZerosumError, match=r"22,473,991 histories: about \d+ min to compile") as e:
        zerosum.CFRPlusSolver(game)
    assert time.perf_counter() - t0 < 2  # refused before compiling anything
    assert 'public_solver("cfr+", game)' in str(e.value)
    assert public_solver("cfr+", game).run(2)[-1]["nash_conv_average"] > 0  # the call it names runs
    _one_line_error(run("solve", "holdem", "--param", "board=Ks7d2c9h5s", "--form", "history-tree", "-n", "1"),
                    "min to compile", "--form public-tree")
