"""``zerosum evaluate holdem POLICY --node LABEL`` shows the strategy at the range level: the acting
range's action mix (``action_mix``: each action's probability averaged with weight P(hand | node)),
the strategy per category and per 13x13 class (one grid per action), and the most likely hands
ordered by reach (the range at the node), not by card removal alone."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum.cli

SPOT = {"board": "Td9d6hQc2s", "pot": 100, "stack": 200,
        "ranges": ["QQ,99,AQs,KJs,87s", "TT,AKs,QJs,A5s,98s"],
        "streets": {"river": {"bet": ["50%"], "raise": []}}}


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    d = tmp_path_factory.mktemp("node")
    spot, policy = d / "spot.json", d / "policy.json"
    spot.write_text(json.dumps(SPOT))
    r = CliRunner().invoke(zerosum.cli.cli, ["solve", "holdem", "--spot", str(spot), "-n", "30", "--save", str(policy),
                                             "--json"])
    assert r.exit_code == 0, r.output
    return str(policy), json.loads(policy.read_text())


def evaluate(policy, label, as_json=True):
    r = CliRunner().invoke(zerosum.cli.cli, ["evaluate", "holdem", policy, "--node", label]
                           + (["--json"] if as_json else []))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["node"] if as_json else r.output


def disjoint(a: str, b: str) -> bool:
    return not {a[:2], a[2:]} & {b[:2], b[2:]}


def table(data, label):
    entry = next(e for e in data["nodes"] if e["public"] == label)
    return np.array(entry["probs"], dtype=float)  # [action][hand]


def expected_weights(data, p, opponent_reach):
    """P(hand | node) of player p's hands: own reach (1 here: the acting player's first node)
    x the opponent's reach over the hands that share no card, normalized (the chance weight of
    a deal is the same for every pair on a river)."""
    mine, theirs = data["hands"][p], data["hands"][1 - p]
    den = np.array([sum(r for h, r in zip(theirs, opponent_reach) if disjoint(m, h)) for m in mine])
    return den / den.sum()


def test_root_action_mix_is_the_weighted_average_of_the_hands(solved):
    policy, data = solved
    node = evaluate(policy, "::")
    w = expected_weights(data, 0, np.ones(len(data["hands"][1])))
    probs = table(data, "::")
    mix = probs @ w
    entry = node["players"][0]
    assert entry["action_mix"] == pytest.approx(mix.tolist(), abs=1e-12)
    assert sum(entry["action_mix"]) == pytest.approx(1.0)
    assert "action_mix" not in node["players"][1]
    text = evaluate(policy, "::", as_json=False)
    assert f"player 0 (OOP) to act, the range: check {100 * mix[0]:.1f} %, bet 50 {100 * mix[1]:.1f} %" in text


def test_facing_a_bet_the_mix_weights_by_the_bettors_reach(solved):
    policy, data = solved
    bet = table(data, "::")[1]  # player 0's probability of b50 per hand: its reach at ::b50
    node = evaluate(policy, "::b50")
    w = expected_weights(data, 1, bet)
    mix = table(data, "::b50") @ w
    assert node["players"][1]["action_mix"] == pytest.approx(mix.tolist(), abs=1e-12)
    text = evaluate(policy, "::b50", as_json=False)
    assert f"player 1 (IP) to act, the range: fold {100 * mix[0]:.1f} %, call {100 * mix[1]:.1f} %" in text


def test_categories_and_grids_show_the_strategy(solved):
    policy, data = solved
    text = evaluate(policy, "::", as_json=False)
    w = expected_weights(data, 0, np.ones(len(data["hands"][1])))
    probs = table(data, "::")
    hands = data["hands"][0]
    straights = [i for i, h in enumerate(hands) if {h[0], h[2]} in ({"K", "J"}, {"8", "7"})]  # KJ, 87 on T96Q
    s = probs[:, straights] @ w[straights] / w[straights].sum()
    line = next(x for x in text.splitlines() if x.strip().startswith("straight "))
    assert line.split()[-2:] == [f"{s[0]:.3f}", f"{s[1]:.3f}"]
    queens = [i for i, h in enumerate(hands) if h[0] == h[2] == "Q"]
    q = probs[:, queens] @ w[queens] / w[queens].sum()
    lines = text.splitlines()
    for a, name in enumerate(["c (check)", "b50 (bet 50)"]):
        at = next(k for k, x in enumerate(lines) if x.startswith(f"  {name} by class"))
        assert f" QQ{100 * q[a]:4.0f} " in lines[at + 3]  # the third row: AQo KQo QQ ...


def test_most_likely_hands_are_ordered_by_reach(solved):
    policy, data = solved
    text = evaluate(policy, "::b50", as_json=False).splitlines()
    start = next(k for k, x in enumerate(text) if x.startswith("player 0: ")) + 2
    listed = [x.split()[0] for x in text[start:start + 16]]
    reach = dict(zip(data["hands"][0], table(data, "::")[1]))
    assert [reach[h] for h in listed] == sorted(reach.values(), reverse=True)[:16]
    # at the root every hand of player 1's range has reach 1: strongest ranks first, not by card removal
    root = evaluate(policy, "::", as_json=False).splitlines()
    first = next(k for k, x in enumerate(root) if x.startswith("player 1: ")) + 2
    assert {root[first].split()[0][0], root[first].split()[0][2]} == {"A", "K"}
