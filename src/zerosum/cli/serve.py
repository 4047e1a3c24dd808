"""``zerosum serve``: the local web app (:mod:`zerosum.web`) under uvicorn.

It binds to 127.0.0.1 unless another address is asked for, and then warns: the app runs solvers
and reads uploads for whoever can reach it, with no authentication.
"""

from __future__ import annotations

import importlib.util
import socket
import threading
import time
import webbrowser

import click

from ..errors import ZerosumError


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind; anything but 127.0.0.1/localhost exposes the app to the network.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
def serve(port, host, open_browser):
    """Serve the web app: solve and watch convergence, explore strategies, play the solvers.

    Example: `zerosum serve --open`, then http://127.0.0.1:8000 in a browser.
    """
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise ZerosumError(f"the web app needs {' and '.join(missing)}: pip install -e '.[web]' "
                           f"(from the zerosum clone)")
    import uvicorn

    from ..web import create_app

    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: binding to {host}: anyone who can reach this address can run solvers and "
                   f"upload files (there is no login); use the default 127.0.0.1 to keep it local", err=True)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:        # bound here, so that a busy port or a bad address is one line, not uvicorn's log
        sock.bind((host, port))
    except (OSError, OverflowError) as e:
        sock.close()
        raise ZerosumError(f"cannot listen on {host}:{port} ({getattr(e, 'strerror', None) or e}); "
                           f"try another --port (--port 0: any free one)") from None
    real_port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{real_port}/"

    def announce():
        while not server.started:
            if server.should_exit:
                return
            time.sleep(0.05)
        click.echo(f"zerosum web app at {url} (Ctrl-C to stop)", err=True)
        if open_browser:
            webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:   # uvicorn shuts down on Ctrl-C, then re-raises the signal it caught
        pass
    click.echo("server stopped", err=True)
