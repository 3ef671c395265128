"""FindingsList: every finding of the run, its consequences under it; choosing one posts
`FindingPicked` with its op.

A consequence (an empty row, a NaN one mistake caused) is listed indented under its cause and
is not a finding of its own: the pane's title counts mistakes, as the text report's summary does.
"""

from __future__ import annotations

from rich.padding import Padding
from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tracer.findings import Finding

from ..explain import SEVERITY_STYLES
from ..session import Session


class FindingsList(OptionList):
    """One option per finding (severity, code, where, the message), then one per consequence."""

    class FindingPicked(Message):
        """The user chose finding `index` (or its consequence `consequence`): jump to op `event`
        (None when no op could be placed)."""

        def __init__(self, index: int, event: int | None, consequence: int | None = None) -> None:
            self.index, self.event, self.consequence = index, event, consequence
            super().__init__()

    def __init__(self, session: Session, **options: object) -> None:
        self.session = session
        super().__init__(*self._options(), **options)

    def _where(self, finding: Finding) -> str:
        event = self.session.finding_event(finding)
        return f"#{event}" if event is not None else "no op"

    def _options(self) -> list[Option]:
        if not self.session.findings:
            return [Option(Text("no findings: nothing flagged", style="green"), id="none", disabled=True)]
        options = []
        for position, finding in enumerate(self.session.findings):
            prompt = Text.assemble(
                (f"{finding.severity}[{finding.code}]", SEVERITY_STYLES.get(finding.severity, "bold")),
                f" {self._where(finding)} {finding.module or '(model)'}:{finding.line}\n", (finding.message, "dim"),
            )
            options.append(Option(prompt, id=f"finding-{position}"))
            for number, consequence in enumerate(finding.consequences):
                options.append(Option(self._consequence_prompt(consequence), id=f"consequence-{position}-{number}"))
        return options

    def _consequence_prompt(self, consequence: Finding) -> Padding:
        """`↳ consequence [nan] #18 :38`, its message and its proof, indented under the cause."""
        text = Text.assemble(("↳ consequence ", "bold cyan"), (f"[{consequence.code}]", "bold cyan"),
                             f" {self._where(consequence)} line {consequence.line}\n", (consequence.message, "dim"))
        if consequence.witness is not None:
            text.append_text(Text.assemble("\n", ("proof: ", "bold magenta"), (consequence.witness.proof, "dim")))
        return Padding(text, (0, 0, 0, 2))

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        kind, _, numbers = (message.option.id or "").partition("-")
        if kind == "finding":
            finding = self.session.findings[int(numbers)]
            self.post_message(self.FindingPicked(int(numbers), self.session.finding_event(finding)))
        elif kind == "consequence":
            index, number = (int(part) for part in numbers.split("-"))
            consequence = self.session.findings[index].consequences[number]
            self.post_message(self.FindingPicked(index, self.session.finding_event(consequence), number))
