"""Hold'em's default algorithm (issue 53 item 1): DCFR with its average restarted at the powers of
4 and its negative regrets' factor (t / 20)^0.5 / ((t / 20)^0.5 + 1) (beta=0.5, beta_scale=20), the
variant that needed the fewest iterations over the spots (docs/lp-and-variants.md); an explicit
option wins, and a resumed state keeps the options it was saved with."""

from __future__ import annotations

import json

from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.cli.imperfect import default_options

RIVER = ["--param", "board=Ks7d2c9h5s", "--param", "range0=AA,KQs", "--param", "range1=KK,QQ,AK", "-n", "20"]


def _nash_conv(*args) -> float:
    r = CliRunner().invoke(cli, ["solve", "holdem", *RIVER, *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["nash_conv"]


def test_the_default_is_dcfr_restarted_at_powers_of_four_with_negative_regrets_kept_longer():
    default = _nash_conv()
    full = ("-a", "dcfr", "--option", "restart=4", "--option", "restart_until=64", "--option", "beta=0.5", "--option",
            "beta_scale=20")
    assert default == _nash_conv(*full)
    assert default != _nash_conv("-a", "dcfr", "--option", "restart=4")  # (beta: other regrets from iteration 2)
    assert default != _nash_conv("-a", "dcfr", "--option", "beta=0.5", "--option", "beta_scale=20")  # (restarted at 4, 16)
    plain = _nash_conv("-a", "dcfr")
    assert _nash_conv("--option", "restart=0", "--option", "beta=0") == plain  # (beta_scale: no effect at beta 0)
    assert _nash_conv("--option", "beta=0") == _nash_conv("-a", "dcfr", "--option", "restart=4")


def test_default_options_leave_the_users_ray_and_resume_alone():
    assert default_options("holdem", (), None, None) == ("restart=4", "restart_until=64", "beta=0.5", "beta_scale=20")
    assert default_options("holdem", ("restart=0", "dtype=float32"), None, None) == \
        ("restart=0", "dtype=float32", "restart_until=64", "beta=0.5", "beta_scale=20")
    assert default_options("holdem", ("beta=0", "beta_scale=1", "restart=0", "restart_until=0"), None, None) == \
        ("beta=0", "beta_scale=1", "restart=0", "restart_until=0")
    assert default_options("holdem", (), "auto", None) == ()  # the Ray split does not restart an average
    assert default_options("holdem", (), None, "s.npz") == ()  # a state keeps its own options
    assert default_options("kuhn", (), None, None) == ()
