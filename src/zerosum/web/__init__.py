"""The local web app (``zerosum serve``): solve and watch, explore a saved strategy, play, in the browser.

* :mod:`.app` -- :func:`create_app`: the Starlette application and its error handling;
* :mod:`.batches` -- a ``zerosum batch`` results folder: its progress, its aggregate report, a flop's
  saved solution opened in the explorer;
* :mod:`.common` -- the error shape and the capped JSON body reader every view uses;
* :mod:`.explore` -- loaded policies: information-set tables, hold'em trees and hand grids;
* :mod:`.play` -- poker hands against a solved policy, Connect Four against the exact solver;
* :mod:`.runs` -- solve and watch: CFR-family runs in background threads, their NashConv curves;
* ``static/`` -- the page: plain HTML, CSS and JavaScript, no build step, nothing fetched from a CDN.

Starlette (with uvicorn) is the framework: a small, well-kept ASGI toolkit with routing, static
files, a test client and background threads, and nothing we do not use (no ORM, no templates).
Solvers run in worker threads, never on the event loop, so the page stays interactive.

May import: Starlette, :mod:`zerosum` (games, solvers, public tree, perfect, progress, errors).
Never click or the command line; nothing outside this package and :mod:`zerosum.cli.serve`
imports it.  Needs the ``web`` extra.
"""

from .app import create_app

__all__ = ["create_app"]
