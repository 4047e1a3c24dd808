import json

import numpy as np
import pytest
from helpers import random_policy

import zerosum


def test_save_load_round_trip_keeps_every_probability(tmp_path):
    game = zerosum.load_game("leduc")
    policy = random_policy(zerosum.compiled(game), np.random.default_rng(5))
    path = tmp_path / "p.json"
    policy.save(path)
    back = zerosum.TabularPolicy.load(game, path)
    for a, b in zip(policy.probs, back.probs):
        assert np.allclose(a, b, atol=1e-15)
    assert zerosum.nash_conv(game, back) == pytest.approx(zerosum.nash_conv(game, policy), abs=1e-12)


def test_labels_are_readable():
    kuhn = zerosum.TabularPolicy.uniform(zerosum.load_game("kuhn"))
    assert kuhn.action_probabilities("Qpb") == {"p": 0.5, "b": 0.5}
    leduc = zerosum.TabularPolicy.uniform(zerosum.load_game("leduc"))
    assert leduc.action_probabilities("KQ:crc/r") == {"f": 1 / 3, "c": 1 / 3, "r": 1 / 3}
    with pytest.raises(zerosum.ZerosumError, match="no information set"):
        kuhn.action_probabilities("Zpb")


def test_loading_a_policy_of_another_game_says_so(tmp_path):
    path = tmp_path / "kuhn.json"
    zerosum.TabularPolicy.uniform(zerosum.load_game("kuhn")).save(path)
    with pytest.raises(zerosum.ZerosumError, match="made for game 'kuhn', not 'leduc'"):
        zerosum.TabularPolicy.load(zerosum.load_game("leduc"), path)


@pytest.mark.parametrize("content, message", [
    ("not json", "not a JSON policy file"),
    ('{"format": "other"}', "not a zerosum policy file"),
    ('{"format": "zerosum.policy", "version": 1, "game": "kuhn", "players": [{}, {}]}', "do not match"),
])
def test_malformed_policy_files_are_refused(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(zerosum.ZerosumError, match=message):
        zerosum.TabularPolicy.load(zerosum.load_game("kuhn"), path)


def test_probabilities_must_sum_to_one(tmp_path):
    game = zerosum.load_game("kuhn")
    data = zerosum.TabularPolicy.uniform(game).to_dict()
    data["players"][0]["K"] = {"p": 0.9, "b": 0.9}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(zerosum.ZerosumError, match="sum to 1"):
        zerosum.TabularPolicy.load(game, path)


def test_unwritable_path_leaves_nothing(tmp_path):
    policy = zerosum.TabularPolicy.uniform(zerosum.load_game("kuhn"))
    with pytest.raises(zerosum.ZerosumError, match="cannot write"):
        policy.save(tmp_path / "missing-dir" / "p.json")
    assert list(tmp_path.iterdir()) == []
