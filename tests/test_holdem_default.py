"""Hold'em's default algorithm (issue 53 item 1): DCFR with its average restarted at the powers of
4, the variant that needed the fewest iterations over the spots (docs/lp-and-variants.md); an
explicit option wins, and a resumed state keeps the options it was saved with."""

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


def test_the_default_is_dcfr_with_the_average_restarted_at_powers_of_four():
    default = _nash_conv()
    assert default == _nash_conv("-a", "dcfr", "--option", "restart=4")
    assert default != _nash_conv("-a", "dcfr")  # (restarted at 4 and 16: another average at 20)
    assert _nash_conv("--option", "restart=0") == _nash_conv("-a", "dcfr")


def test_default_options_leave_the_users_ray_and_resume_alone():
    assert default_options("holdem", (), None, None) == ("restart=4",)
    assert default_options("holdem", ("restart=0", "dtype=float32"), None, None) == ("restart=0", "dtype=float32")
    assert default_options("holdem", (), "auto", None) == ()  # the Ray split does not restart an average
    assert default_options("holdem", (), None, "s.npz") == ()  # a state keeps its own options
    assert default_options("kuhn", (), None, None) == ()
