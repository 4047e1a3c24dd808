import numpy as np

from zerosum.solvers.regret_matching import against_fixed, self_play

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def test_against_always_rock_the_average_concentrates_on_paper():
    avg = against_fixed(RPS, [1, 0, 0], 1000)
    assert avg[1] > 0.99 and avg[1] < 1.0  # never exactly pure in finite time (the first round is uniform)
    assert np.argmax(avg) == 1


def test_self_play_on_rps_converges_to_uniform():
    x, y = self_play(RPS, 20000)
    assert np.allclose(x, 1 / 3, atol=1e-2) and np.allclose(y, 1 / 3, atol=1e-2)
    # the average's exploitability shrinks: best response gain against it is small
    a = np.array(RPS, dtype=float)
    assert (a @ y).max() - x @ a @ y < 2e-2
