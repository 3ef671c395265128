"""MainScreen: the stepping debugger, modules and findings on the left, ops and details right.

The screen owns the two pieces of state, the current op (`step`) and the filter, and binds
them down into its widgets; widgets only post messages (an op, a module or a finding was
picked). Every stepping key is a small action that asks `Session` for the target op.
"""

from __future__ import annotations

import os
import re

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from ..session import Session
from ..widgets.findings_list import FindingsList
from ..widgets.key_bar import KeyBar
from ..widgets.module_tree import ModuleTree
from ..widgets.op_details import OpDetails
from ..widgets.op_timeline import OpTimeline, short_op
from ..widgets.source_view import SourceView
from .help import HelpScreen
from .prompt import PromptScreen
from .tensor import TensorScreen, available_views

STEP_BINDINGS = [
    Binding("n", "next_op", "next", tooltip="next op (in the timeline's filter)"),
    Binding("p", "prev_op", "prev", tooltip="previous op (in the timeline's filter)"),
    Binding("o", "step_over", "over", tooltip="step over: next op of this module call, child modules run through (at the top level: the next top-level op or module call)"),
    Binding("i", "step_into", "into", tooltip="step into: first op inside the next child module call"),
    Binding("u", "step_out", "out", tooltip="step out: first op after the current module call returns"),
    Binding("f", "next_finding", "finding", tooltip="next flagged op"),
    Binding("F", "prev_finding", "finding", tooltip="previous flagged op"),
    Binding("s", "next_softmax", "softmax", tooltip="next softmax (or fused attention / hand-written normalization)"),
    Binding("S", "prev_softmax", "softmax", tooltip="previous softmax"),
    Binding("m", "next_mask", "mask", tooltip="next mask op (masked_fill, tril/triu, a mask applied to scores)"),
    Binding("M", "prev_mask", "mask", tooltip="previous mask op"),
    Binding("a", "next_block", "block", tooltip="start of the next attention block"),
    Binding("A", "prev_block", "block", tooltip="start of the previous attention block"),
    Binding("g", "goto", "goto", tooltip="go to an op by its number"),
    Binding("slash", "search", "search", tooltip="search an op or module name (again: next match)"),
]
VIEW_BINDINGS = [
    Binding("t", "toggle_filter", "filter", tooltip="timeline filter: all ops / attention ops only"),
    Binding("v", "view", "tensor", tooltip="tensor view: attention heatmap, LayerNorm per position, or values"),
    Binding("r", "render", "svg", tooltip="render the current module (or attention block) to SVG via Graphviz"),
    Binding("question_mark", "help", "help", tooltip="this help"),
    Binding("q", "app.quit", "quit", tooltip="quit"),
]


INTRO = (
    "attnscope replays one recorded forward pass op by op. Every tensor's axes are named "
    "(B batch, H heads, Tq/Tk query/key positions, d features); flagged ops carry a red ●, "
    "an op where a mistake's consequence shows (an empty row, a NaN) a ○. "
    "Tab moves between the panes (modules, findings, ops, current op, source); ↑/↓ scroll the focused one, "
    "←/→ the source sideways; "
    "Enter on a module, a finding or a consequence listed under it jumps to its op (in the findings the focus stays, "
    "so ↓ and Enter visit the next one). v opens the numbers behind the current op, "
    "which has its own help."
)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class MainScreen(Screen):
    """The debugger's main view of one recording."""

    BINDINGS = STEP_BINDINGS + VIEW_BINDINGS
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide"), (180, "-xwide")]

    step: reactive[int] = reactive(0, repaint=False)
    """Index of the current op."""
    attention_only: reactive[bool] = reactive(False, repaint=False)
    """Whether the timeline shows attention-related ops only."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.last_search = ""

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield ModuleTree(self.session, id="modules").data_bind(MainScreen.step)
                yield FindingsList(self.session, id="findings")
            with Vertical(id="center"):
                yield OpTimeline(self.session, id="timeline").data_bind(MainScreen.step, MainScreen.attention_only)
                with Vertical(id="detail-row"):
                    yield OpDetails(self.session, id="details").data_bind(MainScreen.step)
                    yield SourceView(self.session, id="source").data_bind(MainScreen.step)
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self.query_one("#modules").border_title = "modules"
        self.query_one("#findings").border_title = f"findings ({len(self.session.findings)})"
        self.watch_attention_only()
        self.query_one("#details").border_title = "current op"
        self.query_one(OpTimeline).focus()
        self._status()

    # ------------------------------------------------------------ state
    def go(self, index: int | None, missing: str = "") -> None:
        """Make op `index` current; say so when there is none, show all ops when it is filtered out."""
        if index is None:
            self.notify(missing or "no such op", severity="warning", timeout=3)
            return
        index = self.session.clamp(index)
        if self.attention_only and not self.session.in_attention(index):
            self.attention_only = False
            self.notify("op is outside the attention filter: showing all ops", timeout=3)
        self.step = index

    def watch_step(self) -> None:
        self._status()

    def watch_attention_only(self) -> None:
        blocks = _plural(len(self.session.analysis.blocks), "attention block")
        shown = "attention ops only" if self.attention_only else f"{len(self.session.events)} ops"
        self.query_one("#timeline").border_title = f"{shown} · {blocks}"
        self._status()

    def _status(self) -> None:
        session = self.session
        if not self.children:  # before compose: nothing to update yet
            return
        errors = sum(f.severity == "error" for f in session.findings)
        warnings = sum(f.severity == "warning" for f in session.findings)
        text = f" {session.label} · #{self.step}/{len(session.events)}"
        if session.events:
            event = session.events[self.step]
            text += f" {short_op(event.op)} in {event.module or '(model)'}"
        text += f" · {_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
        self.query_one("#status", Static).update(text, layout=False)  # one fixed line: no relayout

    # ------------------------------------------------------------ messages from the widgets
    def on_op_timeline_op_picked(self, message: OpTimeline.OpPicked) -> None:
        self.step = message.event

    def on_module_tree_module_picked(self, message: ModuleTree.ModulePicked) -> None:
        self.go(message.event)

    def on_findings_list_finding_picked(self, message: FindingsList.FindingPicked) -> None:
        """Jump to the finding's op; the focus stays in the list, so ↓ and Enter go on to the next
        finding (n/p and the other stepping keys step from the op wherever the focus is)."""
        self.go(message.event, "this finding has no recorded op to jump to")

    # ------------------------------------------------------------ stepping
    def action_next_op(self) -> None:
        self.go(self.query_one(OpTimeline).visible_neighbour(self.step, 1), "at the last op")

    def action_prev_op(self) -> None:
        self.go(self.query_one(OpTimeline).visible_neighbour(self.step, -1), "at the first op")

    def action_step_over(self) -> None:
        self.go(self.session.step_over(self.step), "no later op in this module call or its callers")

    def action_step_into(self) -> None:
        self.go(self.session.step_into(self.step), "at the last op")

    def action_step_out(self) -> None:
        self.go(self.session.step_out(self.step), "already at the top level")

    def action_next_finding(self) -> None:
        self.go(self.session.after(self.session.finding_events, self.step), "no later finding")

    def action_prev_finding(self) -> None:
        self.go(self.session.before(self.session.finding_events, self.step), "no earlier finding")

    def action_next_softmax(self) -> None:
        self.go(self.session.after(self.session.softmax_events, self.step), "no later softmax")

    def action_prev_softmax(self) -> None:
        self.go(self.session.before(self.session.softmax_events, self.step), "no earlier softmax")

    def action_next_mask(self) -> None:
        self.go(self.session.after(self.session.mask_events, self.step), "no later mask")

    def action_prev_mask(self) -> None:
        self.go(self.session.before(self.session.mask_events, self.step), "no earlier mask")

    def action_next_block(self) -> None:
        self.go(self.session.after(self.session.block_starts, self.step), "no later attention block")

    def action_prev_block(self) -> None:
        self.go(self.session.before(self.session.block_starts, self.step), "no earlier attention block")

    def action_goto(self) -> None:
        def answer(text: str | None) -> None:
            if text is None:
                return
            if not text.strip().lstrip("#").isdigit():
                self.notify(f"not an op number: {text!r}", severity="warning")
                return
            number = int(text.strip().lstrip("#"))
            if number >= len(self.session.events):
                self.notify(f"there are {len(self.session.events)} ops (0–{len(self.session.events) - 1})", severity="warning")
            self.go(number)

        self.app.push_screen(PromptScreen("Go to op number", f"0–{max(len(self.session.events) - 1, 0)}"), answer)

    def action_search(self) -> None:
        def answer(text: str | None) -> None:
            if not text:
                return
            self.last_search = text
            self.go(self.session.search(text, self.step), f"no op or module matches {text!r}")

        self.app.push_screen(PromptScreen("Search op or module name", "e.g. softmax, self_attn, Linear",
                                          self.last_search), answer)

    # ------------------------------------------------------------ views
    def action_toggle_filter(self) -> None:
        self.attention_only = not self.attention_only

    def action_view(self) -> None:
        views, reasons = available_views(self.session, self.step)
        if not views:
            self.notify("; ".join(reasons) or "nothing to show for this op", severity="warning", timeout=5)
            return
        self.app.push_screen(TensorScreen(self.session, self.step, views))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("attnscope: the debugger", INTRO,
                                        [("Stepping", STEP_BINDINGS), ("Views", VIEW_BINDINGS)]))

    def action_render(self) -> None:
        if not self.session.events:
            return
        event = self.session.events[self.step]
        block = self.session.block_of.get(event.index)
        module = block.module if block is not None else event.module
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", module or "model") + ("-attention" if block is not None else "")
        options: dict[str, object] = {"focus": module} if module else {}
        if block is not None:
            options["attention"] = True
        self.notify(f"rendering {module or 'the model'}…", timeout=2)
        self._render_svg(os.path.abspath(f"attnscope-{slug}.svg"), options)

    @work(thread=True, exclusive=True, group="render")
    def _render_svg(self, path: str, options: dict[str, object]) -> None:
        """Graphviz can take seconds on a big model: never on the UI thread."""
        try:
            try:
                written = self.session.trace.render(path, **options)
            except TypeError:  # a renderer without these options: draw the whole model
                written = self.session.trace.render(path)
        except ImportError:
            self.app.call_from_thread(self.notify, "the Graphviz renderer (tracer.render) is not installed in this version",
                                      severity="error", timeout=6)
            return
        except Exception as problem:  # the renderer's own one-line errors (e.g. no `dot` program)
            self.app.call_from_thread(self.notify, f"render failed: {problem}", severity="error", timeout=8)
            return
        self.app.call_from_thread(self.notify, f"wrote {written or path}", timeout=8)
