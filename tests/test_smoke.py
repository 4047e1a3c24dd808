import zerosum


def test_uniform_leduc_nash_conv_is_lab_value():
    game = zerosum.load_game("leduc")
    assert abs(zerosum.nash_conv(game, zerosum.TabularPolicy.uniform(game)) - 4.747222222222222) < 1e-12
