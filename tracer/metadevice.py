"""Calls that cannot run on the meta device, and what the recorder runs instead.

A meta tensor has a shape and a dtype but no data. A model that copies a tensor to the CPU
(`.cpu()`, `.to("cpu")`, `mask.type(torch.ByteTensor)`) fails there with "Cannot copy out
of meta tensor", an artefact of the device, not a bug of the model's. The recorder runs
the same conversion without the copy: the result keeps the requested dtype and stays on
meta, and the report notes the line.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

# Ops that may copy their tensor to another device.
HOST_COPIES = frozenset({"cpu", "cuda", "to", "type"})


def on_meta(args: tuple) -> bool:
    return bool(args) and isinstance(args[0], torch.Tensor) and args[0].is_meta


def without_copy(op: str, args: tuple, kwargs: dict[str, Any]) -> Callable[..., Any] | None:
    """A stand-in for `op(*args, **kwargs)` on a meta tensor that would leave meta; None if
    the call stays on meta anyway (a dtype conversion, or `.type()` asking for the type name)."""
    dtype: torch.dtype | None
    if op in ("cpu", "cuda"):
        dtype = None
    elif op == "to":
        try:
            device, dtype, _, _ = torch._C._nn._parse_to(*args[1:], **kwargs)
        except (TypeError, RuntimeError):
            return None
        if device is None or device.type == "meta":
            return None
    else:  # type(dtype=None, non_blocking=False, **kwargs)
        spec = args[1] if len(args) > 1 else kwargs.get("dtype")
        if spec is None or isinstance(spec, torch.dtype):
            return None
        dtype = _legacy_dtype(spec)
        if dtype is None:
            return None
    return lambda tensor, *_, **__: tensor if dtype is None or dtype == tensor.dtype else tensor.to(dtype)


def _legacy_dtype(spec: Any) -> torch.dtype | None:
    """The dtype of a legacy tensor type: `torch.ByteTensor` or the string "torch.ByteTensor"."""
    if isinstance(spec, str):
        found: Any = torch
        for part in spec.split(".")[1:] if spec.startswith("torch.") else ():
            found = getattr(found, part, None)
        spec = found
    dtype = getattr(spec, "dtype", None)
    return dtype if isinstance(dtype, torch.dtype) else None
