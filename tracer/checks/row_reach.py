"""Whether some rows of a value reach a model output, followed op by op.

A fused kernel gives a query that sees no key a row of zeros, not NaN, so the values cannot
say whether the model drops that row later (NaViT's pooling slot for a missing image,
`x[is_images]`). Here the rows are marked in a boolean tensor shaped like the value and the
mark is carried forward through the recording: layout ops and indexing are replayed on the
mark itself, and ops that work on each row alone (projections, norms, activations,
elementwise arithmetic) keep the marked rows where they are. Any other op ends the walk
with "it reaches", so a row is only ever excused by a drop that was seen.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import torch

from ..events import TENSOR_SLOT, OpEvent

# Ops replayed on the mark with the recorded arguments (the marked tensor is their first input).
REPLAYED = frozenset({
    "transpose", "permute", "movedim", "t", "reshape", "view", "flatten", "unflatten", "squeeze", "unsqueeze",
    "expand", "getitem", "narrow", "select", "index_select", "chunk", "split", "unbind",
})
# Ops whose output is the input, element for element, as far as rows go.
SAME = frozenset({
    "contiguous", "clone", "detach", "to", "float", "half", "bfloat16", "double", "type", "type_as", "dropout",
    "relu", "gelu", "silu", "tanh", "sigmoid", "elu", "leaky_relu", "neg", "abs", "exp", "sqrt", "rsqrt",
})
# Elementwise ops over broadcast operands: a row of the output is marked where any operand's is.
ELEMENTWISE = frozenset({"add", "sub", "rsub", "mul", "div", "rdiv", "where", "masked_fill", "maximum", "minimum"})
# Ops that mix each row's last dim only.
ALONG_LAST = frozenset({"linear", "layer_norm", "rms_norm", "group_norm", "softmax", "log_softmax"})
STEPS = 200  # ops followed before giving up (and saying the rows reach the output)


def rows_reach_output(recording, flow, vid: int, mark: torch.Tensor) -> bool:
    """True unless every marked element of value `vid` is seen dropped on its way to the outputs."""
    outputs = {meta.vid for meta in recording.outputs}
    frontier, steps = [(vid, mark)], 0
    while frontier:
        vid, mark = frontier.pop()
        if not bool(mark.any()):
            continue
        if vid in outputs:
            return True
        for event, position in flow.users(vid):
            steps += 1
            carried = _carry(recording, event, position, mark) if steps <= STEPS else None
            if carried is None:
                return True
            frontier.extend((meta.vid, marked) for meta, marked in zip(event.outputs, carried))
    return False


def _carry(recording, event: OpEvent, position: int, mark: torch.Tensor) -> list[torch.Tensor] | None:
    """The marks of `event`'s outputs when its input at `position` carries `mark`, or None if unknown."""
    shapes = [tuple(meta.shape) for meta in event.outputs]
    try:
        if event.op in SAME and position == 0:
            return [mark.reshape(shapes[0])]
        if event.op in REPLAYED and position == 0:
            replayed = _replay(recording, event, mark)
            return None if replayed is None or [tuple(m.shape) for m in replayed] != shapes else replayed
        if event.op in ELEMENTWISE:  # a broadcast operand's mark, right-aligned as torch broadcasts
            return [torch.broadcast_to(mark, shapes[0])]
        if event.op in ALONG_LAST and position == 0 and _last_dim_only(event):
            return [mark.any(-1, keepdim=True).expand(shapes[0])]
        if event.op == "cat":
            return _cat(event, position, mark, shapes[0])
    except (RuntimeError, IndexError, TypeError, ValueError):
        return None
    return None


def _last_dim_only(event: OpEvent) -> bool:
    if event.op in ("softmax", "log_softmax"):
        dim = event.arg(1, "dim")
        return dim == -1 or (isinstance(dim, int) and dim == len(event.inputs[0].shape) - 1)
    return True


def _cat(event: OpEvent, position: int, mark: torch.Tensor, shape: tuple[int, ...]) -> list[torch.Tensor] | None:
    dim = event.arg(1, "dim", 0)
    parts = [mark if index == position else torch.zeros(tuple(meta.shape), dtype=torch.bool)
             for index, meta in enumerate(event.inputs)]
    joined = torch.cat(parts, dim=dim)
    return [joined] if tuple(joined.shape) == shape else None


def _replay(recording, event: OpEvent, mark: torch.Tensor) -> list[torch.Tensor] | None:
    function = _function(event.target)
    if function is None:
        return None
    tensors: list[torch.Tensor | None] = [mark] + [recording.values.get(meta.vid) for meta in event.inputs[1:]]
    if any(tensor is None for tensor in tensors):
        return None  # an index whose values were not kept
    args = [_decoded(value, tensors) for value in event.args]
    if event.op == "getitem" and len(args) == 2 and isinstance(args[1], list):
        if all(isinstance(item, int) for item in args[1]):
            return None  # x[[0, 2]] and x[0, 2] were both written down as a list
        args[1] = tuple(args[1])
    kwargs = {key: _decoded(value, tensors) for key, value in event.kwargs.items()}
    result = function(*args, **kwargs)
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _function(target: str):
    """`torch.Tensor.reshape` and the like, from the name the recorder wrote down."""
    module, _, name = target.rpartition(".")
    if module == "torch.Tensor":
        return getattr(torch.Tensor, name, None)
    root, *path = module.split(".")
    if root != "torch":
        return None
    try:
        return getattr(reduce(getattr, path, torch), name)
    except AttributeError:
        return None


def _decoded(value: Any, tensors: list) -> Any:
    if isinstance(value, dict) and TENSOR_SLOT in value:
        return tensors[value[TENSOR_SLOT]]
    if isinstance(value, dict) and "slice" in value:
        return slice(*(_decoded(part, tensors) for part in value["slice"]))
    if value == "...":
        return Ellipsis
    if isinstance(value, list):
        return [_decoded(item, tensors) for item in value]
    return value

