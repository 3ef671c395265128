"""From an analysis to a drawing: which boxes, in which frames, joined by which labelled edges.

Every event is mapped to the *unit* that draws it: its own box, a group box (head split,
hand-written softmax), the box of a collapsed module (`depth`), or the unit of the matching
event in the first instance of a repeated block. Edges are then the values handed between
units, labelled with their axes; values inside one unit vanish. `focus` keeps the events of
one module and draws each value that enters it ("in", with where it was made) and each that
leaves it ("out", with who reads it) as one boundary box; nothing else outside is drawn.
"""

from __future__ import annotations

import difflib
import os

from ..analysis import Analysis
from ..events import ModuleCall, OpEvent, Source, TensorMeta
from ..findings import Finding
from ..graph import findings_by_event, source_node_id
from .flags import flag_lines, hidden_summary, tooltip
from .labels import Labeller
from .model import SEVERITY_ORDER, Cluster, DrawNode, Drawing, RenderError, RenderOptions
from .repeats import Repeats, find_repeats
from .simplify import Group, simplify

GROUP_TITLES = {"split-heads": "split heads", "merge-heads": "merge heads", "softmax": "softmax"}
OUTPUT = "output"
ENTERING, LEAVING = "in:", "out:"  # ids of the boxes for values crossing a focused module's edge
MAX_READERS = 2
SHOWS_ITS_VALUE = frozenset({"input", "external", "param", "buffer", ENTERING[:-1]})  # its edges need no label


def _shape(meta: TensorMeta) -> str:
    return "×".join(str(s) for s in meta.shape) or "scalar"


class Builder:
    """Builds one `Drawing`; see the module docstring for the mapping it applies."""

    def __init__(self, analysis: Analysis, options: RenderOptions) -> None:
        self.analysis, self.options = analysis, options
        self.recording = analysis.recording
        self.events = self.recording.events
        self.calls = self.recording.module_calls
        self.labeller = Labeller(analysis)
        self.findings = findings_by_event(analysis) if options.flags else {}
        self.diverged = {index for finding in analysis.findings if options.witness and finding.witness
                         for index in finding.witness.path}
        self.simple = simplify(analysis, self.findings, options.all_ops)
        self.node_ids = analysis.node_ids
        self.scope, self.base_depth = self._scope(options.focus)
        self.repeats = Repeats() if options.expand else find_repeats(self.recording, set(self.findings), self.scope)
        self.call_keys = self._call_keys()
        title = options.title or self.recording.root_type + (f" · {options.focus}" if options.focus else "")
        self.drawing = Drawing(title)
        self._units: dict[int, str] = {}
        self._boxes: dict[int, int | None] = {}
        self._box_findings: dict[str, list[Finding]] = {}
        self._box_params: dict[str, dict[int, int]] = {}
        self._readers: dict[str, list[str]] = {}  # leaving value's box -> the modules that read it

    # ------------------------------------------------------------ scope and modules
    def _scope(self, focus: str | None) -> tuple[set[int] | None, int]:
        if not focus:
            return None, 0
        roots = [c for c in self.calls if c.path == focus]
        if not roots:
            paths = sorted({c.path for c in self.calls if c.path})
            close = difflib.get_close_matches(focus, paths, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else (f"; modules: {', '.join(paths[:8])}" if paths else "")
            raise RenderError(f"no module {focus!r} ran in this recording{hint}")
        scope = {c.index for c in roots}
        for call in self.calls:
            if call.parent in scope:
                scope.add(call.index)
        return scope, min(c.depth for c in roots)

    def _call_keys(self) -> dict[int, str]:
        seen: dict[str, int] = {}
        keys = {}
        for call in self.calls:
            count = seen.get(call.path, 0)
            seen[call.path] = count + 1
            name = call.path or "(root)"
            keys[call.index] = name if count == 0 else f"{name}#{count + 1}"
        return keys

    def call_of(self, event: OpEvent) -> ModuleCall | None:
        index = event.module_call
        return self.calls[index] if isinstance(index, int) and 0 <= index < len(self.calls) else None

    def in_scope(self, event: OpEvent) -> bool:
        return self.scope is None or event.module_call in self.scope

    def depth(self, call: ModuleCall) -> int:
        return call.depth - self.base_depth

    def box(self, call_index: int) -> int | None:
        """The collapsed module whose box draws ops of this call, or None when it is drawn open."""
        if call_index not in self._boxes:
            limit = self.options.depth
            call = self.calls[call_index]
            if limit is None or self.depth(call) <= limit:
                self._boxes[call_index] = None
            else:
                while call.parent is not None and self.depth(self.calls[call.parent]) > limit:
                    call = self.calls[call.parent]
                self._boxes[call_index] = call.index
        return self._boxes[call_index]

    def cluster(self, call_index: int | None) -> str | None:
        """The frame of an open module call (created on first use), None at the drawn root."""
        if call_index is None or not 0 <= call_index < len(self.calls):
            return None
        call = self.calls[self.repeats.call(call_index)]
        if self.depth(call) <= 0 or (self.scope is not None and call.index not in self.scope):
            return None
        cluster_id = f"cluster:{self.call_keys[call.index]}"
        if cluster_id not in self.drawing.clusters:
            parent = self.cluster(call.parent)
            run = self.repeats.runs.get(call.index)
            path = run.label if run else call.path
            self.drawing.clusters[cluster_id] = Cluster(
                cluster_id, f"{path} · {call.type_name}", parent, run.count if run else 1)
        return cluster_id

    # ------------------------------------------------------------ units
    def unit(self, index: int) -> str:
        """The node id that draws event `index` (a drawn, canonical event)."""
        if index not in self._units:
            event = self.events[index]
            call = self.call_of(event)
            boxed = self.box(call.index) if call is not None else None
            group = self.simple.groups.get(index)
            if boxed is not None:
                self._units[index] = self._module_node(boxed)
            elif group is not None:
                self._units[index] = self._group_node(group)
            else:
                self._units[index] = self._op_node(event)
        return self._units[index]

    def _op_node(self, event: OpEvent) -> str:
        role = self.labeller.roles.get(event.index)
        call = self.call_of(event)
        node = self.drawing.add(DrawNode(
            self.node_ids[event.index], "mask" if role is not None and role.name == "mask" else "op",
            self.labeller.title(event), self.labeller.lines(event),
            cluster=self.cluster(call.index if call else None), tooltip=self._where(event),
        ))
        return node.id

    def _group_node(self, group: Group) -> str:
        last = self.events[group.id_event]
        first = self.events[group.members[0]]
        if group.kind == "softmax":
            block = next(b for b in self.analysis.blocks if b.norm_event == group.id_event)
            shift = "max subtracted" if block.max_subtracted else "no max subtracted"
            lines = [self.labeller.normalized(block), f"hand-written, {shift}"]
        else:
            before = self.analysis.axes_of(first.inputs[0])
            after = self.analysis.axes_of(last.outputs[0])
            table = self.analysis.table
            gone = [a for a in before if table.get(a).size != 1 and not any(table.same(a, b) for b in after)]
            made = [a for a in after if table.get(a).size != 1 and not any(table.same(a, b) for b in before)]
            lines = [f"{table.describe_shape(tuple(gone))} → {table.describe_shape(tuple(made))}"] if gone or made else []
            lines.append(" + ".join(self.events[m].op for m in group.members))
        call = self.call_of(last)
        node = self.drawing.add(DrawNode(
            self.node_ids[group.id_event], "group", GROUP_TITLES[group.kind], lines,
            cluster=self.cluster(call.index if call else None), tooltip=self._where(last),
        ))
        return node.id

    def _module_node(self, call_index: int) -> str:
        call = self.calls[call_index]
        node_id = f"module:{self.call_keys[call.index]}"
        if node_id not in self.drawing.nodes:
            run = self.repeats.runs.get(call.index)
            lines = [call.type_name]
            for meta in (*call.inputs, *call.outputs):
                self._explain(meta)
            inputs = list(dict.fromkeys(self.labeller.value(m) for m in call.inputs))
            outputs = list(dict.fromkeys(self.labeller.value(m) for m in call.outputs))
            for word, texts in (("in", inputs), ("out", outputs)):
                numbered = len(texts) > 1
                lines += [f"{word}[{n}]: {t}" if numbered else f"{word}: {t}" for n, t in enumerate(texts[:2])]
                lines += [f"{word}[2…]: {len(texts) - 2} more"] if len(texts) > 2 else []
            title = run.label if run else call.path or call.type_name
            parent = self.calls[call.parent] if call.parent is not None else None
            if parent is not None and self.depth(parent) > 0 and parent.path and title.startswith(parent.path + "."):
                title = title.replace(parent.path + ".", "")  # the frame around it already names the parent
            self.drawing.add(DrawNode(
                node_id, "module", title, lines,
                cluster=self.cluster(call.parent), tooltip=f"{call.path} ({call.type_name})",
                repeat=run.count if run else 1,
            ))
        return node_id

    @staticmethod
    def _where(event: OpEvent) -> str:
        place = f"{os.path.basename(event.file)}:{event.line}" if event.file else ""
        return " · ".join(p for p in (place, event.module) if p)

    # ------------------------------------------------------------ passes
    def drawn(self, event: OpEvent) -> bool:
        index = event.index
        return index not in self.simple.dropped and index not in self.simple.folded and self.in_scope(event)

    def build(self) -> Drawing:
        canonical = [e for e in self.events if self.drawn(e) and e.index not in self.repeats.event_map]
        self._source_nodes(canonical)
        for event in canonical:
            unit = self.unit(event.index)
            self._decorate(unit, event)
        for event in self.events:
            self._edges(event)
        self._outputs()
        self._finish()
        return self.drawing

    def _source_nodes(self, events: list[OpEvent]) -> None:
        """Inputs (and, under all_ops, parameters) first, in recording order, so they lead the layout."""
        wanted: dict[int, Source] = {}
        for event in events:
            for meta in event.inputs:
                index, vid = self.simple.trace_back(meta.vid, self.events)
                source = self.recording.sources.get(vid) if index is None else None
                if source is not None and (source.kind in ("input", "external") or self.options.all_ops):
                    wanted[vid] = source
        for vid in sorted(wanted):
            source = wanted[vid]
            self._explain(source.meta)
            self.drawing.add(DrawNode(
                source_node_id(source.kind, source.name), source.kind, source.name,
                [self.labeller.value(source.meta)], tooltip=f"{source.kind} {source.name}",
            ))

    def _decorate(self, unit: str, event: OpEvent) -> None:
        node = self.drawing.nodes[unit]
        found = self.findings.get(event.index, [])
        node.diverged = node.diverged or event.index in self.diverged
        if node.kind == "module":
            bucket = self._box_findings.setdefault(unit, [])
            bucket.extend(f for f in found if f not in bucket)
        else:
            for finding in found:
                lines = flag_lines(finding)
                if lines[0] not in node.flags:
                    node.flags.extend(lines)
                    node.tooltip = f"{node.tooltip}\n{tooltip(finding)}".strip()
        for meta in event.inputs:
            source = self.recording.sources.get(meta.vid)
            if source is None or source.kind not in ("param", "buffer") or self.options.all_ops:
                continue
            if node.kind == "module":
                self._box_params.setdefault(unit, {})[meta.vid] = meta.numel
                continue
            prefix = event.module + "." if event.module else ""
            name = source.name[len(prefix):] if source.name.startswith(prefix) else source.name
            entry = f"{name} {_shape(meta)}" + (" (buffer)" if source.kind == "buffer" else "")
            if entry not in node.params:
                node.params.append(entry)

    def _tail(self, vid: int, head_event: int | None) -> str | None:
        """The unit a value comes from, seen from `head_event`; None when it is not drawn."""
        index, end_vid = self.simple.trace_back(vid, self.events)
        if index is None:
            source = self.recording.sources.get(end_vid)
            if source is None or (source.kind in ("param", "buffer") and not self.options.all_ops):
                return None
            return source_node_id(source.kind, source.name)
        if not self.in_scope(self.events[index]):
            return self._entering(index, end_vid)
        if head_event is not None and self.repeats.crosses(index, head_event):
            return None
        return self.unit(self.repeats.event(index))

    def _edges(self, event: OpEvent) -> None:
        if event.index in self.simple.dropped or event.index in self.simple.folded:
            return
        if not self.in_scope(event):
            self._leaving(event)
            return
        head = self.unit(self.repeats.event(event.index))
        repeated = event.index in self.repeats.event_map
        for meta in event.inputs:
            tail = self._tail(meta.vid, event.index)
            if tail is None or (repeated and tail.startswith(ENTERING)):
                continue  # a later instance's own inputs are drawn by the first instance's
            self._connect(tail, head, meta, label=tail.split(":", 1)[0] not in SHOWS_ITS_VALUE)

    # ------------------------------------------------------------ the focused module's boundary
    def _value_node(self, index: int, vid: int, prefix: str) -> tuple[str, TensorMeta]:
        """Id and value of the boundary node for output `vid` of event `index`."""
        event = self.events[index]
        position = next(n for n, meta in enumerate(event.outputs) if meta.vid == vid)
        suffix = f".{position}" if position else ""
        return f"{prefix}{self.node_ids[index]}{suffix}", event.outputs[position]

    def _entering(self, index: int, vid: int) -> str:
        """One box per value made outside the focused module and read inside it."""
        node_id, meta = self._value_node(index, vid, ENTERING)
        if node_id not in self.drawing.nodes:
            event = self.events[index]
            self._explain(meta)
            self.drawing.add(DrawNode(
                node_id, "boundary", "in", [self.labeller.value(meta), f"from {event.module or 'top level'} · {event.op}"],
                tooltip=self._where(event)))
        return node_id

    def _beside_focus(self, module: str) -> str:
        """`module` cut to the level where it parts from the focused path: `decoder`, not `decoder.layers.0.ffn.linear1`."""
        parts, focus = module.split(".") if module else [], (self.options.focus or "").split(".")
        shared = next((n for n, (a, b) in enumerate(zip(parts, focus)) if a != b), min(len(parts), len(focus)))
        return ".".join(parts[:shared + 1]) or "top level"

    def _leaving(self, event: OpEvent) -> None:
        """One box per value made inside the focused module and read outside it, naming its readers."""
        if self.scope is None:
            return
        for meta in event.inputs:
            index, vid = self.simple.trace_back(meta.vid, self.events)
            if index is None or not self.in_scope(self.events[index]):
                continue
            node_id, value = self._value_node(index, vid, LEAVING)
            if node_id not in self.drawing.nodes:
                self._explain(value)
                self.drawing.add(DrawNode(node_id, "boundary", "out", [self.labeller.value(value)]))
                self._readers[node_id] = []
                self._connect(self.unit(self.repeats.event(index)), node_id, value, label=False)
            readers = self._readers[node_id]
            reader = self._beside_focus(event.module)
            if reader not in readers:
                readers.append(reader)

    def _connect(self, tail: str, head: str, meta: TensorMeta, label: bool = True) -> None:
        if tail == head:  # a value inside one box
            return
        text = self.labeller.value(meta) if label else ""
        self.drawing.connect(tail, head, text, torn=self.labeller.torn(meta))
        self._explain(meta)

    def _explain(self, meta: TensorMeta) -> None:
        """Name the axes of a value shown on the page in the legend."""
        for name, meaning in self.labeller.meanings(meta).items():
            self.drawing.axis_names.setdefault(name, meaning)

    def _outputs(self) -> None:
        for meta in self.recording.outputs:
            index = self.simple.source(meta.vid, self.events)
            tail = self._tail(meta.vid, None) if index is None or self.in_scope(self.events[index]) else None
            if tail is None:
                continue
            self.drawing.add(DrawNode(OUTPUT, "output", "output", []))
            self._connect(tail, OUTPUT, meta)

    def _finish(self) -> None:
        """Red boxes for hidden findings; a frame holding a single box becomes that box."""
        for node_id, readers in self._readers.items():
            more = f" and {len(readers) - MAX_READERS} more" if len(readers) > MAX_READERS else ""
            self.drawing.nodes[node_id].lines.append("to " + ", ".join(readers[:MAX_READERS]) + more)
        for unit, found in self._box_findings.items():
            if found:
                box = self.drawing.nodes[unit]
                box.flags.extend(hidden_summary(found))
                box.hidden_severity = min((f.severity for f in found), key=SEVERITY_ORDER.index, default="error")
        for unit, params in self._box_params.items():
            self.drawing.nodes[unit].lines.append(f"params: {sum(params.values()):,}")
        children: dict[str | None, list[str]] = {}
        for cluster in self.drawing.clusters.values():
            children.setdefault(cluster.parent, []).append(cluster.id)
        members: dict[str | None, list[DrawNode]] = {}
        for node in self.drawing.nodes.values():
            members.setdefault(node.cluster, []).append(node)
        for cluster_id in reversed(list(self.drawing.clusters)):
            cluster = self.drawing.clusters[cluster_id]
            inside = members.get(cluster_id, [])
            if len(inside) != 1 or children.get(cluster_id) or cluster.repeat > 1 or inside[0].kind == "module":
                continue
            node = inside[0]
            path, _, type_name = cluster.label.partition(" · ")
            op = node.title
            node.title = path.rsplit(".", 1)[-1]
            node.lines.insert(0, type_name if type_name.lower() == op.lower() else f"{type_name} · {op}")
            node.cluster = cluster.parent
            members.setdefault(cluster.parent, []).append(node)
            children[cluster.parent].remove(cluster_id)
            del self.drawing.clusters[cluster_id]


def build_drawing(analysis: Analysis, options: RenderOptions) -> Drawing:
    """The drawing of `analysis` as `options` ask (see `RenderOptions`)."""
    return Builder(analysis, options).build()
