"""What the recorder reads off the modules themselves: paths, parameter names, layout facts.

Read once per trace for every module (names) or once per module called (layout facts), so
both avoid what is slow in `nn.Module` for this: nested generators, and the AttributeError
that `Module.__getattr__` raises, and formats, for every missing name.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

LAYOUT_ATTRIBUTES = ("batch_first", "padding_idx")

# type -> the names among LAYOUT_ATTRIBUTES and "config" that its classes define
_ON_CLASS: dict[type, frozenset[str]] = {}


def layout_attributes(module: nn.Module) -> dict[str, Any]:
    """What a module states about its inputs' layout: evidence the analysis weighs.

    `batch_first` of torch's attention and transformer modules, `padding_idx` of embeddings,
    and a HuggingFace config's `pad_token_id`; plain data, so a saved recording keeps them.
    """
    own = module.__dict__
    if "batch_first" not in own and "padding_idx" not in own and "config" not in own and not _on_class(module):
        return {}  # most modules: nothing to read
    stated = {}
    for name in LAYOUT_ATTRIBUTES:
        value = _attribute(module, name)
        if isinstance(value, (bool, int)) and not isinstance(value, torch.Tensor):
            stated[name] = value
    config = _attribute(module, "config")
    pad = getattr(config, "pad_token_id", None) if config is not None else None
    if isinstance(pad, int):
        stated["pad_token_id"] = pad
    return stated


def _attribute(module: nn.Module, name: str) -> Any:
    """`getattr(module, name, None)`, without an exception for a name that is missing."""
    found = module.__dict__.get(name, _MISSING)
    if found is not _MISSING:
        return found
    return getattr(module, name, None) if name in _on_class(module) else None


def _on_class(module: nn.Module) -> frozenset[str]:
    """Which of the names looked for the module's classes define (as properties, say)."""
    on_class = _ON_CLASS.get(type(module))
    if on_class is None:
        on_class = _ON_CLASS[type(module)] = frozenset(
            name for name in (*LAYOUT_ATTRIBUTES, "config") for klass in type(module).__mro__ if name in vars(klass))
    return on_class


_MISSING = object()


def learn_names(model: nn.Module, paths: dict[int, str], named: dict[int, tuple[str, str]]) -> None:
    """Module paths, and ("param" | "buffer", name) of each tensor, the first name winning:
    what `named_modules`, `named_parameters` and `named_buffers` (remove_duplicate=False) give."""
    buffers: list[tuple[int, str]] = []
    stack = [("", model)]
    while stack:  # depth first, parents before children: named_modules' order
        path, module = stack.pop()
        paths.setdefault(id(module), path)
        prefix = f"{path}." if path else ""
        for name, tensor in module._parameters.items():
            if tensor is not None:
                named.setdefault(id(tensor), ("param", prefix + name))
        buffers += [(id(tensor), prefix + name) for name, tensor in module._buffers.items() if tensor is not None]
        stack += reversed([(prefix + name, child) for name, child in module._modules.items() if child is not None])
    for key, name in buffers:
        named.setdefault(key, ("buffer", name))
