"""KeyBar: every active key of the screen, wrapped over as many lines as the width needs.

Textual's Footer scrolls sideways when the keys do not fit, which hides keys on an 80-column
terminal; a debugger's keys are its whole interface, so this bar wraps instead. Keys whose
bindings share one description (`f` / `F`: next / previous finding) are shown together.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

KEY_STYLE = "bold reverse"


class KeyBar(Widget):
    """The footer: `key description` pairs for every shown binding of the active screen."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        self.refresh(layout=True)

    def items(self) -> list[tuple[str, str]]:
        """(keys, description) in binding order, keys of equal descriptions joined by '/'."""
        grouped: dict[str, list[str]] = {}
        for _, binding, enabled, _ in self.screen.active_bindings.values():
            if not binding.show or not enabled:
                continue
            keys = grouped.setdefault(binding.description, [])
            shown = self.app.get_key_display(binding)
            if shown not in keys:
                keys.append(shown)
        return [("/".join(keys), description) for description, keys in grouped.items()]

    def lines(self, width: int) -> list[Text]:
        lines: list[Text] = [Text()]
        for keys, description in self.items():
            piece = Text.assemble((f" {keys} ", KEY_STYLE), f"{description} ")
            if lines[-1].cell_len and lines[-1].cell_len + piece.cell_len > max(width, 1):
                lines.append(Text())
            lines[-1].append_text(piece)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.content_size.width or self.size.width))
