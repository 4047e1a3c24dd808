"""The batches view: a results folder of ``zerosum batch`` (docs/batch.md), its progress and its
aggregate report, and a flop's saved solution opened in the explorer.

Routes (JSON; bad input answers ``{"error": one line}`` with 400):

* ``GET /api/batches?folder=PATH``: the batch in the results folder ``PATH`` (a folder holding the
  ``batch.json`` that ``zerosum batch --out PATH`` writes first; any other path is refused):
  ``progress`` (the flops of the set done and in all, as the folder's own files say: the manifest's
  set and the flop files of its template, those :func:`zerosum.batch.report.read_results` reads),
  ``report`` (:func:`zerosum.batch.report.aggregate` of those files, as is: never recomputed here;
  null before the first flop) with each row's ``solution`` (whether its ``.zsp`` is there);
* ``POST /api/batches/open`` ``{folder, flop}``: that flop's saved solution (``--save-solutions``)
  loaded into the explorer's store (:class:`~zerosum.web.explore.PolicyStore`) on the whole tree of
  the template on that board, evaluated exactly as an uploaded policy; answers the explorer's
  summary (``id``, ``kind: "holdem"``, ``board``, ...) plus ``batch`` and ``flop``, which the page
  opens with the explorer's own ``open``.

Reading a folder only reads its JSON files and a ``.zsp`` its flop file names (a plain file name
in that folder): nothing is written, run or unpickled.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..errors import ZerosumError
from .common import read_json

MANIFEST_FORMAT = "zerosum.batch"


def results_folder(folder) -> tuple[Path, dict]:
    """The folder ``folder`` names and its manifest (``batch.json``), or a one-line error."""
    from ..batch.run import MANIFEST

    if not isinstance(folder, str) or not folder.strip():
        raise ZerosumError("name a results folder: GET /api/batches?folder=PATH (the --out of zerosum batch)")
    root = Path(folder.strip()).expanduser()
    if not root.is_dir():
        raise ZerosumError(f"no folder {str(root)!r} on the server")
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ZerosumError(f"{str(root)!r} is not a results folder of zerosum batch (no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        raise ZerosumError(f"{str(root / MANIFEST)!r} is not a batch manifest") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT or \
            not isinstance(manifest.get("weights"), dict):
        raise ZerosumError(f"{str(root / MANIFEST)!r} is not a batch manifest (format {MANIFEST_FORMAT!r})")
    return root, manifest


def _results(root: Path) -> list[dict]:
    """The folder's flop results (:func:`~zerosum.batch.report.read_results`), none before the first."""
    from ..batch.report import read_results

    try:
        return read_results(root)
    except ZerosumError:  # the folder and its manifest are checked: no flop file of its template yet
        return []


def batch_view(folder) -> dict:
    """What ``GET /api/batches`` answers for ``folder`` (see the module docstring)."""
    from ..batch.report import aggregate

    root, manifest = results_folder(folder)
    results = _results(root)
    in_set = set(manifest["weights"])
    done = sum(r["flop"] in in_set for r in results)
    total = len(in_set)
    updated = None
    if results:
        times = [(root / f"{r['flop']}.json").stat().st_mtime for r in results
                 if (root / f"{r['flop']}.json").exists()]
        updated = max(times) if times else None
    report = None
    if results:
        report = aggregate(results)
        saved = {r["flop"]: _solution_path(root, r) is not None for r in results}
        for row in report["rows"]:
            row["solution"] = saved[row["flop"]]
    template = manifest.get("template") if isinstance(manifest.get("template"), dict) else {}
    return {"folder": str(root.resolve()), "name": template.get("name"), "template_hash": manifest.get("template_hash"),
            "target_pct": manifest.get("target_pct"), "flop_set": manifest.get("flops"),
            "progress": {"done": done, "total": total, "left": total - done, "complete": done >= total,
                         "results": len(results), "updated": updated},
            "report": report}


def _solution_path(root: Path, result: dict) -> Path | None:
    """The ``.zsp`` a flop's file names, when it is a plain file name in ``root`` and is there."""
    name = result.get("solution")
    if not isinstance(name, str) or not name or Path(name).name != name or name in (".", ".."):
        return None
    path = root / name
    return path if path.is_file() else None


def flop_solution(folder, flop) -> tuple[Path, dict, dict, Path]:
    """The results folder, its manifest, the flop ``flop``'s result and its saved solution's path,
    or a one-line error."""
    root, manifest = results_folder(folder)
    if not isinstance(flop, str) or not flop.strip():
        raise ZerosumError("send {\"folder\": PATH, \"flop\": FLOP} (a flop of GET /api/batches' rows)")
    flop = flop.strip()
    result = next((r for r in _results(root) if r["flop"] == flop), None)
    if result is None:
        raise ZerosumError(f"no result of flop {flop!r} in {str(root)!r}")
    path = _solution_path(root, result)
    if path is None:
        raise ZerosumError(f"flop {flop} has no saved solution in {str(root)!r} "
                           f"(zerosum batch --save-solutions writes one a flop)")
    if not isinstance(manifest.get("template"), dict):
        raise ZerosumError(f"{str(root)!r}: the manifest holds no template spot")
    return root, manifest, result, path


def open_flop(store, folder, flop) -> dict:
    """Load the flop ``flop``'s saved solution of the batch in ``folder`` into ``store`` (the
    explorer's) on the whole tree, evaluated exactly; its summary (see the module docstring)."""
    from ..games import load_game
    from ..poker.spots import spot_params
    from ..public_tree.holdem_build import holdem_public_tree
    from ..solutions.saved import open_solution

    root, manifest, result, path = flop_solution(folder, flop)
    spot = {**manifest["template"], "board": result["board"]}
    game = load_game("holdem", **spot_params(spot, "the batch's template"))
    policy = open_solution(path, game=game)  # checked against the game's id and the stored tree
    if policy.tree.iso is not None:
        policy = policy.on_full_tree(holdem_public_tree(game))
    ev = policy.evaluate()
    nc = float(ev["nash_conv"])
    summary = {"value": float(ev["value"]), "best_response_values": [float(v) for v in ev["best_response_values"]],
               "nash_conv": nc, "exploitability": nc / 2}
    return store.keep(game, "holdem", policy, summary, batch=str(root.resolve()), flop=result["flop"]).summary


def routes(state) -> list:
    """The batches view's routes; opened flops go into ``state["policies"]`` (the explorer's store)."""
    lock = threading.Lock()
    opened: dict = {}  # (solution path, size, mtime) -> the policy id it was loaded as

    async def get_batch(request: Request):
        view = await run_in_threadpool(batch_view, request.query_params.get("folder"))
        return JSONResponse(view)

    def load(folder, flop) -> dict:
        store = state["policies"]
        _, _, _, path = flop_solution(folder, flop)
        try:
            st = path.stat()
            key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
        except OSError:
            key = None
        with lock:
            pid = opened.get(key)
        if pid is not None:
            try:
                return store.get(pid).summary
            except ZerosumError:  # dropped from the store since: load it again
                pass
        summary = open_flop(store, folder, flop)
        if key is not None:
            with lock:
                opened[key] = summary["id"]
        return summary

    async def open_solution(request: Request):
        body = await read_json(request)
        if not isinstance(body, dict):
            raise ZerosumError("send {\"folder\": PATH, \"flop\": FLOP}")
        return JSONResponse(await run_in_threadpool(load, body.get("folder"), body.get("flop")))

    return [Route("/api/batches", get_batch, methods=["GET"]),
            Route("/api/batches/open", open_solution, methods=["POST"])]
