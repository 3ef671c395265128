"""KeyBar: every active key of the screen, wrapped over as many lines as the width needs.

Textual's Footer scrolls sideways when the keys do not fit, which hides keys on an 80-column
terminal; a debugger's keys are its whole interface, so this bar wraps instead. Keys whose
bindings share one description (`f` / `F`: next / previous finding) are shown together.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

KEY_STYLE = "bold reverse"


class KeyBar(Widget):
    """The footer: `key description` pairs for every shown binding of the active screen."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        """New keys (another pane focused); the screen is laid out again only if the bar's height changes."""
        self.refresh(layout=len(self.lines(self.content_size.width or self.size.width)) != self.size.height)

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

    _drawn: tuple[tuple, list[Strip]] | None = None  # (items, width, style) -> strips: keys rarely change

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width or self.size.width
        key = (tuple(self.items()), width, self.rich_style)
        if self._drawn is None or self._drawn[0] != key:
            console = self.app.console
            options = console.options.update(width=width, height=1, no_wrap=True, overflow="crop")
            strips = [Strip(console.render_lines(line, options, style=self.rich_style, pad=True)[0], width)
                      for line in self.lines(width)]
            self._drawn = (key, strips)
        strips = self._drawn[1]
        return strips[y] if y < len(strips) else Strip.blank(width, self.rich_style)
