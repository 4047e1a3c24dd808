import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest


@pytest.fixture(scope="session")
def ray_local():
    """One real local Ray instance for the whole session (2 CPUs, 127.0.0.1, no dashboard)."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    yield ray
    ray.shutdown()
