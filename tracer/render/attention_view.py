"""The attention view: every attention block drawn in the course's canonical form.

    Q, K, V → scores (T_q × T_k) → scale → mask → softmax over the key axis → × V → concat → W_O

whatever the code looked like (one einsum, a hand-written softmax, a fused
`scaled_dot_product_attention`), with the sizes the recording saw on each arrow. A step the
code skipped is drawn dashed ("no mask"); a step the code got wrong is red with its finding.
Steps hidden inside a fused call are dashed and say so. Identical blocks of repeated layers
are drawn once with "× N" unless `expand`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..analysis import Analysis
from ..blocks import LAYOUT_OPS, AttentionBlock
from ..events import OpEvent, TensorMeta
from ..findings import Finding
from ..graph import findings_by_event
from .flags import flag_lines, tooltip
from .labels import Labeller
from .model import Cluster, DrawNode, Drawing, RenderError, RenderOptions

STAGE_OF_CODE = {
    "scale-factor": "scale", "softmax-axis": "softmax", "unstable-softmax": "softmax",
    "mask-after-softmax": "after", "mask-value": "mask", "mask-axis": "mask", "mask-polarity": "mask",
    "causal-leak": "mask", "causal-diagonal": "mask", "fully-masked-row": "mask",
    "head-merge": "concat",
}
MERGES = frozenset({"reshape", "view", "flatten", "_unsafe_view"})
MASK_STAGES = frozenset({"mask", "after"})
BUILT_WITHIN = 12  # ops walked back from an applied mask to find the op a mask finding is at


def mask_boxes(block: AttentionBlock) -> dict[int, str]:
    """Mask use's event -> the stage (box) that draws it: `mask`, `mask1`, ... before the softmax
    and `after`, `after1`, ... after it, each in code order."""
    boxes: dict[int, str] = {}
    for stage in MASK_STAGES:
        uses = sorted((u for u in block.masks if u.after == (stage == "after")), key=lambda u: u.event)
        boxes.update({use.event: stage if n == 0 else f"{stage}{n}" for n, use in enumerate(uses)})
    return boxes


@dataclass
class Canon:
    """One block's canonical steps: the events and values behind each box."""

    block: AttentionBlock
    q: TensorMeta | None = None
    k: TensorMeta | None = None
    v: TensorMeta | None = None
    k_operand: TensorMeta | None = None
    concat: OpEvent | None = None
    w_o: OpEvent | None = None
    findings: dict[str, list[Finding]] = field(default_factory=dict)  # stage -> findings


class AttentionView:
    def __init__(self, analysis: Analysis, options: RenderOptions) -> None:
        self.analysis, self.options = analysis, options
        self.events = analysis.recording.events
        self.labeller = Labeller(analysis)
        self.table = analysis.table
        self.findings = findings_by_event(analysis) if options.flags else {}
        self.producer = {m.vid: e.index for e in self.events for m in e.outputs}
        self.users: dict[int, list[int]] = {}
        for event in self.events:
            for meta in event.inputs:
                self.users.setdefault(meta.vid, []).append(event.index)
        title = options.title or f"{analysis.recording.root_type} · attention blocks"
        self.drawing = Drawing(title)

    # ------------------------------------------------------------ reading a block
    def _made_by(self, vid: int) -> OpEvent | None:
        index = self.producer.get(vid)
        return None if index is None else self.events[index]

    def _next(self, vid: int) -> OpEvent | None:
        users = self.users.get(vid, [])
        return self.events[users[0]] if len(users) == 1 else None

    def _derives_from(self, vid: int, target: int) -> bool:
        for _ in range(12):
            if vid == target:
                return True
            event = self._made_by(vid)
            if event is None or not event.inputs:
                return False
            vid = event.inputs[0].vid
        return False

    def canon(self, block: AttentionBlock) -> Canon:
        made = Canon(block)
        if block.kind == "sdpa":
            sdpa = self.events[block.norm_event]
            made.q, made.k, made.v = sdpa.inputs[0], sdpa.inputs[1], sdpa.inputs[2]
            made.k_operand = made.k
        elif block.product_event is not None:
            product = self.events[block.product_event]
            operands = product.inputs[1:3] if product.op == "baddbmm" else product.inputs[:2]
            if len(operands) == 2:
                made.q, made.k_operand = operands
                made.k = made.k_operand
                mover = self._made_by(made.k_operand.vid)
                if mover is not None and mover.op in ("transpose", "permute") and product.op != "einsum":
                    made.k = mover.inputs[0]
        if block.contraction_event is not None and block.kind != "sdpa" and block.weights is not None:
            apply = self.events[block.contraction_event]
            others = [m for m in apply.inputs if not self._derives_from(m.vid, block.weights.vid)]
            made.v = others[0] if others else None
        out = self.events[block.contraction_event].outputs[0] if block.contraction_event is not None else None
        vid = out.vid if out is not None else None
        for _ in range(5):  # context -> (transpose, contiguous) -> reshape = concat -> linear = W_O
            event = self._next(vid) if vid is not None else None
            if event is None or not event.outputs:
                break
            if made.concat is None and event.op in MERGES and len(event.outputs[0].shape) < len(event.inputs[0].shape):
                made.concat = event
            elif event.op == "linear":
                made.w_o = event
                break
            elif event.op not in LAYOUT_OPS:
                break
            vid = event.outputs[0].vid
        self._collect_findings(made)
        return made

    def _collect_findings(self, made: Canon) -> None:
        block = made.block
        stages = {block.norm_event: "softmax", **{i: "scale" for i in block.scale_events}}
        if block.exp_event is not None:
            stages[block.exp_event] = "softmax"
        if block.product_event is not None:
            stages.setdefault(block.product_event, "scores")
        boxes = mask_boxes(block)
        stages.update(boxes)
        if block.contraction_event is not None:
            stages.setdefault(block.contraction_event, "apply")
        for name, meta in (("q", made.q), ("k", made.k_operand), ("v", made.v)):
            event = self._made_by(meta.vid) if meta is not None else None
            for _ in range(4):
                if event is None:
                    break
                stages.setdefault(event.index, name)
                event = self._made_by(event.inputs[0].vid) if event.op in LAYOUT_OPS | MERGES and event.inputs else None
        if made.concat is not None:
            stages[made.concat.index] = "concat"
            before = self._made_by(made.concat.inputs[0].vid)
            if before is not None:
                stages.setdefault(before.index, "concat")
        if made.w_o is not None:
            stages[made.w_o.index] = "w_o"
        call = self.events[block.norm_event].module_call
        for index in sorted(self.findings):  # e.g. a discarded masked_fill: in the block's module, not its chain
            if index not in stages and self.events[index].module_call == call:
                for finding in self.findings[index]:
                    if finding.code in STAGE_OF_CODE:
                        stages[index] = STAGE_OF_CODE[finding.code]
        for index, stage in sorted(stages.items()):
            for finding in self.findings.get(index, []):
                wanted = STAGE_OF_CODE.get(finding.code, stage)
                if stage in ("q", "k", "v", "concat") or stage.rstrip("0123456789") == wanted:
                    target = stage  # a mask's finding stays on that mask's box
                elif wanted in MASK_STAGES:
                    target = self._mask_built_by(block, index, boxes, wanted)
                else:
                    target = wanted
                bucket = made.findings.setdefault(target, [])
                if finding not in bucket:
                    bucket.append(finding)

    def _mask_built_by(self, block: AttentionBlock, index: int, boxes: dict[int, str], stage: str) -> str:
        """The box of the mask whose construction ran op `index` (else the first `stage` box)."""
        for use in sorted(block.masks, key=lambda u: u.event):
            if use.mask is not None and self._built_from(use.mask.vid, index):
                return boxes[use.event]
        return stage

    def _built_from(self, vid: int, index: int) -> bool:
        """Whether op `index` is among the ops that made value `vid`, within `BUILT_WITHIN` steps."""
        frontier, seen = [vid], set()
        for _ in range(BUILT_WITHIN):
            makers = [e for e in (self._made_by(v) for v in frontier) if e is not None and e.index not in seen]
            if any(e.index == index for e in makers):
                return True
            seen.update(e.index for e in makers)
            frontier = [m.vid for e in makers for m in e.inputs]
        return False

    def signature(self, made: Canon) -> tuple:
        block = made.block
        module = re.sub(r"\.\d+(?=\.|$)", ".#", block.module)
        return (module, block.kind, block.table_shape, round(block.scale or 0, 6),
                tuple(self.labeller.mask_kind(block, u) for u in block.masks), tuple(sorted((k, tuple(f.code for f in v)) for k, v in made.findings.items())))

    # ------------------------------------------------------------ drawing a block
    def _box(self, prefix: str, stage: str, title: str, lines: list[str], made: Canon, cluster: str,
             kind: str = "op", dashed: bool = False) -> str:
        node = self.drawing.add(DrawNode(f"{prefix}/{stage}", kind, title, lines, cluster=cluster, dashed=dashed))
        for finding in made.findings.get(stage, []):
            node.flags.extend(flag_lines(finding))
            node.tooltip = f"{node.tooltip}\n{tooltip(finding)}".strip()
        return node.id

    def _edge(self, tail: str, head: str, meta: TensorMeta | None, text: str | None = None) -> None:
        label = text if text is not None else (self.labeller.value(meta) if meta is not None else "")
        self.drawing.connect(tail, head, label, torn=meta is not None and self.labeller.torn(meta))
        if meta is not None:
            for name, meaning in self.labeller.meanings(meta).items():
                self.drawing.axis_names.setdefault(name, meaning)

    def draw(self, made: Canon, number: int, count: int, label: str) -> None:
        block = made.block
        prefix = f"block{number}"
        cluster = f"cluster:{prefix}"
        self.drawing.clusters[cluster] = Cluster(cluster, label, None, count)
        fused = block.kind == "sdpa"
        inside = ["inside scaled_dot_product_attention"] if fused else []
        table_text = self.table.describe_shape(block.table_axes)
        q = self._box(prefix, "q", "Q", [], made, cluster, kind="input")
        k = self._box(prefix, "k", "K", [], made, cluster, kind="input")
        v = self._box(prefix, "v", "V", [], made, cluster, kind="input")
        self.drawing.rows.append((q, k))
        contracted = f"contracts d_k={block.contracted_size}" if block.contracted_size else ""
        scores = self._box(prefix, "scores", "scores = Q·Kᵀ", [c for c in (contracted, *inside) if c], made, cluster, dashed=fused)
        self._edge(q, scores, made.q)
        self._edge(k, scores, made.k_operand, None if made.k_operand is None or fused else f"Kᵀ: {self.labeller.value(made.k_operand)}")
        product_out = self.events[block.product_event].outputs[0] if block.product_event is not None and not fused else None
        if block.scale_events or fused:
            factor = block.scale if block.scale is not None else 1.0
            lines = self.labeller.scale_lines(self.events[block.scale_events[-1]], block) if block.scale_events else [f"× {factor:.3g}"]
            scale = self._box(prefix, "scale", "scale", lines + inside, made, cluster, dashed=fused)
        else:
            scale = self._box(prefix, "scale", "no scale", ["× 1"], made, cluster, dashed=True)
        self._edge(scores, scale, product_out, table_text if product_out is None else None)
        previous = scale
        boxes = mask_boxes(block)
        in_order = sorted(block.masks, key=lambda u: u.event)
        before = [u for u in in_order if not u.after]
        for use in before:
            node = self._box(prefix, boxes[use.event], "mask", self.labeller.mask_lines(block, use) + inside,
                             made, cluster, kind="mask", dashed=fused)
            self._edge(previous, node, None, table_text)
            previous = node
        if not before:
            node = self._box(prefix, "mask", "no mask", [], made, cluster, kind="mask", dashed=True)
            self._edge(previous, node, None, table_text)
            previous = node
        hand = ["hand-written" + ("" if block.max_subtracted else ", no max subtracted")] if block.kind == "handwritten" else []
        softmax = self._box(prefix, "softmax", "softmax", [self.labeller.normalized(block), *hand, *inside], made, cluster, dashed=fused)
        self.drawing.rows.append((v, softmax))  # V waits beside the softmax: a short arrow into × V
        self._edge(previous, softmax, block.scores, None if block.scores is not None else table_text)
        previous = softmax
        for use in (u for u in in_order if u.after):
            node = self._box(prefix, boxes[use.event], "mask after softmax",
                             self.labeller.mask_lines(block, use), made, cluster, kind="mask")
            self._edge(previous, node, block.weights)
            previous = node
        axes = ", ".join(self.table.describe(a) for a in block.contracted_axes) or "keys"
        apply = self._box(prefix, "apply", "× V", [f"sum over {axes}", *inside], made, cluster, dashed=fused)
        self._edge(previous, apply, block.weights, table_text if block.weights is None else None)
        self._edge(v, apply, made.v)
        context = self.events[block.contraction_event].outputs[0] if block.contraction_event is not None else None
        previous, value = apply, context
        if made.concat is not None:
            concat = self._box(prefix, "concat", "concat heads", [made.concat.op], made, cluster, kind="group")
            self._edge(previous, concat, made.concat.inputs[0])
            previous, value = concat, made.concat.outputs[0]
        if made.w_o is not None:
            result = self.labeller.value(made.w_o.outputs[0])
            for name, meaning in self.labeller.meanings(made.w_o.outputs[0]).items():
                self.drawing.axis_names.setdefault(name, meaning)
            w_o = self._box(prefix, "w_o", "W_O", [made.w_o.module or "linear", f"→ {result}"], made, cluster)
            self._edge(previous, w_o, value)

    def build(self) -> Drawing:
        runs: list[list[Canon]] = []
        by_signature: dict[tuple, list[Canon]] = {}
        focus = self.options.focus
        if focus and not any(c.path == focus for c in self.analysis.recording.module_calls):
            raise RenderError(f"no module {focus!r} ran in this recording")
        for block in self.analysis.blocks:  # the same block in every layer, drawn once
            if focus and block.module != focus and not block.module.startswith(focus + "."):
                continue
            made = self.canon(block)
            key = self.signature(made)
            if not self.options.expand and key in by_signature:
                by_signature[key].append(made)
            else:
                by_signature[key] = [made]
                runs.append(by_signature[key])
        for number, run in enumerate(runs):
            first, last = run[0].block, run[-1].block
            where = first.module or "(top level)"
            if len(run) > 1:
                where = f"{where} … {last.module or '(top level)'}"
            self.draw(run[0], number, len(run), f"{where} · attention block {first.index}")
        if not runs:
            self.drawing.add(DrawNode("none", "op", "no attention blocks found",
                                      ["no softmax whose weights are contracted with values"]))
        return self.drawing


def build_attention_drawing(analysis: Analysis, options: RenderOptions) -> Drawing:
    """The attention view of `analysis` (see the module docstring)."""
    return AttentionView(analysis, options).build()
