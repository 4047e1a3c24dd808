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
