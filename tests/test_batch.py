"""zerosum.batch: the flop classes and sets, a batch of flops against single solves, the
aggregate, resuming, and the batch and report commands."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from zerosum.batch import flop_classes
from zerosum.batch.flops import SUIT_PERMUTATIONS, canonical, flop_set, random_subset, read_flop_file, texture
from zerosum.errors import ZerosumError
from zerosum.poker.cards import cards_str


# --- flop classes -------------------------------------------------------------------------------
def test_the_1755_classes_cover_the_22100_flops_exactly():
    classes = flop_classes()
    assert len(classes) == 1755
    assert sum(c.count for c in classes) == 22_100
    assert all(c.weight == c.count for c in classes)
    index = {c.flop: c for c in classes}
    assert len(index) == 1755
    hits = Counter()
    for flop in itertools.combinations(range(52), 3):  # every flop, in exactly one class
        hits[canonical(cards_str(flop))] += 1
    assert sum(hits.values()) == 22_100
    assert set(hits) == set(index)
    assert all(hits[f] == index[f].count for f in index)


def test_a_class_is_the_orbit_of_its_representative_under_the_24_suit_permutations():
    for c in flop_classes()[::7]:
        cards = [4 * (k >> 2) + (k & 3) for k in _cards(c.flop)]
        orbit = {frozenset(4 * (k >> 2) + p[k & 3] for k in cards) for p in SUIT_PERMUTATIONS}
        assert len(orbit) == c.count
        assert all(canonical(sorted(o)) == c.flop for o in orbit)
    assert Counter(c.count for c in flop_classes()) == {24: 286, 12: 1170, 4: 299}


def _cards(text):
    from zerosum.poker.cards import parse_cards

    return parse_cards(text)


def test_textures():
    assert texture("AsKdTh") == {"high": "A", "pairing": "unpaired", "suits": "rainbow", "connected": True, "gaps": 2}
    assert texture("9s8s7d")["connected"] and texture("9s8s7d")["gaps"] == 0 and texture("9s8s7d")["suits"] == "two-tone"
    assert texture("5h4hAh") == {"high": "A", "pairing": "unpaired", "suits": "monotone", "connected": True, "gaps": 2}
    assert texture("QsJh2d")["connected"] is False and texture("QsJh2d")["gaps"] is None
    assert texture("7s7h2d")["pairing"] == "paired" and not texture("7s7h6d")["connected"]
    assert texture("5s5h5d")["pairing"] == "trips"


def test_texture_filters_partition_the_flops():
    def total(spec):
        return sum(c.weight for c in flop_set(spec))

    assert total("monotone") + total("two-tone") + total("rainbow") == 22_100
    assert total("monotone") == 4 * 286
    assert total("unpaired") + total("paired") == 22_100
    assert total("trips") == 52 and total("paired") == 52 + 3744
    assert sum(total(f"high:{r}") for r in "23456789TJQKA") == 22_100
    assert total("connected") + total("disconnected") == 22_100
    assert all(texture(c.flop)["suits"] == "two-tone" and texture(c.flop)["connected"]
               for c in flop_set("two-tone+connected"))
    assert len(flop_set("all")) == 1755
    assert [(c.flop, c.weight) for c in flop_set("Qs7h2d, Th9h8c")] == [("Qs7h2d", 24.0), ("Ts9s8h", 12.0)]
    with pytest.raises(ZerosumError, match="unknown flop set"):
        flop_set("wet")


def test_random_subsets_are_stratified_weighted_and_reproducible():
    a = random_subset(40, 3)
    assert a == random_subset(40, 3) and a != random_subset(40, 4)
    assert sum(c.weight for c in a) == pytest.approx(22_100)
    strata = Counter(f"{texture(c.flop)['suits']} {texture(c.flop)['pairing']}" for c in a)
    assert len(strata) == 6  # every stratum drawn at least once
    for name in strata:  # each stratum keeps its share of the 22,100
        suits, pairing = name.split()
        share = sum(c.count for c in flop_classes()
                    if texture(c.flop)["suits"] == suits and texture(c.flop)["pairing"] == pairing)
        assert sum(c.weight for c in a if f"{texture(c.flop)['suits']} {texture(c.flop)['pairing']}" == name) \
            == pytest.approx(share)
    assert flop_set("random:40:3") == a and flop_set("random:5") == random_subset(5, 0)
    assert len(random_subset(5000)) == 1755


def test_a_flop_file(tmp_path):
    path = tmp_path / "flops.txt"
    path.write_text("# my flops\nKh7c2d\n\nQsJs2h 3.5  # a weight of my own\n")
    got = read_flop_file(str(path))
    assert [(c.flop, c.weight) for c in got] == [("Ks7h2d", 24.0), ("QsJs2h", 3.5)]
    assert flop_set(str(path)) == got
    path.write_text("Kh7c2d\nKs7d2h\n")
    with pytest.raises(ZerosumError, match="same flop"):
        read_flop_file(str(path))


# --- a batch of flops ---------------------------------------------------------------------------
#: the tiny template: 8 hand classes a player, one flop bet (half the pot) that can be raised all-in,
#: no betting on the turn and the river (dealt by chance); ~16-26 k public nodes, 20-30 DCFR
#: iterations to 0.5 % of the pot, about a second a flop
TINY = {"name": "tiny", "pot": 10, "stack": 10,
        "ranges": ["AA,KK,QQ,JJ,AK,AQs,KQs,JTs", "AA,KK,QQ,TT,AK,AQ,KJs,T9s"],
        "streets": {"flop": {"bet": ["50%"], "raise": ["a"]}, "turn": {"bet": []}, "river": {"bet": []}}}
FLOPS = "Qs7h2d\nTh9h8c\n6d6c3s\n"
TARGET = 0.5


def _strip(report):
    """A report less its timings."""
    return {**report, "rows": [{k: v for k, v in r.items() if k != "seconds"} for r in report["rows"]]}


@pytest.fixture(scope="module")
def batch_files(tmp_path_factory):
    import json

    root = tmp_path_factory.mktemp("batch")
    spot, flops = root / "tiny.json", root / "flops.txt"
    spot.write_text(json.dumps(TINY))
    flops.write_text(FLOPS)
    return root, spot, flops


@pytest.fixture(scope="module")
def whole(batch_files):
    """One uninterrupted batch of the three flops, in a plain loop."""
    from zerosum.batch import run_batch

    root, spot, flops = batch_files
    summary = run_batch(str(spot), str(flops), f"{TARGET}%", root / "whole", workers=1)
    return root / "whole", summary


def test_a_batch_writes_one_file_a_flop(whole):
    from zerosum.batch import read_results

    folder, summary = whole
    assert summary["solved"] == 3 and summary["already_done"] == 0 and summary["left"] == 0 and not summary["ray"]
    results = read_results(folder)
    assert [r["flop"] for r in results] == ["Qs7h2d", "Ts9s8h", "6s6h3d"]
    for r in results:
        assert r["exploitability_pct"] <= TARGET and r["reached"]
        assert r["weight"] == r["count"] and r["actions"] == ["c", "b5"]
        assert sum(r["frequencies"].values()) == pytest.approx(1.0)
        assert sum(c["weight"] for c in r["classes"].values()) == pytest.approx(1.0)
        assert r["ev"] == r["value"] and r["iterations"] % 10 == 0


def test_a_flop_in_a_batch_is_a_single_solve_of_that_flop(whole, batch_files, tmp_path):
    import json

    from click.testing import CliRunner

    from zerosum.batch import read_results
    from zerosum.cli import cli

    folder, _ = whole
    mine = read_results(folder)[1]
    single = tmp_path / "single.json"
    single.write_text(json.dumps({**TINY, "board": mine["board"]}))
    nash_conv = 2 * TARGET / 100 * TINY["pot"]
    out = CliRunner().invoke(cli, ["solve", "holdem", "--spot", str(single), "--target-nashconv", str(nash_conv),
                                   "-n", "1000", "--checkpoints", ",".join(str(k) for k in range(10, 1001, 10)),
                                   "--json"])
    assert out.exit_code == 0, out.output
    solved = json.loads(out.stdout)
    assert solved["iterations"] == mine["iterations"]
    assert solved["value"] == pytest.approx(mine["value"], abs=1e-9)
    assert solved["exploitability"] == pytest.approx(mine["exploitability"], abs=1e-9)
    # the root's frequencies: the command's per-hand strategies, weighted here by P(hand) (card removal)
    from zerosum.poker.cards import parse_cards

    board = set(parse_cards(mine["board"]))
    r1 = [(h, 1.0) for h in _hands(TINY["ranges"][1], board)]
    probs, bets = [], []
    for label, strategy in solved["first_actions"].items():
        cards = set(parse_cards(label.split(":")[0]))
        p = sum(w for h, w in r1 if not cards & h)
        probs.append(p)
        bets.append(strategy["b5"])
    freq = sum(p * b for p, b in zip(probs, bets)) / sum(probs)
    assert freq == pytest.approx(mine["frequencies"]["b5"], abs=1e-9)


def _hands(text, board):
    """The hole pairs of a range (weights 1 here) that miss the board, as sets of card ints."""
    from zerosum.poker.cards import hole_pairs
    from zerosum.poker.ranges import parse_range

    weights = parse_range(text)
    pairs = hole_pairs()
    return [set(map(int, pairs[i])) for i in range(len(pairs)) if weights[i] > 0 and not set(map(int, pairs[i])) & board]


def test_the_aggregate_is_the_weighted_sum_of_the_flops(whole):
    import json

    from zerosum.batch import aggregate

    folder, _ = whole
    files = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json")) if p.name != "batch.json"]
    w = {c.flop: c.count for c in flop_classes()}  # the class weights, independently of the files
    total = sum(w[f["flop"]] for f in files)
    assert total == 24 + 12 + 12  # rainbow, two-tone, paired
    report = aggregate(folder)
    for a in ("c", "b5"):
        assert report["total"]["frequencies"][a] == pytest.approx(
            sum(w[f["flop"]] * f["frequencies"][a] for f in files) / total, abs=1e-12)
    assert report["total"]["ev"] == pytest.approx(sum(w[f["flop"]] * f["value"] for f in files) / total, abs=1e-12)
    assert report["total"]["weight"] == total
    assert sum(g["weight"] for g in report["by_group"].values()) == total
    assert report["by_group"]["rainbow paired"]["frequencies"] == \
        pytest.approx(next(f["frequencies"] for f in files if f["flop"] == "6s6h3d"), abs=1e-15)


def test_a_batch_stopped_part_way_resumes_to_the_same_report(whole, batch_files):
    from zerosum.batch import aggregate, run_batch

    root, spot, flops = batch_files
    first = run_batch(str(spot), str(flops), TARGET, root / "resumed", workers=1, limit=2)
    assert first["solved"] == 2 and first["left"] == 1
    assert len(aggregate(root / "resumed")["rows"]) == 2
    second = run_batch(str(spot), str(flops), TARGET, root / "resumed", workers=1)
    assert second["solved"] == 1 and second["already_done"] == 2 and second["left"] == 0
    assert _strip(aggregate(root / "resumed")) == _strip(aggregate(whole[0]))
    third = run_batch(str(spot), str(flops), TARGET, root / "resumed", workers=1)  # nothing left to do
    assert third["solved"] == 0 and third["already_done"] == 3


def test_another_template_or_target_does_not_reuse_the_files(whole, batch_files, tmp_path):
    import shutil

    from zerosum.batch import read_results, run_batch

    _, spot, _ = batch_files
    folder = tmp_path / "copy"
    shutil.copytree(whole[0], folder)
    summary = run_batch(str(spot), "Qs7h2d", 1.0, folder, workers=1, limit=0)  # another target
    assert summary["already_done"] == 0 and summary["left"] == 1
    with pytest.raises(ZerosumError, match="no flop results"):
        read_results(folder)  # the manifest now names the other template: the old files are not read


def test_the_commands(whole, batch_files, tmp_path):
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    folder, _ = whole
    _, spot, flops = batch_files
    out = CliRunner().invoke(cli, ["batch", str(spot), "--flops", str(flops), "--target", "0.5%", "--out",
                                   str(folder), "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["solved"] == 0 and summary["already_done"] == 3 and summary["flops"] == 3
    csv_path, png = tmp_path / "r.csv", tmp_path / "r.png"
    out = CliRunner().invoke(cli, ["report", str(folder), "--json", "--csv", str(csv_path), "--plot", str(png)])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert [r["flop"] for r in report["rows"]] == ["Qs7h2d", "Ts9s8h", "6s6h3d"]
    lines = csv_path.read_text().splitlines()
    assert len(lines) == 5 and lines[-1].startswith("total,48.0,")
    assert png.read_bytes()[:4] == b"\x89PNG"
    out = CliRunner().invoke(cli, ["report", str(folder)])
    assert out.exit_code == 0 and "TOTAL" in out.output
    out = CliRunner().invoke(cli, ["batch", str(spot), "--flops", "wet", "--out", str(tmp_path / "x")])
    assert out.exit_code == 1 and "unknown flop set or texture 'wet'" in out.output


def test_a_turn_board_is_refused(tmp_path):
    import json

    from zerosum.batch import run_batch

    spot = tmp_path / "turn.json"
    spot.write_text(json.dumps({**TINY, "board": "Ks7d2c9h"}))
    with pytest.raises(ZerosumError, match="board is a flop"):
        run_batch(str(spot), "all", 0.5, tmp_path / "out", workers=1)


def test_ray_tasks_give_the_loops_results(whole, batch_files, ray_local):
    from zerosum.batch import aggregate, run_batch

    root, spot, flops = batch_files
    summary = run_batch(str(spot), str(flops), TARGET, root / "ray", workers=2, ray="auto")
    assert summary["ray"] and summary["workers"] == 2 and summary["solved"] == 3
    assert _strip(aggregate(root / "ray")) == _strip(aggregate(whole[0]))


# --- refused before any flop: ranges that name suits, a task larger than a worker ---------------
@pytest.mark.parametrize("ranges, bad", [(["AsKs,QQ", "AA"], "AsKs 1 but"), (["AK,QQ", "AKs:0.5,AhKh"], "AhKh 1 but"),
                                         (["QQ", "AsKs,AhKh,AdKd"], "player 1's range")])
def test_a_template_whose_ranges_name_suits_is_refused(tmp_path, ranges, bad):
    from zerosum.batch import run_batch

    with pytest.raises(ZerosumError, match="names specific suits") as e:
        run_batch({**TINY, "ranges": ranges}, "Qs7h2d", TARGET, tmp_path / "out", workers=1)
    assert bad in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_suits_named_alike_for_every_suit_are_accepted():
    from zerosum.batch import load_template

    every = "AsKs,AhKh,AdKd,AcKc,QQ"  # AKs written out: the same range as "AKs,QQ"
    assert load_template({**TINY, "ranges": [every, "AK:0.5,TT"]})["ranges"][0] == every


def test_a_tasks_memory_is_estimated_from_the_largest_flop_of_the_set():
    from zerosum.batch.run import TASK_BASE_BYTES, task_memory
    from zerosum.games import load_game
    from zerosum.poker.spots import spot_params
    from zerosum.public_tree.holdem_build import holdem_public_tree
    from zerosum.public_tree.solver import default_dtype, public_solver

    flops = flop_set("Qs7h2d,AsKh2d,6s6h3d,2s2h2d")
    est = task_memory(TINY, flops)
    games = {c.flop: load_game("holdem", **spot_params({**TINY, "board": c.flop})) for c in flops}
    sizes = {f: g.estimated_sizes()["public_bytes"] for f, g in games.items()}
    assert sizes[est["flop"]] == max(sizes.values()) == sizes["2s2h2d"] == sizes["6s6h3d"]  # block no hand held
    assert sizes["AsKh2d"] < sizes["Qs7h2d"] < sizes["2s2h2d"]  # an ace and a king, a queen block hands
    assert est["tree_bytes"] == sizes["2s2h2d"] and est["bytes"] == sizes["2s2h2d"] + TASK_BASE_BYTES
    assert est["hands"] == len(games[est["flop"]].hands)
    tree = holdem_public_tree(games[est["flop"]], isomorphism=True)  # what a task builds: under the estimate
    solver = public_solver("dcfr", tree, default_dtype(tree))
    assert tree.nbytes() + solver.nbytes() <= est["tree_bytes"]


def test_a_task_larger_than_a_workers_share_is_refused_before_the_batch(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from zerosum.batch import run_batch
    from zerosum.batch.run import task_memory, worker_memory
    from zerosum.cli import cli
    from zerosum.core import memory

    need = task_memory(TINY, flop_set("random:6"))["bytes"]
    with pytest.raises(ZerosumError, match="needs about .* more than a worker's") as e:
        run_batch(TINY, "random:6", TARGET, tmp_path / "a", workers=1, worker_bytes=need - 1)
    assert "\n" not in str(e.value) and not (tmp_path / "a").exists()
    run_batch(TINY, "random:6", TARGET, tmp_path / "a", workers=1, worker_bytes=need, limit=0)  # fits exactly
    # this machine's share: 70 % of the available memory over the workers
    monkeypatch.setattr(memory, "available_memory", lambda: int(need * 1.5 / 0.7))  # fits one worker, not two
    assert worker_memory(1)[0] >= need > worker_memory(2)[0] == memory.memory_limit() // 2
    spot = tmp_path / "tiny.json"
    spot.write_text(__import__("json").dumps(TINY))
    out = CliRunner().invoke(cli, ["batch", str(spot), "--flops", "random:6", "--out", str(tmp_path / "b"),
                                   "--workers", "2"])
    assert out.exit_code == 1 and "/ 2 workers" in out.output and len(out.output.strip().splitlines()) == 1
    assert not (tmp_path / "b").exists()
    out = CliRunner().invoke(cli, ["batch", str(spot), "--flops", "random:6", "--out", str(tmp_path / "b"),
                                   "--workers", "1", "--limit", "0"])
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(cli, ["batch", str(spot), "--flops", "random:6", "--out", str(tmp_path / "c"),
                                   "--workers", "1", "--worker-memory", f"{(need - 1) / 1e9}"])
    assert out.exit_code == 1 and "needs about" in out.output


def test_a_clusters_share_is_its_smallest_node_memory_a_cpu():
    from zerosum.batch.run import worker_memory

    nodes = [{"Alive": True, "NodeManagerAddress": "10.0.0.1", "Resources": {"CPU": 4.0, "memory": 8e9}},
             {"Alive": True, "NodeManagerAddress": "10.0.0.2", "Resources": {"CPU": 16.0, "memory": 16e9}},
             {"Alive": False, "NodeManagerAddress": "10.0.0.3", "Resources": {"CPU": 64.0, "memory": 1e9}},
             {"Alive": True, "NodeManagerAddress": "head", "Resources": {"memory": 1e9}}]  # no CPU: runs no task
    share, how = worker_memory(2, nodes)
    assert share == 1e9 and "10.0.0.2" in how


# --- the plots ----------------------------------------------------------------------------------
def test_the_heat_map_is_the_weighted_bet_frequency_by_high_card_and_texture(whole, tmp_path):
    import json

    from zerosum.batch.report import aggregate, heatmap_table, plot

    folder, _ = whole
    files = [json.loads(p.read_text()) for p in folder.glob("*.json") if p.name != "batch.json"]
    # from the files alone: three flops with their class weights; a cell's value is sum w * bet / sum w
    fake = [{**f, "flop": flop, "texture": texture(flop), "count": count, "weight": float(count) * k,
             "frequencies": {"c": 1 - bet, "b5": bet}}
            for k, (f, flop, count, bet) in enumerate(zip(files * 2, ["Qs7h2d", "Ts9s8h", "6s6h3d", "Qs8h3d", "QsJs2s",
                                                                        "Ks7h7d"],
                                                            [24, 12, 12, 24, 4, 12], [0.1, 0.2, 0.3, 0.6, 0.7, 0.9]), 1)]
    table = heatmap_table(fake)
    assert table["textures"] == ["monotone", "two-tone", "rainbow", "paired"] and table["highs"] == ["K", "Q", "T", "6"]
    cell = dict(zip(table["highs"], zip(*table["bet"])))
    w = {f["flop"]: f["weight"] for f in fake}
    assert cell["Q"][2] == pytest.approx((w["Qs7h2d"] * 0.1 + w["Qs8h3d"] * 0.6) / (w["Qs7h2d"] + w["Qs8h3d"]), abs=1e-12)
    assert cell["Q"][0] == pytest.approx(0.7) and cell["Q"][1] is None and cell["Q"][3] is None
    assert cell["T"][1] == pytest.approx(0.2) and cell["6"][3] == pytest.approx(0.3) and cell["K"][3] == pytest.approx(0.9)
    assert table["flops"][2][1] == 2 and table["weight"][2][1] == w["Qs7h2d"] + w["Qs8h3d"]
    # the real folder: the table the plot draws, each cell the files' weighted mean
    real = heatmap_table(folder)
    for i, tex in enumerate(real["textures"]):
        for j, high in enumerate(real["highs"]):
            mine = [f for f in files if f["texture"]["high"] == high and
                    (tex == "paired" if f["texture"]["pairing"] != "unpaired" else f["texture"]["suits"] == tex)]
            if not mine:
                assert real["bet"][i][j] is None
                continue
            expect = sum(f["weight"] * f["frequencies"]["b5"] for f in mine) / sum(f["weight"] for f in mine)
            assert real["bet"][i][j] == pytest.approx(expect, abs=1e-12)
    assert heatmap_table(aggregate(folder)) == real
    drawn = {}
    import matplotlib.axes

    original = matplotlib.axes.Axes.imshow

    def spy(self, values, *args, **kwargs):
        drawn["values"] = values
        return original(self, values, *args, **kwargs)

    matplotlib.axes.Axes.imshow = spy
    try:
        plot(aggregate(fake), tmp_path / "p.png")
    finally:
        matplotlib.axes.Axes.imshow = original
    import numpy as np

    expect = np.array([[np.nan if v is None else v for v in row] for row in table["bet"]])
    assert np.allclose(drawn["values"], expect, equal_nan=True) and (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


def test_save_solutions_writes_each_flops_whole_solution(tmp_path):
    import json

    from zerosum.batch import run_batch
    from zerosum.batch.run import _root_report
    from zerosum.games import load_game
    from zerosum.poker.spots import spot_params
    from zerosum.solutions.saved import open_solution

    folder = tmp_path / "saved"
    run_batch(TINY, "Qs7h2d", TARGET, folder, workers=1, save_solutions=True)
    result = json.loads((folder / "Qs7h2d.json").read_text())
    assert result["solution"] == "Qs7h2d.zsp" and "_solution" not in result
    saved = open_solution(folder / "Qs7h2d.zsp", game=load_game("holdem", **spot_params({**TINY, "board": "Qs7h2d"})))
    root = _root_report(saved.tree, saved)  # the saved strategy gives the file's root frequencies (16-bit)
    assert root["frequencies"] == pytest.approx(result["frequencies"], abs=1e-4)
    again = run_batch(TINY, "Qs7h2d", TARGET, folder, workers=1, save_solutions=True)
    assert again["solved"] == 0 and again["already_done"] == 1
    (folder / "Qs7h2d.zsp").unlink()  # a result without its solution is solved again when solutions are asked for
    left = run_batch(TINY, "Qs7h2d", TARGET, folder, workers=1, save_solutions=True, limit=0)
    assert left["already_done"] == 0 and left["left"] == 1
    assert run_batch(TINY, "Qs7h2d", TARGET, folder, workers=1, limit=0)["already_done"] == 1  # without: done


# --- the root's EV by hand, by class and by action ------------------------------------------------------
def _solved(flop, isomorphism, iterations=20):
    from zerosum.batch.run import DCFR_OPTIONS
    from zerosum.games import load_game
    from zerosum.poker.spots import spot_params
    from zerosum.public_tree.holdem_build import holdem_public_tree
    from zerosum.public_tree.solver import default_dtype, public_solver

    game = load_game("holdem", **spot_params({**TINY, "board": flop}))
    tree = holdem_public_tree(game, isomorphism=isomorphism)
    solver = public_solver("dcfr", tree, default_dtype(tree), **DCFR_OPTIONS)
    rows = solver.run(iterations, [iterations])
    return tree, solver.average_policy(), rows[-1]["value_average"]


def test_the_roots_ev_by_hand_and_action_on_a_suit_isomorphic_tree():
    """Ts9s8h (two-tone: its tree mirrors diamonds and clubs): the per-hand EVs of root_values weighted
    by P(hand) give the game value, per action mixed by the root strategy give the hand's EV, and
    they are node_analysis's (what evaluate --node runs) on a solve of the same flop without suit
    isomorphism."""
    import numpy as np

    from zerosum.batch.run import root_values
    from zerosum.solutions.analysis import node_analysis

    tree, policy, value = _solved("Ts9s8h", True)
    assert tree.iso is not None
    got = root_values(tree, policy)
    prob, ev = got["probability"], got["ev"]
    assert prob[0].sum() == pytest.approx(1.0, abs=1e-12) and prob[1].sum() == pytest.approx(1.0, abs=1e-12)
    assert float(prob[0] @ np.nan_to_num(ev[0])) == pytest.approx(value, abs=1e-9)
    assert float(prob[1] @ np.nan_to_num(ev[1])) == pytest.approx(-value, abs=1e-9)
    held = prob[0] > 0
    assert np.allclose((got["strategy"] * got["action_ev"]).sum(axis=0)[held], ev[0][held], atol=1e-9, rtol=0)
    full, full_policy, full_value = _solved("Ts9s8h", False)
    assert full.iso is None and full_value == pytest.approx(value, abs=1e-9)
    report = node_analysis(full, full_policy, "::", with_equity=False)
    for p in (0, 1):
        entry = report["players"][p]
        index = [list(tree.hand_labels[p]).index(h) for h in entry["hands"]]
        assert np.allclose(entry["ev"], ev[p][index], atol=1e-6, rtol=0, equal_nan=True)
    child = node_analysis(full, full_policy, "::b5", with_equity=False)["players"][0]  # the bet's EV per hand
    index = [list(tree.hand_labels[0]).index(h) for h in child["hands"]]
    assert np.allclose(child["ev"], got["action_ev"][1][index], atol=1e-6, rtol=0)


def test_a_flop_file_holds_the_roots_ev_by_class_and_action(whole):
    from zerosum.batch import read_results

    folder, _ = whole
    for r in read_results(folder):
        classes = r["classes"]
        assert sum(c["weight"] * c["ev"] for c in classes.values()) == pytest.approx(r["value"], abs=1e-9)
        assert sum(c["weight"] * c["ev"] for c in r["opponent_classes"].values()) == pytest.approx(-r["value"], abs=1e-9)
        for a in r["actions"]:
            assert sum(c["weight"] * c["action_ev"][a] for c in classes.values()) == pytest.approx(r["action_ev"][a],
                                                                                                abs=1e-9)
        for c in classes.values():  # a class that plays one action: its EV is that action's
            for a, f in c["frequencies"].items():
                if f > 1 - 1e-12:
                    assert c["ev"] == pytest.approx(c["action_ev"][a], abs=1e-9)


def test_the_report_s_class_table_is_the_weighted_mean_of_the_flops(whole):
    from zerosum.batch import aggregate, read_results

    folder, _ = whole
    results = read_results(folder)
    table = aggregate(results)["classes"]
    assert next(iter(table)) == "AA" and "JTs" in table
    w = sum(r["weight"] for r in results)
    for name in ("AA", "AKo", "JTs"):
        held = [r for r in results if name in r["classes"]]
        mass = sum(r["weight"] * r["classes"][name]["weight"] for r in held)
        assert table[name]["weight"] == pytest.approx(mass / w, abs=1e-12)
        ev = sum(r["weight"] * r["classes"][name]["weight"] * r["classes"][name]["ev"] for r in held) / mass
        assert table[name]["ev"] == pytest.approx(ev, abs=1e-12)
        bet = sum(r["weight"] * r["classes"][name]["weight"] * r["classes"][name]["action_ev"]["b5"] for r in held) / mass
        assert table[name]["action_ev"]["b5"] == pytest.approx(bet, abs=1e-12)
    assert sum(c["weight"] * c["ev"] for c in table.values()) == pytest.approx(aggregate(results)["total"]["ev"],
                                                                              abs=1e-9)


def test_evaluate_node_on_a_suit_isomorphic_flops_saved_solution(tmp_path):
    """A two-tone flop's .zsp (saved on the whole tree) read by zerosum evaluate --node '::': its
    per-hand EVs are root_values' on the saved (16-bit) strategy, and its class EVs the flop file's
    to 1e-4 (the file's are the float64 solve's)."""
    import json

    import numpy as np
    from click.testing import CliRunner

    from zerosum.batch import run_batch
    from zerosum.batch.run import root_values
    from zerosum.cli import cli
    from zerosum.games import load_game
    from zerosum.poker.spots import spot_params
    from zerosum.solutions.saved import open_solution

    folder = tmp_path / "saved"
    run_batch(TINY, "Ts9s8h", TARGET, folder, workers=1, save_solutions=True)
    result = json.loads((folder / "Ts9s8h.json").read_text())
    spot = tmp_path / "Ts9s8h.json"
    spot.write_text(json.dumps({**TINY, "board": "Ts9s8h"}))
    out = CliRunner().invoke(cli, ["evaluate", "holdem", str(folder / "Ts9s8h.zsp"), "--spot", str(spot),
                                   "--node", "::", "--json"])
    assert out.exit_code == 0, out.output
    node = json.loads(out.stdout)["node"]
    saved = open_solution(folder / "Ts9s8h.zsp", game=load_game("holdem", **spot_params({**TINY, "board": "Ts9s8h"})))
    mine = root_values(saved.tree, saved)
    for p in (0, 1):
        entry = node["players"][p]
        index = [list(saved.tree.hand_labels[p]).index(h) for h in entry["hands"]]
        assert np.allclose(np.array(entry["ev"], dtype=float), mine["ev"][p][index], atol=1e-9, rtol=0)
    grid = node["players"][0]["grid"]
    for name, c in result["classes"].items():
        assert grid["ev"][grid["classes"].index(name)] == pytest.approx(c["ev"], abs=1e-4)


def test_a_worker_killed_mid_batch_loses_nothing_that_had_finished(batch_files, ray_local, tmp_path):
    """One Ray worker killed (SIGKILL) once flops have finished: the batch still ends with every
    flop, Ray running the lost worker's task again; the files finished before the kill are
    untouched (not solved again); the report is the plain loop's."""
    import os
    import signal
    import threading
    import time

    psutil = pytest.importorskip("psutil", reason="finding Ray's worker processes needs psutil (Ray's dependency)")

    from zerosum.batch import aggregate, run_batch

    _, spot, _ = batch_files
    flops = tmp_path / "six.txt"
    flops.write_text("Qs7h2d\nTh9h8c\n6d6c3s\nKd8s4h\nJc5c2h\n9s9d4c\n")
    out, done = tmp_path / "killed", {}

    def run():
        done["summary"] = run_batch(str(spot), str(flops), TARGET, out, workers=2, ray="auto")

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.time() + 120
    while time.time() < deadline and len([p for p in out.glob("*.json") if p.name != "batch.json"]) < 2:
        time.sleep(0.05)
    before = {p.name: p.read_bytes() for p in out.glob("*.json") if p.name != "batch.json"}
    assert len(before) >= 2, "no flop finished within two minutes"
    titles = {}
    for proc in psutil.process_iter(["pid", "cmdline"]):
        title = " ".join(proc.info["cmdline"] or [])
        if title.startswith("ray::") and proc.info["pid"] != os.getpid():
            titles[proc.info["pid"]] = title
    busy = [pid for pid, title in titles.items() if "solve_flop" in title] or list(titles)
    assert busy, "no Ray worker to kill"
    os.kill(busy[0], signal.SIGKILL)  # (a task running there is lost with it)
    thread.join(300)
    assert not thread.is_alive() and done["summary"]["solved"] + done["summary"]["already_done"] == 6
    after = {p.name: p.read_bytes() for p in out.glob("*.json") if p.name != "batch.json"}
    assert len(after) == 6 and all(after[name] == data for name, data in before.items())
    loop = run_batch(str(spot), str(flops), TARGET, tmp_path / "loop", workers=1)
    assert loop["solved"] == 6
    assert _strip(aggregate(out)) == _strip(aggregate(tmp_path / "loop"))
