"""The app's shell: the page loads in a real browser with its three views, errors answer one line in
JSON and the server keeps answering."""

from conftest import wait_for


def test_unknown_api_route_answers_one_json_line(client):
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and set(r.json()) == {"error"}
    assert client.get("/").status_code == 200


def test_page_loads_with_its_view(live_server, browser, screenshot):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/")
    tabs = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#tabs button"), what="the tabs")
    names = [t.text for t in tabs]
    assert names[0] == "Solve and watch" and "Explore a strategy" in names and "Play" in names
    tabs[names.index("Explore a strategy")].click()
    assert browser.find_element(By.ID, "view-explore").get_attribute("hidden") is None
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_serve_refuses_a_busy_port_in_one_line():
    import socket

    from click.testing import CliRunner

    from zerosum.cli import cli

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        result = CliRunner().invoke(cli, ["serve", "--port", str(busy.getsockname()[1])])
    assert result.exit_code == 1
    assert result.output.startswith("Error: cannot listen on 127.0.0.1:") and result.output.count("\n") == 1


def test_serve_answers_then_stops_on_ctrl_c():
    """The real command: it prints its address, serves the page, and exits 0 on SIGINT."""
    import re
    import signal
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    zerosum = Path(sys.executable).with_name("zerosum")
    proc = subprocess.Popen([str(zerosum), "serve", "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        url = re.search(r"http://\S+/", line).group(0)
        with urllib.request.urlopen(url, timeout=10) as page:
            assert b"<title>zerosum</title>" in page.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 0
        assert "server stopped" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
