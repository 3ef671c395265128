"""The Textual apps: the stepping debugger over one trace, and the course's demo page.

Kept small on purpose: an app only holds what it opens (a `Session`, or the demo's
settings) and its first screen; the screens own state and keys, the widgets draw.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from tracer.trace import Trace

from .demo_math import DemoSettings
from .screens.demo import DemoScreen
from .screens.main import MainScreen
from .session import Session

CSS_FILE = Path(__file__).with_name("app.tcss")


class ScopeApp(App[None]):
    """`attnscope tui`: replay one recorded forward pass op by op."""

    CSS_PATH = CSS_FILE
    TITLE = "attnscope"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+c", "quit", "quit", show=False, priority=True)]

    def __init__(self, trace: Trace, label: str = "") -> None:
        super().__init__()
        self.session = Session(trace, label or trace.recording.root_type or "recording")
        self.theme = "textual-dark"

    def get_default_screen(self) -> Screen:
        return MainScreen(self.session)


class DemoApp(App[None]):
    """`attnscope demo`: the course's attention and LayerNorm page."""

    CSS_PATH = CSS_FILE
    TITLE = "attnscope demo"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+c", "quit", "quit", show=False, priority=True)]

    def __init__(self, settings: DemoSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or DemoSettings()
        self.theme = "textual-dark"

    def get_default_screen(self) -> Screen:
        return DemoScreen(self.settings)


def run_app(trace: Trace, label: str = "") -> None:
    """Open the debugger on a finished trace (used by `attnscope tui` and `attnscope run --tui`)."""
    ScopeApp(trace, label).run()


def run_demo(settings: DemoSettings | None = None) -> None:
    DemoApp(settings).run()
