"""Starting or joining Ray for ``--ray auto|ADDRESS``, with one-line errors instead of hangs.

``auto`` starts a local instance (or reuses the one this process already runs, as the tests do);
an address ``HOST:PORT`` joins a running cluster (``ray start --head`` on one machine,
``ray start --address HOST:PORT`` on the others).  The address is probed with a plain TCP connect
first, so an unreachable cluster is a one-line error within seconds rather than Ray's retries.
"""

from __future__ import annotations

import os
import socket

from ..errors import ZerosumError

#: seconds the TCP probe of a cluster address waits
CONNECT_TIMEOUT_S = 5.0
#: Ray starts its workers at niceness +15 by default (background work), so on a machine shared with
#: other jobs at normal priority the split's workers would lose to a one-process run at the user's
#: own priority; a local instance runs them at the driver's priority.
#: A cluster's nodes take the same setting from ``RAY_worker_niceness=0 ray start ...``.
LOCAL_SYSTEM_CONFIG = {"worker_niceness": 0}


def check_workers(workers: int | None) -> None:
    """Refuse --workers below 1 before anything starts."""
    if workers is not None and workers < 1:
        raise ZerosumError(f"--workers must be at least 1, got {workers}")


def import_ray():
    """Ray, or a one-line error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ZerosumError("--ray needs Ray: pip install 'zerosum[ray]'") from None
    return ray


def _probe(address: str) -> None:
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ZerosumError(f"--ray expects auto or HOST:PORT, got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as exc:
        raise ZerosumError(f"cannot reach a Ray cluster at {address} ({exc.strerror or exc}); start one with "
                           f"'ray start --head' or use --ray auto") from None


def start(address: str, workers: int | None = None) -> int:
    """Connect this process to Ray; returns the number of workers to use (``workers`` or the
    cluster's CPUs)."""
    check_workers(workers)
    if address != "auto":
        _probe(address.removeprefix("ray://") if address.startswith("ray://") else address)
    ray = import_ray()
    if not ray.is_initialized():
        try:
            if address == "auto":
                ray.init(address="local", num_cpus=max(workers or os.cpu_count() or 1, 1), include_dashboard=False,
                         log_to_driver=False, configure_logging=False, _system_config=LOCAL_SYSTEM_CONFIG)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except Exception as exc:  # noqa: BLE001 (Ray raises several kinds: ConnectionError, RuntimeError, ...)
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ZerosumError(f"could not start or join Ray at {address}: {first}") from None
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if workers is not None and workers > cpus:  # actors of one CPU each would wait for ever
        raise ZerosumError(f"the Ray cluster at {address} has {cpus} CPUs, fewer than --workers {workers}")
    return workers if workers is not None else max(cpus, 1)
