"""PromptScreen: one line of input (an op number, a search text); Enter answers, Escape cancels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class PromptScreen(ModalScreen[str | None]):
    """Asks one question and dismisses with the answer (None when cancelled)."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, question: str, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self.question, self.placeholder, self.value = question, placeholder, value

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            yield Label(self.question, id="prompt-question")
            yield Input(value=self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("Enter to confirm, Escape to cancel", id="prompt-hint")

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        self.dismiss(message.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
