"""SourceView: the user's source around the current op's call, that line highlighted.

It renders as many lines as fit, so it is useful at 80×24 and at 200×60 alike, and never
wraps: a line wider than the pane ends in "…" (from 180 columns the pane holds an
88-character line whole). Each file is highlighted once, in a worker thread (Pygments
compiles its lexer on first use, half a second that must not delay the first screen), and
cached: until then the lines show plain. A recording opened where the model's code does
not exist says so.
"""

from __future__ import annotations

import linecache
import os

from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text
from textual import work
from textual.reactive import reactive
from textual.widget import Widget

from ..session import Session

CURRENT_LINE = Style(bgcolor="rgb(60,60,90)", bold=True)


def shown_path(filename: str) -> str:
    """`filename` relative to the working directory when inside it: short and stable."""
    here = os.getcwd()
    absolute = os.path.abspath(filename)
    return os.path.relpath(absolute, here) if absolute.startswith(here + os.sep) else filename


_HIGHLIGHTED: dict[tuple[str, float], tuple[Text, ...]] = {}


def _stamp(filename: str) -> float:
    try:
        return os.path.getmtime(filename)
    except OSError:
        return 0.0


def highlight_file(filename: str) -> tuple[Text, ...]:
    """Every line of `filename`, syntax-highlighted, cached by name and modification time."""
    key = (filename, _stamp(filename))
    if key not in _HIGHLIGHTED:
        code = "".join(linecache.getlines(filename))
        text = Syntax(code, "python", theme="monokai", background_color="default").highlight(code) if code else Text()
        _HIGHLIGHTED[key] = tuple(text.split("\n", allow_blank=True)) if code else ()
    return _HIGHLIGHTED[key]


def source_lines(filename: str) -> tuple[tuple[Text, ...], bool]:
    """The file's lines, highlighted when that is done already; and whether it is."""
    cached = _HIGHLIGHTED.get((filename, _stamp(filename)))
    if cached is not None:
        return cached, True
    return tuple(Text(line.rstrip("\n")) for line in linecache.getlines(filename)), False


class SourceView(Widget):
    """Lines around `file:line` of the current op."""

    step: reactive[int] = reactive(0)
    """Index of the op whose call is shown."""

    def __init__(self, session: Session, **options: object) -> None:
        super().__init__(**options)
        self.session = session

    def watch_step(self) -> None:
        if self.session.events:
            event = self.session.events[self.session.clamp(self.step)]
            self.border_title = f"{shown_path(event.file)}:{event.line}" if event.file else "source"

    def render(self) -> Text:
        if not self.session.events:
            return Text("")
        event = self.session.events[self.session.clamp(self.step)]
        if not event.file:
            return Text("no user source line for this op", style="dim")
        lines, highlighted = source_lines(event.file)
        if not highlighted:
            self._highlight(event.file)
        if not lines:
            return Text(f"{event.file} is not available here", style="dim")
        # A third of the lines before the call and the rest after; a line wider than the pane
        # ends in "…" instead of wrapping, so code keeps its shape and the call stays in view.
        height = max(self.content_size.height, 3)
        first, last = max(1, event.line - height // 3), min(len(lines), event.line + height)
        width = len(str(last))
        shown = []
        for number in range(first, last + 1):
            current = number == event.line
            gutter = Text(f"{'❱' if current else ' '}{number:>{width}} ", style="bold red" if current else "dim")
            line = gutter + lines[number - 1] if number - 1 < len(lines) else gutter
            if current:
                line.stylize(CURRENT_LINE)
            shown.append(line)
        text = Text("\n").join(shown)
        text.no_wrap, text.overflow = True, "ellipsis"
        return text

    @work(thread=True, exclusive=True, group="highlight")
    def _highlight(self, filename: str) -> None:
        highlight_file(filename)
        self.app.call_from_thread(self.refresh)
