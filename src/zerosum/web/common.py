"""What every view's routes share: the one error shape and the capped JSON body reader.

Its own module (not :mod:`.app`, which imports the views) so that views import it without a cycle.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from ..errors import ZerosumError

#: the largest request body accepted (an uploaded policy): a Leduc policy is ~60 KB, a limit turn
#: subgame's per-node policy file tens of MB; larger uploads are refused with 413
MAX_BODY = 64 * 1024 * 1024


def error(message: str, status: int = 400) -> JSONResponse:
    """The one shape of an error answer: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request, limit: int = MAX_BODY):
    """The request's body parsed as JSON, refused in one line when too large or malformed."""
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise HTTPException(413, f"the upload is {int(size) / 2**20:.1f} MiB; the limit is {limit / 2**20:.0f} MiB")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise HTTPException(413, f"the upload is over the limit of {limit / 2**20:.0f} MiB")
    if not body:
        return {}
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ZerosumError(f"the request is not valid JSON ({e})") from None
