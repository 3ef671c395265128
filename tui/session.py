"""The debugger's model of one recording: every index the screens step through, built once.

Widgets never scan the recording themselves: opening a 12-layer model must stay under a
few seconds and every key must answer at once, so the lists a key walks (softmaxes,
masks, blocks, findings, module calls) are computed here in one pass and each step is a
bisect or a short scan. Nothing here imports Textual, so the stepping rules are tested
without an app.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property

from tracer.analysis import Analysis
from tracer.blocks import AttentionBlock
from tracer.events import ModuleCall, OpEvent, Recording
from tracer.findings import Finding
from tracer.graph import findings_by_event
from tracer.trace import Trace

# Ops that belong to attention even outside a detected block (the "attention" filter).
ATTENTION_OPS = frozenset({
    "softmax", "log_softmax", "masked_fill", "scaled_dot_product_attention", "where", "tril", "triu",
    "multi_head_attention_forward", "baddbmm", "bmm", "einsum", "matmul",
})
SOFTMAX_OPS = frozenset({"softmax", "log_softmax", "scaled_dot_product_attention"})
MASK_OPS = frozenset({"masked_fill", "tril", "triu"})


@dataclass(frozen=True)
class ModuleNode:
    """One module path of the tree: its type, how often it was called, where it first ran."""

    path: str
    type_name: str
    parent: str | None
    calls: int
    first_event: int
    findings: int = 0


def block_events(block: AttentionBlock) -> set[int]:
    """Every op a block is made of: product, scale, masks, normalization, contraction."""
    found = {block.norm_event, *block.scale_events, *(use.event for use in block.masks)}
    found.update(i for i in (block.product_event, block.contraction_event, block.exp_event) if i is not None)
    return found


@dataclass
class Session:
    """A finished trace plus the indexes the TUI steps through."""

    trace: Trace
    label: str = ""

    @property
    def recording(self) -> Recording:
        return self.trace.recording

    @cached_property
    def analysis(self) -> Analysis:
        return self.trace.analysis

    @property
    def events(self) -> list[OpEvent]:
        return self.recording.events

    @property
    def calls(self) -> list[ModuleCall]:
        return self.recording.module_calls

    @property
    def findings(self) -> list[Finding]:
        return self.analysis.findings

    # ------------------------------------------------------------ indexes, built once
    @cached_property
    def block_of(self) -> dict[int, AttentionBlock]:
        """event index -> the block it belongs to (its ops and everything between them)."""
        owner: dict[int, AttentionBlock] = {}
        for block in self.analysis.blocks:
            members = block_events(block)
            for index in range(min(members), max(members) + 1):
                owner.setdefault(index, block)
        return owner

    @cached_property
    def producers(self) -> dict[int, int]:
        """vid -> index of the op that produced it."""
        return self.recording.producers()

    @cached_property
    def findings_at(self) -> dict[int, list[Finding]]:
        """Event index -> its findings. A finding merged over twelve layers marks the op in every
        layer (as in the graph and the diagrams), so `f` visits each; one without an event sits
        at the first op of its source line."""
        found = findings_by_event(self.analysis)
        for finding in self.findings:
            if finding.event is None or not 0 <= finding.event < len(self.events):
                index = self.finding_event(finding)
                if index is not None:
                    found.setdefault(index, []).append(finding)
        return found

    @cached_property
    def consequences_at(self) -> dict[int, list[tuple[Finding, Finding]]]:
        """Event index -> (consequence, its cause) for the ops where a mistake's consequence sits
        apart from the mistake itself; one at its cause's own op is told under the cause there."""
        found: dict[int, list[tuple[Finding, Finding]]] = {}
        for cause in self.findings:
            for consequence in cause.consequences:
                index = self.finding_event(consequence)
                if index is not None and cause not in self.findings_at.get(index, []):
                    found.setdefault(index, []).append((consequence, cause))
        return found

    @cached_property
    def finding_events(self) -> list[int]:
        return sorted(self.findings_at)

    @cached_property
    def softmax_events(self) -> list[int]:
        marked = {e.index for e in self.events if e.op in SOFTMAX_OPS}
        marked.update(block.norm_event for block in self.analysis.blocks)
        return sorted(marked)

    @cached_property
    def mask_events(self) -> list[int]:
        marked = {e.index for e in self.events if e.op in MASK_OPS}
        marked.update(use.event for block in self.analysis.blocks for use in block.masks)
        return sorted(marked)

    @cached_property
    def block_starts(self) -> list[int]:
        return sorted(min(block_events(block)) for block in self.analysis.blocks)

    @cached_property
    def attention_events(self) -> list[int]:
        """The ops shown by the "attention" filter: block members, attention ops, flagged ops and
        the ops their consequences sit at."""
        marked = set(self.block_of) | set(self.findings_at) | set(self.consequences_at)
        marked.update(e.index for e in self.events if e.op in ATTENTION_OPS)
        return sorted(marked)

    def in_attention(self, index: int) -> bool:
        position = bisect.bisect_left(self.attention_events, index)
        return position < len(self.attention_events) and self.attention_events[position] == index

    @cached_property
    def modules(self) -> dict[str, ModuleNode]:
        """path -> node, in first-call order, with call counts and findings below each path."""
        counts: dict[str, list[ModuleCall]] = {}
        for call in self.calls:
            counts.setdefault(call.path, []).append(call)
        flagged: dict[str, int] = {}
        for finding in self.findings:
            for path in counts:
                if path == "" or finding.module == path or finding.module.startswith(path + "."):
                    flagged[path] = flagged.get(path, 0) + 1
        nodes = {}
        for path, calls in counts.items():
            first = calls[0]
            parent = self.calls[first.parent].path if first.parent is not None else None
            nodes[path] = ModuleNode(path, first.type_name, parent, len(calls), first.first_event, flagged.get(path, 0))
        return nodes

    # ------------------------------------------------------------ questions about one op
    def finding_event(self, finding: Finding) -> int | None:
        """The op a finding points at: its event, else the first op at its source line."""
        if finding.event is not None and 0 <= finding.event < len(self.events):
            return finding.event
        for event in self.events:
            if event.file == finding.file and event.line == finding.line:
                return event.index
        return None

    def call_of(self, index: int) -> ModuleCall | None:
        if not self.calls or not 0 <= index < len(self.events):
            return None
        return self.calls[self.events[index].module_call]

    def module_type(self, path: str) -> str:
        node = self.modules.get(path)
        return node.type_name if node else ""

    # ------------------------------------------------------------ stepping
    def clamp(self, index: int) -> int:
        return max(0, min(index, len(self.events) - 1))

    def step_over(self, index: int) -> int | None:
        """The next op of the same module call or of a caller: child modules run without stopping.

        At the top level a child call is one statement of the model's forward, like the root's
        own ops: from either, step over goes to the next one (its first op), never past them all.
        """
        call = self.call_of(index)
        if call is None:
            return None
        end = self.top_level_end(index)
        if end is not None:
            return end if end < len(self.events) else None
        for later in range(index + 1, len(self.events)):
            if self.calls[self.events[later].module_call].depth <= call.depth:
                return later
        return None

    def top_level_end(self, index: int) -> int | None:
        """Where the top-level statement op `index` starts ends: the next op for a root op, the
        end of the top-level call whose first op it is; None for an op inside a call begun earlier."""
        call = self.call_of(index)
        if call is None or call.parent is None:
            return None if call is None else index + 1
        while self.calls[call.parent].parent is not None:
            call = self.calls[call.parent]
        return call.end_event if call.first_event == index else None

    def step_into(self, index: int) -> int | None:
        """The first op inside the next child module call of the current call, else the next op."""
        call = self.call_of(index)
        if call is None:
            return None
        for later in range(index + 1, min(call.end_event, len(self.events))):
            if self.calls[self.events[later].module_call].depth > call.depth:
                return later
        return index + 1 if index + 1 < len(self.events) else None

    def step_out(self, index: int) -> int | None:
        """The first op after the current module call returns (None at top level)."""
        call = self.call_of(index)
        if call is None or call.parent is None:
            return None
        return call.end_event if call.end_event < len(self.events) else None

    @staticmethod
    def after(marks: list[int], index: int) -> int | None:
        position = bisect.bisect_right(marks, index)
        return marks[position] if position < len(marks) else None

    @staticmethod
    def before(marks: list[int], index: int) -> int | None:
        position = bisect.bisect_left(marks, index)
        return marks[position - 1] if position > 0 else None

    def search(self, text: str, index: int) -> int | None:
        """The next op (wrapping around) whose op name, target or module path/type contains `text`."""
        needle = text.strip().lower()
        if not needle or not self.events:
            return None
        total = len(self.events)
        for offset in range(1, total + 1):
            event = self.events[(index + offset) % total]
            haystack = f"{event.op} {event.target} {event.module} {self.module_type(event.module)}".lower()
            if needle in haystack:
                return event.index
        return None
