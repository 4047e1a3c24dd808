"""Silent phases (issue 10 item 5) and the compile guard (issue 11 item 4): progress on stderr
when it is not a terminal, never in --json stdout; a game too large to compile refused at once."""

import json
import time

import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli, common
from zerosum.core.compile import compile_game, estimate_histories


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_plain_progress_lines_on_stderr_not_in_json(monkeypatch):
    monkeypatch.setattr(common, "PLAIN_FIRST_S", 0.05)
    monkeypatch.setattr(common, "PLAIN_EVERY_S", 0.05)
    r = run("solve", "leduc", "-n", "3000", "--checkpoints", "3000", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["iterations"] == 3000                # stdout: one JSON object
    lines = [line for line in r.stderr.splitlines() if line.startswith("zerosum: cfr+ on leduc: ")]
    assert lines, r.stderr
    done = [int(line.split(": ")[2].split(" / ")[0].replace(",", "")) for line in lines]
    assert done == sorted(done) and all(0 <= d <= 3000 for d in done)
    assert all(" / 3,000 iterations (" in line and "elapsed" in line for line in lines)


def test_status_lines_report_one_long_call(monkeypatch):
    monkeypatch.setattr(common, "PLAIN_FIRST_S", 0.05)
    monkeypatch.setattr(common, "PLAIN_EVERY_S", 0.05)
    runner = CliRunner()
    with runner.isolation() as (_, err, _):
        with common.progress_status("compiling g") as update:
            update("12 histories")
            time.sleep(0.3)                                            # no update meanwhile
        text = err.getvalue().decode()
    assert text.count("zerosum: compiling g: 12 histories, ") >= 2


def test_compile_reports_progress_and_the_header_its_time():
    seen = []
    cg = compile_game(zerosum.load_game("poker", ranks=6, raises=3), progress=seen.append)
    assert seen == sorted(seen) and all(0 < n <= cg.n_histories for n in seen)
    r = run("solve", "kuhn", "-n", "10")
    assert "compiled in " in r.output.splitlines()[0]


def test_estimate_histories_is_close_on_known_games():
    for name in ("kuhn", "leduc", "openspiel:leduc_poker"):
        g = zerosum.load_game(name)
        n = zerosum.compiled(g).n_histories
        assert 0.5 * n < estimate_histories(g) < 2 * n, name


def test_game_too_large_to_compile_is_refused_at_once():
    start = time.perf_counter()
    with pytest.raises(zerosum.ZerosumError, match=r"openspiel:phantom_ttt is too large to compile: about "
                                                   r"[0-9.e+]+ histories or more \(estimated"):
        compile_game(zerosum.load_game("openspiel:phantom_ttt"))
    assert time.perf_counter() - start < 20
    r = run("solve", "openspiel:phantom_ttt")
    assert r.exit_code == 1 and r.output.count("\n") == 1 and "too large to compile" in r.output


def test_running_count_stops_the_walk_past_the_memory_limit(monkeypatch):
    # with no estimate up front, the count itself stops the walk once it passes the limit
    import sys

    module = sys.modules["zerosum.core.compile"]
    monkeypatch.setattr(module, "estimate_histories", lambda game: None)
    g = zerosum.load_game("poker", ranks=6, raises=3)
    n = compile_game(g).n_histories
    assert n > 3 * module._CHECK_EVERY
    with pytest.raises(zerosum.ZerosumError, match=r"the [0-9,]+ histories found so far \(and counting\)"):
        compile_game(g, max_bytes=(n // 2) * module.BYTES_PER_HISTORY)


def test_public_tree_build_progress_on_stderr_not_in_json(monkeypatch):
    # the public-tree build reports the public nodes built so far, as the history-tree compile does
    from zerosum.public_tree import build
    from zerosum.public_tree import compile as compile_module

    monkeypatch.setattr(common, "PLAIN_FIRST_S", 0.01)
    monkeypatch.setattr(common, "PLAIN_EVERY_S", 0.02)
    monkeypatch.setattr(build, "_PROGRESS_EVERY_S", 0.0)
    monkeypatch.setattr(compile_module, "_CACHE", {})
    original = build.poker_public_tree

    def slow(game, rank_form=True, progress=None):  # a build long enough for a few lines
        return original(game, rank_form, progress=lambda n: (time.sleep(0.05), progress(n)))

    monkeypatch.setattr(build, "poker_public_tree", slow)
    r = run("solve", "poker", "--param", "ranks=5", "-n", "2", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)                                       # stdout: one JSON object
    total = out["public_nodes"]
    prefix = "zerosum: building the public tree of poker("
    lines = [line for line in r.stderr.splitlines() if line.startswith(prefix) and " public nodes, " in line]
    assert len(lines) >= 2, r.stderr
    done = [int(line.split("): ")[1].split(" / ")[0].replace(",", "")) for line in lines]
    assert done == sorted(done) and done[-1] <= total and len(set(done)) >= 2
    assert all(f" / {total:,} public nodes, " in line and "elapsed" in line for line in lines)
