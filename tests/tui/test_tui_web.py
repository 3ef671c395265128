"""`attnscope tui TARGET --web` for real: the server on a free localhost port, the page in headless
Chromium (Debian's `chromium`, driven by Playwright), the finding read off the rendered terminal.

The terminal in the page is xterm.js, which draws on a canvas; the test reads the same screen
from xterm's buffer, which is what it draws. The server runs in its own process group and is
always stopped with everything it started. `ATTNSCOPE_WEB_SCREENSHOT=path` also saves a
screenshot (docs/tui.md's picture is made that way).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
MISSING = [name for name, present in (
    ("chromium", CHROMIUM is not None),
    ("playwright", importlib.util.find_spec("playwright") is not None),
    ("textual-serve", importlib.util.find_spec("textual_serve") is not None),
) if not present]
# .ci/setup installs all three for the tests: in CI a missing one is a failure, not a skip.
pytestmark = pytest.mark.skipif(bool(MISSING) and not os.environ.get("CI"), reason=f"not installed: {MISSING}")

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
# textual-serve keeps its xterm.js Terminal private; catch it as it is assigned to `this.terminal`.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer) (window.attnscopeTerminals = window.attnscopeTerminals || []).push(value);
  },
});
"""
SCREEN_TEXT = """() => (window.attnscopeTerminals || []).map(term => {
  const buffer = term.buffer.active, rows = [];
  for (let y = 0; y < term.rows; y++) rows.push(buffer.getLine(buffer.viewportY + y).translateToString(true));
  return rows.join("\\n");
}).join("\\n")"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(target: str, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """`attnscope tui TARGET --web --port PORT`, stopped with its whole process group on exit."""
    command = [sys.executable, "-c", "import sys; from tracer.cli import main; sys.exit(main(sys.argv[1:]))",
               "tui", target, "--web", "--port", str(port)]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    output = server.stdout.read().decode(errors="replace") if server.stdout else ""
                    pytest.fail(f"the server did not start listening (exit {server.poll()}):\n{output}")
                time.sleep(0.2)
        yield server
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
        try:  # app processes the server started, should any outlive it
            os.killpg(server.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if server.stdout:
            server.stdout.close()


def test_the_browser_shows_the_finding_and_takes_keys(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    assert not MISSING, f"not installed: {MISSING}"
    port = free_port()
    with served("zoo:softmax_axis_query", port) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 820})
            page.add_init_script(CATCH_TERMINAL)
            page.goto(f"http://127.0.0.1:{port}/")
            # The app process traces the model first (imports and a forward pass): allow a minute.
            page.wait_for_function(f"({SCREEN_TEXT})().includes('error[softmax-axis]')", timeout=60_000)
            screen = page.evaluate(SCREEN_TEXT)
            assert "zoo:softmax_axis_query · #0/17 linear" in screen
            assert "findings (1)" in screen and "1 error, 0 warnings" in screen
            page.locator(".xterm-screen").click()
            page.keyboard.press("f")  # jump to the finding, as in the terminal
            page.wait_for_function(f"({SCREEN_TEXT})().includes('#12/17 softmax')", timeout=30_000)
            screen = page.evaluate(SCREEN_TEXT)
            assert "dim=-2 → Tq=5 (query positions)" in screen
            shot = Path(os.environ.get("ATTNSCOPE_WEB_SCREENSHOT") or tmp_path / "web.png")
            page.screenshot(path=str(shot))
            assert shot.read_bytes().startswith(b"\x89PNG")
        finally:
            browser.close()
        assert server.poll() is None, "the server kept serving while the page was open"

