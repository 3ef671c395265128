"""Words for one recorded op: which axis a `dim` is, what a mask hides, what a scale divides by.

A debugger for axis errors is only useful if it says what each number *means*: `dim=-2`
alone is the bug, "dim=-2 → Tq (query positions)" is the diagnosis. These functions turn
the analysis into short Rich texts; the details pane only arranges them.
"""

from __future__ import annotations

import linecache
import math
import os
from typing import Any

from rich.text import Text

from tracer.axes import Axis
from tracer.blocks import AttentionBlock, MaskUse
from tracer.events import TENSOR_SLOT, OpEvent, TensorMeta, ValueStats
from tracer.findings import Finding, Related

from .session import Session

KIND_WORDS = {
    "batch": "batch", "head": "heads", "feature": "features", "seq": "sequence positions",
    "pos": "positions", "merged": "merged axes", "mixed": "a MIX of axes", "one": "size 1",
    "unknown": "meaning unknown",
}
DIM_OPS = frozenset({
    "softmax", "log_softmax", "sum", "mean", "amax", "amin", "max", "min", "var", "std", "logsumexp",
    "cat", "stack", "split", "chunk", "unbind", "argmax", "cumsum", "norm", "var_mean", "std_mean",
})
SEVERITY_STYLES = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def axis_meaning(axis: Axis) -> str:
    if axis.role == "query":
        return "query positions"
    if axis.role == "key":
        return "key positions"
    return axis.label or KIND_WORDS.get(axis.kind, axis.kind)


def dim_text(session: Session, meta: TensorMeta, dim: Any) -> str:
    """`dim=-2 → Tq=5 (query positions)`; the raw dim when it is not an index of `meta`."""
    if not isinstance(dim, int) or not meta.shape or not -len(meta.shape) <= dim < len(meta.shape):
        return f"dim={dim!r}"
    analysis = session.analysis
    axis = analysis.axes_of(meta)[dim % len(meta.shape)]
    return f"dim={dim} → {analysis.table.describe(axis)} ({axis_meaning(analysis.table.get(axis))})"


def value_name(session: Session, meta: TensorMeta) -> str:
    """Where a value came from: a named input or parameter, or the op that made it."""
    source = session.recording.sources.get(meta.vid)
    if source is not None:
        return f"{source.kind} {source.name}"
    producer = session.producers.get(meta.vid)
    return f"from #{producer}" if producer is not None else f"v{meta.vid}"


def stats_text(stats: ValueStats | None) -> str:
    if stats is None:
        return "no statistics (meta device or empty)"
    text = f"min {stats.minimum:.4g}  max {stats.maximum:.4g}  mean {stats.mean:.4g}"
    if stats.nonfinite:
        text += f"  non-finite {stats.nonfinite} (NaN {stats.nan})"
    return text


def tensor_lines(session: Session, label: str, meta: TensorMeta, stats: ValueStats | None = None) -> list[Text]:
    """Two lines per tensor: name, dtype and shape; then the axis names (and stats for outputs)."""
    shape = "×".join(str(s) for s in meta.shape) or "scalar"
    kept = " · kept" if meta.vid in session.recording.values else ""
    lines = [
        Text.assemble((f"{label} ", "bold"), (value_name(session, meta), "italic"), f"  {meta.dtype} {shape}{kept}"),
        Text.assemble("    ", (session.analysis.describe(meta), "cyan")),
    ]
    if stats is not None or label.startswith("out"):
        lines.append(Text("    " + stats_text(stats), style="dim"))
    return lines


def args_text(event: OpEvent) -> str:
    """The call as recorded, tensors written `in[i]`: `softmax(in[0], dim=-2)`."""
    def show(value: Any) -> str:
        if isinstance(value, dict) and TENSOR_SLOT in value:
            return f"in[{value[TENSOR_SLOT]}]"
        if isinstance(value, (list, tuple)):
            return "(" + ", ".join(show(v) for v in value) + ")"
        if isinstance(value, float):
            return f"{value:.6g}"
        return repr(value)

    parts = [show(a) for a in event.args] + [f"{k}={show(v)}" for k, v in event.kwargs.items()]
    text = f"{event.op}({', '.join(parts)})"
    return text if len(text) <= 160 else text[:157] + "..."


def mask_kind(session: Session, block: AttentionBlock, use: MaskUse) -> str:
    """What the mask is, in the diagrams' words (`causal + padding over keys`), read from its
    hidden pattern when it was kept."""
    if use.kind == "is_causal":
        return "causal (is_causal=True)"
    if use.hidden is None:
        return "pattern unknown (mask values not kept)"
    from tracer.render.mask_kinds import mask_kind as kind_of

    return kind_of(session.analysis, block, use)


def scale_text(block: AttentionBlock) -> str:
    if block.scale is None:
        return "scale: not a known number"
    d_k = block.contracted_size
    expected = f" (1/sqrt(d_k) = {1 / math.sqrt(d_k):.4g} for d_k={d_k})" if d_k else ""
    return f"scale ×{block.scale:.4g}{expected}"


def block_lines(session: Session, block: AttentionBlock, event: OpEvent) -> list[Text]:
    """What the op does inside its attention block."""
    table = session.analysis.table
    axes = " × ".join(table.describe(a) for a in block.table_axes) or str(block.table_shape)
    lines = [Text.assemble(("attention block ", "bold magenta"), f"#{block.index} ({block.kind}) scores [{axes}]")]
    if event.index == block.norm_event:
        normalized = table.describe(block.normalized_axis) if block.normalized_axis is not None else "?"
        lines.append(Text(f"  normalizes over {normalized}; weights summed against values over "
                          + (", ".join(table.describe(a) for a in block.contracted_axes) or "?")))
    if event.index == block.product_event:
        lines.append(Text(f"  query-key product, contracted width d_k={block.contracted_size}"))
    if event.index in block.scale_events or event.index == block.norm_event:
        lines.append(Text("  " + scale_text(block)))
    for use in block.masks:
        if use.event == event.index:
            when = "after the softmax" if use.after else "before the softmax"
            fill = "" if use.fill is None else f", fill {use.fill:g}"
            lines.append(Text(f"  mask ({use.kind}{fill}, {when}): {mask_kind(session, block, use)}"))
    if event.index == block.contraction_event and event.index != block.norm_event:
        lines.append(Text("  weights × values: the contraction over the key axis"))
    return lines


def meaning_lines(session: Session, event: OpEvent) -> list[Text]:
    """The arguments that matter for this op, in words."""
    lines: list[Text] = []
    source = event.inputs[0] if event.inputs else None
    if event.op in DIM_OPS and source is not None:
        dim = event.arg(1, "dim")
        dims = dim if isinstance(dim, (list, tuple)) else [dim]
        if dim is not None:
            lines += [Text("  " + dim_text(session, source, d)) for d in dims]
    elif event.op == "transpose" and source is not None:
        lines += [Text("  swaps " + dim_text(session, source, event.arg(i, n))) for i, n in ((1, "dim0"), (2, "dim1"))]
    elif event.op == "masked_fill":
        lines.append(Text(f"  fill value {event.arg(2, 'value')!r}"))
    elif event.op == "scaled_dot_product_attention":
        scale = event.arg(6, "scale")
        width = event.inputs[0].shape[-1] if event.inputs and event.inputs[0].shape else None
        if scale is None and width:
            scale = f"default 1/sqrt({width}) = {1 / math.sqrt(width):.4g}"
        mask = event.tensor_arg(3, "attn_mask")
        lines.append(Text(f"  is_causal={event.arg(5, 'is_causal', False)}  scale={scale}  "
                          f"attn_mask={'none' if mask is None else session.analysis.describe(mask)}  "
                          f"dropout_p={event.arg(4, 'dropout_p', 0.0)}"))
    elif event.op == "layer_norm":
        lines.append(Text(f"  normalized_shape={event.arg(1, 'normalized_shape')!r} eps={event.arg(4, 'eps', 1e-5)!r}"))
    elif event.op == "dropout":
        lines.append(Text(f"  p={event.arg(1, 'p', 0.5)!r} training={event.arg(2, 'training', True)!r}"))
    block = session.block_of.get(event.index)
    if block is not None:
        lines += block_lines(session, block, event)
    return lines


def finding_lines(session: Session, event: OpEvent) -> list[Text]:
    """The op's findings, each with its notes and consequences; then the consequences of a
    mistake made elsewhere that sit at this op, each naming its cause."""
    lines = []
    for finding in session.findings_at.get(event.index, []):
        lines.append(Text.assemble((f"{finding.severity}[{finding.code}] ", SEVERITY_STYLES.get(finding.severity, "bold")),
                                   finding.message))
        lines += note_lines(finding.related)
        for consequence in finding.consequences:
            lines += consequence_lines(session, consequence, finding)
        lines += proof_lines(session, finding)
    for consequence, cause in session.consequences_at.get(event.index, []):
        lines.append(Text.assemble((f"consequence [{consequence.code}] ", "bold cyan"), consequence.message))
        label = (f"{cause.severity}[{cause.code}]", SEVERITY_STYLES.get(cause.severity, "bold"))
        lines.append(Text.assemble(("  caused by ", "bold cyan"), label,
                                   f" at {place_text(session, cause)}: {cause.message}"))
        lines += note_lines(consequence.related)
        lines += proof_lines(session, consequence)
    return lines


def note_lines(related: tuple[Related, ...]) -> list[Text]:
    """Where the faulty value was built, as the text report's notes, each with its source line."""
    lines = []
    for place in related:
        where = f"{os.path.basename(place.file)}:{place.line}" + (f" (in {place.function})" if place.function else "")
        lines.append(Text.assemble(("  note: ", "bold cyan"), f"{place.role}: {where}"))
        source = linecache.getline(place.file, place.line).strip()
        if source:
            lines.append(Text(f"    {source}", style="dim"))
    return lines


def proof_lines(session: Session, finding: Finding) -> list[Text]:
    """The witness's proof and the ops its change passed, then the hint."""
    lines = []
    if finding.witness is not None:
        lines.append(Text.assemble(("  proof: ", "bold magenta"), finding.witness.proof))
        lines += divergence_lines(session, finding.witness.path)
    if finding.hint:
        lines.append(Text.assemble(("  hint: ", "bold"), finding.hint))
    return lines


def place_text(session: Session, finding: Finding, beside: Finding | None = None) -> str:
    """`mask_polarity_lengths.py:38 (#18)`: a finding's line and the op it sits at, if any;
    `line 38 (#18)` in the file of `beside`, the finding it is told under."""
    if not finding.file:
        where = "no line"
    elif beside is not None and finding.file == beside.file:
        where = f"line {finding.line}"
    else:
        where = f"{os.path.basename(finding.file)}:{finding.line}"
    index = session.finding_event(finding)
    return where + (f" (#{index})" if index is not None else "")


def consequence_lines(session: Session, consequence: Finding, cause: Finding) -> list[Text]:
    """A consequence under its cause, as the text report's `note: consequence [code]`: where it
    is, its source line when that is another line than the cause's, its proof where it has one."""
    lines = [Text.assemble((f"  consequence [{consequence.code}] ", "bold cyan"),
                           f"{place_text(session, consequence, cause)}: {consequence.message}")]
    source = linecache.getline(consequence.file, consequence.line).strip() if consequence.file else ""
    if source and (consequence.file, consequence.line) != (cause.file, cause.line):
        lines.append(Text(f"    {source}", style="dim"))
    if consequence.witness is not None:
        lines.append(Text.assemble(("    proof: ", "bold magenta"), consequence.witness.proof))
    return lines


def divergence_lines(session: Session, path: tuple[int, ...], shown: int = 6) -> list[Text]:
    """The ops the witnessed change passed through, where it got in first (highlighted)."""
    events = session.recording.events
    steps = [index for index in path if index < len(events)]
    if not steps:
        return []
    lines = [Text("  the change passed:", style="bold magenta")]
    for number, index in enumerate(steps[:shown]):
        event = events[index]
        where = f"#{index} {event.op} at {os.path.basename(event.file)}:{event.line}"
        lines.append(Text(f"    {'→ ' if number == 0 else '  '}{where}", style="bold" if number == 0 else "dim"))
    if len(steps) > shown:
        lines.append(Text(f"      ... {len(steps) - shown} more ops", style="dim"))
    return lines
