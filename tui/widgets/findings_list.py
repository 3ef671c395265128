"""FindingsList: every finding of the run, its consequences under it; choosing one posts
`FindingPicked` with its op.

A consequence (an empty row, a NaN one mistake caused) is listed indented under its cause and
is not a finding of its own: the pane's title counts mistakes, as the text report's summary does.

Each finding is laid out for the pane's width when it is drawn (`FindingPrompt`): its
`error[code]` is never split inside a word (in a narrow pane the code goes on a line of its
own), its op and line follow where they fit, and its message is cut after a few lines, since
the current-op pane shows it whole once the finding is chosen. Choosing one (Enter) jumps to
its op and leaves the focus here, so ↓ goes on to the next finding.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tracer.findings import Finding

from ..explain import SEVERITY_STYLES
from ..session import Session


MESSAGE_LINES = 3  # lines of a finding's message shown in the list; the current-op pane shows it all


class FindingPrompt:
    """One entry, laid out for the width it is drawn at: `error[code] #17 (model):37` on one line
    where it fits, else the location under it, and `error` / `[code]` on lines of their own where
    even the label does not fit; then the message, cut after `MESSAGE_LINES`, and a proof.

    A consequence's label is `↳ consequence` and `[code]` (`joiner` " ")."""

    def __init__(self, label: tuple[str, str], style: str, where: str, message: str, proof: str = "",
                 joiner: str = "") -> None:
        self.label, self.style, self.where, self.message, self.proof = label, style, where, message, proof
        self.joiner = joiner

    @classmethod
    def of_finding(cls, finding: Finding, where: str) -> FindingPrompt:
        style = SEVERITY_STYLES.get(finding.severity, "bold")
        return cls((finding.severity, f"[{finding.code}]"), style, where, finding.message)

    @classmethod
    def of_consequence(cls, consequence: Finding, where: str) -> FindingPrompt:
        proof = consequence.witness.proof if consequence.witness is not None else ""
        return cls(("↳ consequence", f"[{consequence.code}]"), "bold cyan", where, consequence.message, proof, " ")

    def __str__(self) -> str:
        proof = f"\nproof: {self.proof}" if self.proof else ""
        return f"{self.joiner.join(self.label)} {self.where}\n{self.message}{proof}"

    def head(self, width: int) -> list[Text]:
        label = self.joiner.join(self.label)
        if len(label) > width:  # never `error[causal-diagon` / `al]`: the code keeps its line
            lines = [Text(part, style=self.style) for part in self.label]
        else:
            lines = [Text(label, style=self.style)]
        if lines[-1].cell_len + 1 + len(self.where) <= width:
            lines[-1].append(f" {self.where}")
        else:
            lines.append(Text(self.where))
        return lines

    def body(self, console: Console, width: int) -> list[Text]:
        wrapped = list(Text(self.message, style="dim").wrap(console, width))
        if len(wrapped) > MESSAGE_LINES:
            wrapped = wrapped[:MESSAGE_LINES]
            wrapped[-1].rstrip()
            wrapped[-1].truncate(max(width - 1, 0))
            wrapped[-1].append("…", style="dim")
        if self.proof:
            proof = Text.assemble(("proof: ", "bold magenta"), (self.proof, "dim"))
            wrapped += list(proof.wrap(console, width))
        return wrapped

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, 1)
        joined = Text("\n").join(self.head(width) + self.body(console, width))
        joined.no_wrap, joined.overflow = True, "ellipsis"  # laid out here: cut a long location, never wrap it
        yield joined

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


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
            where = f"{self._where(finding)} {finding.module or '(model)'}:{finding.line}"
            options.append(Option(FindingPrompt.of_finding(finding, where), id=f"finding-{position}"))
            for number, consequence in enumerate(finding.consequences):
                options.append(Option(self._consequence_prompt(consequence), id=f"consequence-{position}-{number}"))
        return options

    def _consequence_prompt(self, consequence: Finding) -> Padding:
        """`↳ consequence [nan] #18 line 38`, its message and its proof, indented under the cause."""
        where = f"{self._where(consequence)} line {consequence.line}"
        return Padding(FindingPrompt.of_consequence(consequence, where), (0, 0, 0, 2))

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
