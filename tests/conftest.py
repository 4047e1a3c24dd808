import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest

#: the files that start Ray: one scope of the parallel run (make test: pytest-xdist), so that two
#: local Ray clusters never run on the machine at once
RAY_FILES = {"test_distributed.py", "test_distributed_split.py"}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """A file's tests run in one worker (its module fixtures built once, its kernels compiled once),
    and the Ray files share one (xdist's own loadgroup marks do not reach pytest 9.2's node ids)."""
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            path = nodeid.split("::", 1)[0]
            return "ray" if path.rsplit("/", 1)[-1] in RAY_FILES else path

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
