import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest

#: the files that start Ray: one scope of the parallel run (make test: pytest-xdist), so that two
#: local Ray clusters never run on the machine at once
RAY_FILES = {"test_distributed.py", "test_distributed_split.py"}

#: the files whose first test compiles the public tree's pass on the poker family (float64 and
#: float32, on a cold cache): one scope, so that one worker compiles it once and the others find it
#: in the cache, rather than two workers compiling the same kernels at the same time.
PASS_KERNEL_FILES = {"test_cfr_variants.py", "test_public_tree.py", "test_public_tree_threads.py",
                     "test_node_locking.py"}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """A file's tests run in one worker (its module fixtures built once, its kernels compiled once),
    the Ray files share one and so do the files that compile the pass's kernels (xdist's own
    loadgroup marks do not reach pytest 9.2's node ids)."""
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            path = nodeid.split("::", 1)[0]
            name = path.rsplit("/", 1)[-1]
            if name in RAY_FILES:
                return "ray"
            return "pass-kernels" if name in PASS_KERNEL_FILES else path

    return FileScheduling(config, log)


@pytest.fixture(scope="session")
def ray_local():
    """One real local Ray instance for the whole session (2 CPUs, 127.0.0.1, no dashboard)."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    yield ray
    ray.shutdown()


@pytest.fixture(autouse=True)
def _sigint_as_a_shell_leaves_it():
    """Every test starts with SIGINT at Python's default: a worker process left ignoring it by an
    earlier test (two clean CI runs) passes SIG_IGN on to the commands a test starts, which then
    never see the Ctrl-C that tests/test_cli_interrupt.py, tests/web/test_app.py and
    tests/perfect/test_connect4_interrupt.py send them."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
