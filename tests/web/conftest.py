"""Fixtures of the web app's tests: a real server (uvicorn in a thread, on a free port) and a real
headless Chromium driven by Selenium.

Chromium and its driver come from the system's packages (``apt-get install chromium chromium-driver``;
``.ci/run`` installs them where missing); where they cannot be found the browser tests skip, saying so.
Screenshots go to ``$ZEROSUM_SCREENSHOTS`` (default ``build/screenshots``).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web app needs the web extra: pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="the web app needs the web extra: pip install -e '.[web]'")

SCREENSHOTS = Path(os.environ.get("ZEROSUM_SCREENSHOTS", Path(__file__).parents[2] / "build" / "screenshots"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """A uvicorn server of :func:`zerosum.web.create_app` in a daemon thread."""

    def __init__(self):
        import uvicorn

        from zerosum.web import create_app

        self.app = create_app()
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def live_server():
    """A running server for the module's tests (``.url``, ``.app``)."""
    with LiveServer() as server:
        yield server


@pytest.fixture(scope="module")
def client():
    """Starlette's in-process test client (no socket, no browser) for API-level tests."""
    from starlette.testclient import TestClient

    from zerosum.web import create_app

    app = create_app()
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _chromium() -> tuple[str | None, str | None]:
    browser = os.environ.get("ZEROSUM_CHROMIUM") or next(
        (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = os.environ.get("ZEROSUM_CHROMEDRIVER") or shutil.which("chromedriver")
    return browser, driver


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (Selenium WebDriver), 1280x900, implicit waits off (tests wait explicitly)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="browser tests need selenium (the test extra)")
    binary, driver = _chromium()
    if binary is None or driver is None:
        pytest.skip("no Chromium and chromedriver on this machine: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900", "--disable-extensions"):
        options.add_argument(arg)
    service = webdriver.ChromeService(executable_path=driver)
    chrome = webdriver.Chrome(options=options, service=service)
    yield chrome
    chrome.quit()


@pytest.fixture
def screenshot(browser):
    """``screenshot(name)`` saves the browser's page as ``SCREENSHOTS/name.png``."""
    def take(name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        browser.save_screenshot(str(path))
        return path
    return take


def wait_for(browser, condition, timeout: float = 20.0, what: str = "the page"):
    """Poll ``condition(browser)`` until it returns something true (returned) or fail naming ``what``."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = condition(browser)
            if last:
                return last
        except Exception as e:  # noqa: BLE001  (an element not there yet, stale, a value not parsed yet)
            last = e
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")
