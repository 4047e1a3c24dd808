"""The Starlette application: the page, the JSON API of each view, and one error policy.

Every API route answers JSON.  Bad input (a :class:`~zerosum.errors.ZerosumError`, a malformed
body) answers ``{"error": "one line"}`` with status 400; an unexpected failure answers 500 with
one line and the server keeps running.  Request bodies over :data:`MAX_BODY` bytes are refused
(413) before they are read whole, and nothing is ever unpickled.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import ZerosumError
from .common import MAX_BODY, error, read_json  # noqa: F401  (read_json: the views' reader)

STATIC = Path(__file__).parent / "static"


async def _zerosum_error(_request, exc):
    return error(str(exc), 400)


async def _http_error(_request, exc):
    return error(str(exc.detail), exc.status_code)


async def _unexpected(_request, exc):
    first = str(exc).splitlines()[0] if str(exc) else ""
    return error(f"internal error: {type(exc).__name__}: {first}"[:300], 500)


async def _index(_request):
    return FileResponse(STATIC / "index.html")


def create_app() -> Starlette:
    """The whole app: ``/`` (the page), ``/static/...``, and each view's ``/api/...`` routes
    (solve and watch with the spot builder, explore, play, batches); the runs' threads are stopped when the server shuts down."""
    import contextlib

    from . import batches, explore, play, runs, spots

    state = {"policies": explore.PolicyStore(), "runs": runs.RunManager()}
    routes = [Route("/", _index), Mount("/static", StaticFiles(directory=STATIC), name="static"),
              *runs.routes(state), *explore.routes(state), *play.routes(state),
              *spots.routes(state), *batches.routes(state)]

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        yield
        state["runs"].close()

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ZerosumError: _zerosum_error, HTTPException: _http_error,
                                        Exception: _unexpected})
    app.state.zerosum = state
    return app
