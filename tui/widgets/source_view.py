"""SourceView: the user's source around the current op's call, that line highlighted.

It renders as many lines as fit, so it is useful at 80×24 and at 200×60 alike, and never
wraps: a line wider than the pane ends in "…" (the pane is as wide as the centre under 180
columns, holding an 80-character line whole at 120, and beside the details from 180, holding
a 91-character one). Focused (Tab), ←/→ scroll it sideways to the cut end of a line. Each file is highlighted once, in a worker thread (Pygments
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
from textual.binding import Binding
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..session import Session

CURRENT_LINE = Style(bgcolor="rgb(60,60,90)", bold=True)
SIDEWAYS_STEP = 8  # columns per ←/→


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
    """Lines around `file:line` of the current op, drawn line by line (Textual's line API).

    Each drawn line is kept as a strip, keyed by file, number, whether it is the current
    line and the width: stepping within a function redraws from cache instead of turning a
    highlighted page of code into Textual content again (which cost tens of milliseconds).
    """

    BINDINGS = [
        Binding("left", "sideways(-1)", "scroll left", show=False),
        Binding("right", "sideways(1)", "scroll right", show=False),
        Binding("home", "sideways(0)", "line starts", show=False),
    ]
    can_focus = True

    step: reactive[int] = reactive(0)
    """Index of the op whose call is shown."""
    shift: reactive[int] = reactive(0)
    """Columns of code scrolled out of view on the left."""

    def __init__(self, session: Session, **options: object) -> None:
        super().__init__(**options)
        self.session = session
        self._strips: dict[tuple, Strip] = {}
        self._shown: tuple | None = None  # (step, height) -> what `_window` found, for one repaint

    def watch_step(self) -> None:
        self.shift = 0
        if self.session.events:
            event = self.session.events[self.session.clamp(self.step)]
            self.border_title = f"{shown_path(event.file)}:{event.line}" if event.file else "source"

    def _window(self) -> tuple[Text | None, tuple[Text, ...], bool, int, int]:
        """(message instead of code, lines, highlighted, first, last) for the current step and height."""
        height = max(self.scrollable_content_region.height, 3)
        if self._shown is not None and self._shown[0] == (self.step, height):
            return self._shown[1]
        found: tuple[Text | None, tuple[Text, ...], bool, int, int]
        event = self.session.events[self.session.clamp(self.step)] if self.session.events else None
        if event is None:
            found = (Text(""), (), False, 0, 0)
        elif not event.file:
            found = (Text("no user source line for this op", style="dim"), (), False, 0, 0)
        else:
            lines, highlighted = source_lines(event.file)
            if not highlighted:
                self._highlight(event.file)
            # A third of the lines before the call and the rest after; a line wider than the pane
            # ends in "…" instead of wrapping, so code keeps its shape and the call stays in view.
            first, last = max(1, event.line - height // 3), min(len(lines), event.line + height)
            message = None if lines else Text(f"{event.file} is not available here", style="dim")
            found = (message, lines, highlighted, first, last)
        self._shown = ((self.step, height), found)
        return found

    def action_sideways(self, direction: int) -> None:
        """Scroll the code by `SIDEWAYS_STEP` columns (0: back to the line starts), no further
        than the end of the longest line shown."""
        message, lines, _, first, last = self._window()
        if message is not None or not lines:
            return
        room = self.scrollable_content_region.width - len(str(last)) - 2
        longest = max(len(lines[n - 1]) for n in range(first, last + 1))
        most = max(0, longest - room + 1)
        self.shift = 0 if direction == 0 else max(0, min(most, self.shift + direction * SIDEWAYS_STEP))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        message, lines, highlighted, first, last = self._window()
        if message is not None:
            return self._strip(message, width) if y == 0 else Strip.blank(width, self.rich_style)
        number = first + y
        if number > last:
            return Strip.blank(width, self.rich_style)
        event = self.session.events[self.session.clamp(self.step)]
        current = number == event.line
        digits = len(str(last))
        key = (event.file, number, current, width, highlighted, digits, self.shift)
        strip = self._strips.get(key)
        if strip is None:
            gutter = Text(f"{'❱' if current else ' '}{number:>{digits}} ", style="bold red" if current else "dim")
            code = lines[number - 1]
            if self.shift:  # scrolled: "…" where the line's start is out of view
                code = Text("…", style="dim") + code[self.shift + 1:] if len(code) > self.shift else Text("")
            line = gutter + code
            if current:
                line.stylize(CURRENT_LINE)
            strip = self._strips[key] = self._strip(line, width)
        return strip

    def _strip(self, text: Text, width: int) -> Strip:
        console = self.app.console
        options = console.options.update(width=width, height=1, no_wrap=True, overflow="ellipsis")
        segments = console.render_lines(text, options, style=self.rich_style, pad=True)[0]
        return Strip(segments, width)

    def on_resize(self) -> None:
        if len(self._strips) > 2000:  # sizes come and go: keep the cache from growing without end
            self._strips.clear()

    @work(thread=True, exclusive=True, group="highlight")
    def _highlight(self, filename: str) -> None:
        highlight_file(filename)
        self.app.call_from_thread(self._highlighted)

    def _highlighted(self) -> None:
        self._shown = None
        self.refresh()
