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
