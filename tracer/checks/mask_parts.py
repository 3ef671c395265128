"""Combined masks taken apart along their construction, so each part is judged on its own.

A mask such as `pad[:, None, :, None] & causal` is an AND (or OR, product, sum) of parts.
Walking back from the mask a use applies, through the ops that only reshape, convert or
negate it, each operand of a combining op is a part; its pattern over the score table's
named axes says what it is: a padding part varies along one position axis (keys, or, by
mistake, queries), a causal, window or prefix part along both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from ..blocks import AttentionBlock, MaskUse
from ..evidence.masks import KEY, QUERY, placement_of, varies

COMBINERS = frozenset({
    "logical_and", "logical_or", "logical_and_bitwise", "logical_or_bitwise", "bitwise_and", "bitwise_or",
    "mul", "add", "minimum", "maximum",
})
PASS_THROUGH = frozenset({
    "unsqueeze", "squeeze", "view", "reshape", "expand", "expand_as", "contiguous", "clone", "detach", "to",
    "type", "float", "bool", "long", "int", "half", "bfloat16", "logical_not", "bitwise_not", "eq", "ne",
    "masked_fill", "getitem", "neg", "rsub", "sub",
})


@dataclass
class MaskPart:
    vid: int  # the value as it enters the combination (or the use)
    events: list[int] = field(default_factory=list)  # the ops it went through, nearest first
    pattern: torch.Tensor | None = None  # its values as (batch, rest, T_q, T_k), broadcast dims 1

    def varies(self, dim: int) -> bool:
        return self.pattern is not None and varies(self.pattern, dim)

    @property
    def along_queries_only(self) -> bool:
        return self.varies(QUERY) and not self.varies(KEY)

    @property
    def along_keys_only(self) -> bool:
        return self.varies(KEY) and not self.varies(QUERY)


def mask_parts(analysis, block: AttentionBlock, use: MaskUse) -> list[MaskPart]:
    """The parts the applied mask was combined from (one part if it was not combined)."""
    if use.mask is None:
        return []
    placement = placement_of(analysis, block, use.axes, use.shape)
    parts: list[MaskPart] = []
    _walk(analysis, use.mask.vid, MaskPart(use.mask.vid), parts, depth=12)
    for part in parts:
        value = analysis.recording.values.get(part.vid)
        if placement is not None and value is not None:
            part.pattern = placement.canonical(value)
    return parts


def _walk(analysis, vid: int, part: MaskPart, parts: list[MaskPart], depth: int) -> None:
    event = analysis.flow.made_by(vid)
    tensors = event.inputs if event is not None else ()
    if event is not None and depth > 0 and event.op in COMBINERS and len(tensors) >= 2:
        for operand in tensors:
            _walk(analysis, operand.vid, MaskPart(operand.vid, [event.index]), parts, depth - 1)
        return
    if event is not None and depth > 0 and event.op in PASS_THROUGH and tensors:
        part.events.append(event.index)
        _walk(analysis, tensors[0].vid, part, parts, depth - 1)
        return
    if event is not None:
        part.events.append(event.index)
    parts.append(part)
