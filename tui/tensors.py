"""The numbers behind the tensor views: one attention table, LayerNorm rows, tensor slices.

Each function reads kept values (`Recording.values`) and returns a small, already sliced
result for one chosen batch item and head, so building a view costs O(T_q × T_k) and never
the whole tensor: the UI stays responsive whatever the model's size. Where the values were
not kept (the meta device, the value budget) the result says so instead of guessing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from tracer.blocks import AttentionBlock

from .session import Session

MAX_CELLS = 96  # rows or columns of a table drawn at once; more are sliced with a note
LAYERNORM_FEATURES = 16  # the table scrolls sideways; more would only repeat the pattern


@dataclass
class Table2D:
    """One 2-D slice to draw, with the labels of its axes and what was left out."""

    values: torch.Tensor | None  # (rows, cols) float64, or None when not available
    hidden: torch.Tensor | None = None  # bool (rows, cols): masked cells
    row_label: str = ""
    col_label: str = ""
    picks: list[str] = field(default_factory=list)  # "B=1 of 2"
    notes: list[str] = field(default_factory=list)
    leading: tuple[int, ...] = ()  # sizes of the dims the batch/head keys walk
    row_sums: torch.Tensor | None = None  # over every column, before any slicing


def _fit(tensor: torch.Tensor, notes: list[str], rows_name: str, cols_name: str) -> torch.Tensor:
    rows, cols = tensor.shape
    if rows > MAX_CELLS or cols > MAX_CELLS:
        notes.append(f"large table: showing {rows_name} 0–{min(rows, MAX_CELLS) - 1} of {rows} "
                     f"and {cols_name} 0–{min(cols, MAX_CELLS) - 1} of {cols} (a slice)")
    return tensor[:MAX_CELLS, :MAX_CELLS]


def _dims(session: Session, block: AttentionBlock) -> tuple[int, int]:
    """(query dim, key dim) of the block's table, by the axes' roles; the last two otherwise."""
    table = session.analysis.table
    ndim = len(block.table_shape)
    roles = [table.get(a).role for a in block.table_axes] if len(block.table_axes) == ndim else []
    key = roles.index("key") if "key" in roles else ndim - 1
    query = roles.index("query") if "query" in roles and roles.index("query") != key else None
    if query is None:
        query = ndim - 2 if key == ndim - 1 else ndim - 1
    return query, key


def _leading_index(shape: tuple[int, ...], skip: tuple[int, int], batch: int, head: int) -> tuple[list, list[int]]:
    """Index tuple picking `batch` on the first other dim and `head` on the second; others 0."""
    index: list = [slice(None)] * len(shape)
    others = [d for d in range(len(shape)) if d not in skip]
    for position, dim in enumerate(others):
        wanted = batch if position == 0 else head if position == 1 else 0
        index[dim] = max(0, min(wanted, shape[dim] - 1))
    return index, others


def _sdpa_weights(session: Session, block: AttentionBlock, batch: int, head: int) -> tuple[torch.Tensor | None, str]:
    """softmax(q k^T · scale + mask) for one (batch, head), from kept q and k."""
    event = session.events[block.norm_event]
    values = session.recording.values
    q, k = (values.get(event.inputs[i].vid) for i in (0, 1))
    if q is None or k is None:
        return None, "the weights never existed as a tensor (fused scaled_dot_product_attention) and q or k was not kept: nothing to show"
    if q.shape[:-2] != k.shape[:-2]:
        return None, f"q {tuple(q.shape)} and k {tuple(k.shape)} do not share leading dims: not recomputed"
    lead, _ = _leading_index(tuple(q.shape[:-2]) + (0, 0), (q.dim() - 2, q.dim() - 1), batch, head)
    q2, k2 = q[tuple(lead[:-2])].double(), k[tuple(lead[:-2])].double()
    scale = block.scale if block.scale is not None else 1 / math.sqrt(q.shape[-1])
    scores = q2 @ k2.transpose(-2, -1) * scale
    mask = event.tensor_arg(3, "attn_mask")
    if mask is not None and mask.vid in values:
        kept = values[mask.vid]
        extra = torch.broadcast_to(kept, block.table_shape)[tuple(lead)]
        scores = scores.masked_fill(~extra, -math.inf) if kept.dtype == torch.bool else scores + extra.double()
    elif mask is not None:
        return None, "the attn_mask values were not kept: weights not recomputed"
    if event.arg(5, "is_causal") is True:
        scores = scores.masked_fill(torch.ones_like(scores, dtype=torch.bool).triu(1), -math.inf)
    weights = torch.softmax(scores, dim=-1)
    return weights, (f"computed for display from the recorded q, k, scale {scale:.4g} and mask: "
                     "scaled_dot_product_attention never materializes its weights")


def _weights_value(session: Session, block: AttentionBlock) -> tuple[torch.Tensor | None, str]:
    """The weights as multiplied with the values, else the normalization's output."""
    values = session.recording.values
    if block.contraction_event is not None:
        event = session.events[block.contraction_event]
        operands = [m for m in event.inputs if m.shape == block.table_shape and m.vid in values]
        if len(operands) == 1 and block.weights is not None and operands[0].vid != block.weights.vid:
            return values[operands[0].vid], f"weights as multiplied with the values (op #{event.index})"
    if block.weights is not None and block.weights.vid in values:
        return values[block.weights.vid], f"recorded weights (output of op #{block.norm_event})"
    if block.kind == "handwritten":  # exp(...) / sum: the numerator is kept more often than the quotient
        numerator = session.events[block.norm_event].inputs[0]
        dim = block.dim_of(session.analysis.table, block.normalized_axis)
        if numerator.vid in values and dim is not None and numerator.shape == block.table_shape:
            kept = values[numerator.vid].double()
            return kept / kept.sum(dim=dim, keepdim=True), (
                f"the quotient was not kept: computed for display as the kept numerator (input of op "
                f"#{block.norm_event}) divided by its sum over {session.analysis.table.describe(block.normalized_axis)}")
    return None, "the weights were not kept (value budget or meta device): nothing to show"


def attention_table(session: Session, block: AttentionBlock, batch: int, head: int) -> Table2D:
    """The T_q × T_k weights of one batch item and head, masked cells and where they came from."""
    table = session.analysis.table
    query, key = _dims(session, block)
    index, others = _leading_index(block.table_shape, (query, key), batch, head)
    axes = block.table_axes if len(block.table_axes) == len(block.table_shape) else ()
    name = (lambda d: table.describe(axes[d])) if axes else (lambda d: f"dim {d}={block.table_shape[d]}")
    result = Table2D(None, row_label=name(query), col_label=name(key),
                     leading=tuple(block.table_shape[d] for d in others[:2]))
    result.picks = [f"{name(d).split('=')[0]}={index[d]} of {block.table_shape[d]}" for d in others]
    if len(others) > 2:
        result.notes.append("dims beyond the first two leading ones are fixed at index 0")
    if block.kind == "sdpa":
        weights, note = _sdpa_weights(session, block, batch, head)
    else:
        full, note = _weights_value(session, block)
        weights = full[tuple(index)].double() if full is not None else None
    result.notes.insert(0, note)
    hidden = None
    for use in block.masks:
        if use.hidden is None or tuple(use.shape) != tuple(block.table_shape):
            continue
        try:  # masks keep their broadcast dims at size 1: expand (a view) before picking
            piece = torch.broadcast_to(use.hidden, block.table_shape)[tuple(index)]
        except RuntimeError:
            continue
        hidden = piece if hidden is None else hidden | piece
    if weights is not None:
        if query > key:  # the table is laid out (..., T_k, T_q): show queries as rows
            weights = weights.transpose(0, 1)
            hidden = hidden.transpose(0, 1) if hidden is not None else None
        result.row_sums = weights.sum(dim=-1)[:MAX_CELLS]
        result.values = _fit(weights, result.notes, "queries", "keys")
        result.hidden = _fit(hidden, [], "", "") if hidden is not None else None
    elif hidden is not None:
        result.hidden = (hidden.transpose(0, 1) if query > key else hidden)[:MAX_CELLS, :MAX_CELLS]
    return result


@dataclass
class LayerNormRows:
    """Per position: mean, variance, standardized values and gamma·x̂ + beta (COURSE.md)."""

    mean: torch.Tensor
    var: torch.Tensor
    standardized: torch.Tensor
    output: torch.Tensor
    gamma: torch.Tensor | None
    beta: torch.Tensor | None
    eps: float
    notes: list[str] = field(default_factory=list)


def layernorm_rows(x: torch.Tensor, gamma: torch.Tensor | None, beta: torch.Tensor | None, eps: float) -> LayerNormRows:
    """x (positions, d): statistics over the d features of each position, divisor d (not d - 1)."""
    x = x.double()
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    standardized = (x - mean) / torch.sqrt(var + eps)
    output = standardized
    if gamma is not None:
        output = output * gamma.double()
    if beta is not None:
        output = output + beta.double()
    return LayerNormRows(mean.squeeze(-1), var.squeeze(-1), standardized, output, gamma, beta, eps)


def value_table(tensor: torch.Tensor, batch: int, head: int, names: list[str] | None = None) -> Table2D:
    """A 2-D view of any kept tensor: the last two dims, leading dims picked by batch/head.

    `names` are the tensor's axis names (`Analysis.named_axes`), one per dim; the table is
    headed by them (`Tq\\Tk`, `B=1 of 2`), by dim numbers only where there are none.
    """
    data = tensor.detach()
    if names is None or len(names) != data.dim():
        names = [f"dim {d}" for d in range(data.dim())]
    if data.dim() == 0:
        data, names = data.reshape(1, 1), ["", ""]
    elif data.dim() == 1:
        data, names = data.reshape(1, -1), ["", names[0]]
    shape = tuple(data.shape)
    index, others = _leading_index(shape, (len(shape) - 2, len(shape) - 1), batch, head)
    result = Table2D(None, row_label=names[-2], col_label=names[-1], leading=tuple(shape[d] for d in others[:2]))
    result.picks = [f"{names[d]}={index[d]} of {shape[d]}" for d in others]
    piece = data[tuple(index)]
    if piece.dtype == torch.bool or not piece.is_floating_point():
        piece = piece.to(torch.float64)
    result.values = _fit(piece.double(), result.notes, "rows", "columns")
    return result


@dataclass
class LayerNormInput:
    """What a LayerNorm op (or module call) was given, from kept values."""

    x: torch.Tensor
    gamma: torch.Tensor | None
    beta: torch.Tensor | None
    eps: float
    features: int  # how many trailing dims are normalized together
    recorded: torch.Tensor | None
    where: str
    notes: list[str] = field(default_factory=list)


def _param(session: Session, path: str, names: tuple[str, ...]) -> torch.Tensor | None:
    wanted = {f"{path}.{name}" if path else name for name in names}
    for vid, source in session.recording.sources.items():
        if source.name in wanted and vid in session.recording.values:
            return session.recording.values[vid]
    return None


def layernorm_input(session: Session, index: int) -> LayerNormInput | str:
    """The LayerNorm behind op `index`: a `layer_norm` call, or the LayerNorm module running it."""
    values = session.recording.values
    event = session.events[index]
    if event.op == "layer_norm" and event.inputs:
        x = values.get(event.inputs[0].vid)
        if x is None:
            return "the LayerNorm input was not kept (value budget or meta device): nothing to show"
        shape = event.arg(1, "normalized_shape")
        features = len(shape) if isinstance(shape, (list, tuple)) else 1
        pick = (lambda meta: values.get(meta.vid) if meta is not None else None)
        return LayerNormInput(x, pick(event.tensor_arg(2, "weight")), pick(event.tensor_arg(3, "bias")),
                              float(event.arg(4, "eps", 1e-5)), features,
                              values.get(event.outputs[0].vid) if event.outputs else None, f"layer_norm op #{index}")
    call = session.call_of(index)
    while call is not None and "LayerNorm" not in call.type_name:
        call = session.calls[call.parent] if call.parent is not None else None
    if call is None:
        return "this op is neither a layer_norm nor inside a LayerNorm module"
    if not call.inputs or call.inputs[0].vid not in values:
        return f"the input of {call.path or '(model)'} was not kept (value budget or meta device): nothing to show"
    recorded = values.get(call.outputs[0].vid) if call.outputs else None
    result = LayerNormInput(values[call.inputs[0].vid], _param(session, call.path, ("weight", "gamma")),
                            _param(session, call.path, ("bias", "beta")), 1e-5, 1, recorded,
                            f"{call.path or '(model)'} ({call.type_name}) call #{call.index}")
    result.notes.append("a hand-written LayerNorm module: eps assumed 1e-5, statistics over the last axis by the course's formula")
    return result


def layernorm_view(given: LayerNormInput, batch: int) -> tuple[LayerNormRows, list[str]]:
    """Rows (positions) of batch item `batch`, with the formula's result checked against the recording."""
    x, recorded, picks = given.x, given.recorded, []
    leading = x.dim() - given.features
    if leading >= 2:
        batch = max(0, min(batch, x.shape[0] - 1))
        picks.append(f"batch item {batch} of {x.shape[0]}")
        x = x[batch]
        recorded = recorded[batch] if recorded is not None and recorded.shape == given.x.shape else None
    flat = x.reshape(-1, math.prod(x.shape[x.dim() - given.features:]) if given.features else 1)
    flat_gamma = given.gamma.reshape(-1) if given.gamma is not None else None
    flat_beta = given.beta.reshape(-1) if given.beta is not None else None
    rows = layernorm_rows(flat[:MAX_CELLS], flat_gamma, flat_beta, given.eps)
    rows.notes = list(given.notes) + picks
    if flat.shape[0] > MAX_CELLS:
        rows.notes.append(f"showing positions 0–{MAX_CELLS - 1} of {flat.shape[0]} (a slice)")
    if recorded is not None and recorded.numel() == x.numel():
        expected = recorded.reshape(flat.shape)[:MAX_CELLS].double()
        gap = float((expected - rows.output).abs().max()) if expected.numel() else 0.0
        rows.notes.append(f"formula vs recorded output: max |difference| {gap:.2e}")
    return rows, picks
