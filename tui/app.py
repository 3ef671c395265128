"""The Textual apps: the stepping debugger over one trace, and the course's demo page.

Kept small on purpose: an app only holds what it opens (a `Session`, or the demo's
settings) and its first screen; the screens own state and keys, the widgets draw.
"""

from __future__ import annotations

import gc
from pathlib import Path

import torch
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

    def on_mount(self) -> None:
        # The views' tensor math is tiny (one table at a time): torch's worker threads only
        # add start-up and, on a busy machine, contention (a 128 × 128 softmax went from
        # under 1 ms to 45 ms with two). One thread while the app runs; restored after.
        self._threads = torch.get_num_threads()
        torch.set_num_threads(1)
        # Drawing a screen makes many short-lived objects, and every so often the garbage
        # collector walked all of the process's long-lived ones (torch, the recording, the
        # analysis): a third of a key press's CPU time. They are frozen out of its sight
        # while the app runs, and the young generation is collected less often.
        self._gc_threshold = gc.get_threshold()
        gc.freeze()
        gc.set_threshold(10_000, *self._gc_threshold[1:])

    def on_unmount(self) -> None:
        torch.set_num_threads(self._threads)
        gc.set_threshold(*self._gc_threshold)
        gc.unfreeze()


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
