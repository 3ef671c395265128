"""HelpScreen: every key of every screen, generated from their BINDINGS so it cannot drift."""

from __future__ import annotations

from typing import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

INTRO = (
    "attnscope replays one recorded forward pass op by op. Every tensor's axes are named "
    "(B batch, H heads, Tq/Tk query/key positions, d features); flagged ops carry a red ●. "
    "Tab moves between the panes (modules, findings, ops, current op); ↑/↓ scroll the focused one, "
    "Enter on a module or a finding jumps to its op."
)


def _key_name(binding: Binding) -> str:
    names = {"slash": "/", "question_mark": "?", "escape": "Esc", "enter": "Enter"}
    return " ".join(names.get(key.strip(), key.strip()) for key in binding.key.split(","))


class HelpScreen(ModalScreen[None]):
    """A modal list of keys; any of Escape, q or ? closes it."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "close")]

    def __init__(self, sections: Iterable[tuple[str, list[Binding]]]) -> None:
        super().__init__()
        self.sections = list(sections)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Text(INTRO), id="help-intro")
            for title, bindings in self.sections:
                table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 2))
                table.add_column(style="bold reverse", justify="center", no_wrap=True)
                table.add_column()
                for binding in bindings:
                    table.add_row(f" {_key_name(binding)} ", binding.tooltip or binding.description)
                yield Static(table, classes="help-section")
            yield Static(Text("Escape, q or ? closes this help.", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
