"""FindingsList: every finding of the run; choosing one posts `FindingPicked` with its op."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..explain import SEVERITY_STYLES
from ..session import Session


class FindingsList(OptionList):
    """One option per finding: severity, code, where, and the message."""

    class FindingPicked(Message):
        """The user chose a finding: jump to op `event` (None when no op could be placed)."""

        def __init__(self, index: int, event: int | None) -> None:
            self.index, self.event = index, event
            super().__init__()

    def __init__(self, session: Session, **options: object) -> None:
        self.session = session
        super().__init__(*self._options(), **options)

    def _options(self) -> list[Option]:
        if not self.session.findings:
            return [Option(Text("no findings: nothing flagged", style="green"), id="none", disabled=True)]
        options = []
        for position, finding in enumerate(self.session.findings):
            event = self.session.finding_event(finding)
            where = f"#{event}" if event is not None else "no op"
            module = finding.module or "(model)"
            prompt = Text.assemble(
                (f"{finding.severity}[{finding.code}]", SEVERITY_STYLES.get(finding.severity, "bold")),
                f" {where} {module}:{finding.line}\n", (finding.message, "dim"),
            )
            options.append(Option(prompt, id=f"finding-{position}"))
        return options

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        if message.option.id is None or not message.option.id.startswith("finding-"):
            return
        index = int(message.option.id.removeprefix("finding-"))
        self.post_message(self.FindingPicked(index, self.session.finding_event(self.session.findings[index])))
