"""HelpScreen: one screen's keys, generated from its BINDINGS so the help cannot drift.

Each screen opens its own help (the debugger, the tensor views, the demo), with its own
introduction. The list scrolls; a line under it always says whether more follows and how
to scroll or close, so the end of a long help is never silently below the fold.
"""

from __future__ import annotations

from typing import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

MORE = "▼ more below: ↑/↓ or PgUp/PgDn scroll · Esc, q or ? closes"
END = "end of help · Esc, q or ? closes"


def _key_name(binding: Binding) -> str:
    names = {"slash": "/", "question_mark": "?", "escape": "Esc", "enter": "Enter", "left": "←", "right": "→"}
    return " ".join(names.get(key.strip(), key.strip()) for key in binding.key.split(","))


class HelpScreen(ModalScreen[None]):
    """A modal list of keys with an introduction; Escape, q or ? closes it."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "close")]

    def __init__(self, title: str, intro: str, sections: Iterable[tuple[str, list[Binding]]]) -> None:
        super().__init__()
        self.title_text, self.intro, self.sections = title, intro, list(sections)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box") as box:
            box.border_title = self.title_text
            with VerticalScroll(id="help"):
                yield Static(Text(self.intro), id="help-intro")
                for title, bindings in self.sections:
                    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 2))
                    table.add_column(style="bold reverse", justify="center", no_wrap=True)
                    table.add_column()
                    for binding in bindings:
                        table.add_row(f" {_key_name(binding)} ", binding.tooltip or binding.description)
                    yield Static(table, classes="help-section")
            yield Static(MORE, id="help-hint")

    def on_mount(self) -> None:
        scroll = self.query_one("#help", VerticalScroll)
        scroll.focus()
        self.watch(scroll, "scroll_y", self._update_hint, init=False)
        self.call_after_refresh(self._update_hint)

    def on_resize(self) -> None:
        self.call_after_refresh(self._update_hint)

    def _update_hint(self, *_: object) -> None:
        scroll = self.query_one("#help", VerticalScroll)
        at_end = scroll.scroll_y >= scroll.max_scroll_y
        self.query_one("#help-hint", Static).update(Text(END if at_end else MORE, style="dim" if at_end else "bold"))

    def action_close(self) -> None:
        self.dismiss(None)
