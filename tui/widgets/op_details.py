"""OpDetails: the current op in words: the call, what its arguments mean, its tensors, findings.

A ScrollView drawing pre-rendered lines, not a Static in a scroll box: its size never
depends on its content, so a step repaints this pane alone instead of re-laying out the
whole screen.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..explain import args_text, finding_lines, meaning_lines, tensor_lines
from ..session import Session


def describe(session: Session, step: int) -> Group:
    """Everything the pane says about op `step`."""
    if not session.events:
        return Group(Text("nothing was recorded: the forward pass made no tensor ops", style="bold"))
    event = session.events[session.clamp(step)]
    kind = session.module_type(event.module)
    parts: list[Text] = [
        Text.assemble((f"#{event.index} ", "bold"), (event.op, "bold magenta"), f"  {event.target}"),
        Text.assemble(("module ", "dim"), event.module or "(model)", (f" ({kind})" if kind else "", "cyan"),
                      ("  line ", "dim"), str(event.line) if event.file else "–"),
        Text(args_text(event), style="italic"),
    ]
    parts += meaning_lines(session, event)
    if event.error:
        parts.append(Text.assemble(("raised: ", "bold red"), event.error))
    parts += finding_lines(session, event)
    for position, meta in enumerate(event.inputs):
        parts += tensor_lines(session, f"in[{position}]", meta)
    for position, meta in enumerate(event.outputs):
        parts += tensor_lines(session, f"out[{position}]", meta, session.recording.stats_of(meta.vid))
    return Group(*parts)


class OpDetails(ScrollView, can_focus=True):
    """Re-rendered whenever the screen moves `step`, and when its width changes."""

    BINDINGS = [
        Binding("up", "scroll_up", "scroll up", show=False),
        Binding("down", "scroll_down", "scroll down", show=False),
        Binding("pageup", "page_up", "page up", show=False),
        Binding("pagedown", "page_down", "page down", show=False),
    ]

    step: reactive[int] = reactive(0, repaint=False)
    """Index of the op to describe."""

    def __init__(self, session: Session, **options: object) -> None:
        super().__init__(**options)
        self.session = session
        self.lines: list[Strip] = []
        self._width = 0

    def watch_step(self) -> None:
        self._write()

    def on_resize(self, event: events.Resize) -> None:
        if self.scrollable_content_region.width != self._width:
            self._write()

    def _write(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        self._width = width
        console = self.app.console
        rendered = console.render_lines(describe(self.session, self.step), console.options.update_width(width), pad=False)
        self.lines = [Strip(line).crop_extend(0, width, None) for line in rendered]
        size = Size(width, len(self.lines))
        # The pane's own size never changes (its scrollbar is always there), so the new
        # virtual size needs no relayout of the screen: set it quietly, update the bar.
        self.set_reactive(ScrollView.virtual_size, size)
        self.vertical_scrollbar.window_virtual_size = size.height
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.vertical_scrollbar.refresh()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        if index >= len(self.lines):
            return Strip.blank(self._width, self.rich_style)
        return self.lines[index].apply_style(self.rich_style)

    def text(self) -> str:
        """The pane's text, for tests and for reading it back."""
        return "\n".join(strip.text.rstrip() for strip in self.lines)
