"""Canonical op names: `F.softmax`, `torch.softmax` and `Tensor.softmax` are all "softmax".

Later stages dispatch on these names, so each spelling of an op must map to one name here
and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from torch.overrides import resolve_name

# Calls that only ask about a tensor (its size, dtype, ...) and produce no new value.
QUERIES = frozenset(
    {
        "size", "dim", "ndimension", "numel", "nelement", "stride", "storage_offset",
        "is_contiguous", "is_floating_point", "is_complex", "is_signed", "data_ptr",
        "element_size", "item", "tolist", "get_device", "__len__", "__bool__", "__int__",
        "__float__", "__index__", "__format__", "__repr__", "__str__", "__hash__",
        "__iter__", "__reversed__", "__contains__", "__array__", "__reduce_ex__",
        "__deepcopy__", "__dlpack__", "__dlpack_device__", "has_names", "is_shared",
        "is_pinned", "is_set_to", "untyped_storage", "storage", "_is_view", "equal",
        "register_hook", "backward", "retain_grad", "requires_grad_", "_set_grad_enabled",
        "__eq__.__bool__",
    }
)

# Dunder spellings of arithmetic and indexing, to their plain names.
DUNDER_ALIASES = {
    "matmul": "matmul", "rmatmul": "rmatmul", "add": "add", "radd": "add", "sub": "sub",
    "rsub": "rsub", "mul": "mul", "rmul": "mul", "truediv": "div", "rtruediv": "rdiv",
    "div": "div", "rdiv": "rdiv", "floordiv": "floor_divide", "rfloordiv": "rfloor_divide",
    "pow": "pow", "rpow": "rpow", "mod": "remainder", "neg": "neg", "abs": "abs",
    "getitem": "getitem", "setitem": "setitem", "and": "logical_and_bitwise",
    "or": "logical_or_bitwise", "xor": "logical_xor_bitwise", "invert": "bitwise_not",
    "lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "eq": "eq", "ne": "ne",
}

# Other spellings of one op.
ALIASES = {
    "true_divide": "div", "divide": "div", "multiply": "mul", "subtract": "sub",
    "mT": "transpose", "T": "transpose", "mH": "transpose", "H": "transpose",
    "swapaxes": "transpose", "swapdims": "transpose", "moveaxis": "movedim",
    "concat": "cat", "concatenate": "cat", "greater": "gt", "less": "lt",
    "greater_equal": "ge", "less_equal": "le", "not_equal": "ne", "absolute": "abs",
    "clip": "clamp", "fix": "trunc", "negative": "neg", "arccos": "acos",
}

# In-place Python operators: `x += y` is `add` in place.
INPLACE_DUNDERS = frozenset(
    {"iadd", "isub", "imul", "itruediv", "idiv", "ifloordiv", "ipow", "imod", "iand",
     "ior", "ixor", "imatmul", "setitem"}
)


@dataclass(frozen=True, slots=True)
class OpName:
    """How one intercepted callable is recorded."""

    op: str  # canonical name, e.g. "softmax"
    target: str  # fully qualified name, e.g. "torch.nn.functional.softmax"
    inplace: bool
    query: bool  # a question about a tensor, not an op: never recorded


@lru_cache(maxsize=None)
def op_name(func: Callable) -> OpName:
    """Classify `func` once; the recorder calls this for every intercepted call."""
    target = resolve_name(func) or getattr(func, "__qualname__", None) or repr(func)
    short = target.rsplit(".", 1)[-1]
    if short == "__get__":  # property access: torch.Tensor.mT.__get__
        short = target.rsplit(".", 2)[-2]
        is_query = short not in ALIASES and short not in ("real", "imag", "data", "grad")
        return OpName(ALIASES.get(short, short), target, False, is_query)
    if short in QUERIES:
        return OpName(short, target, False, True)
    inplace = False
    if short.startswith("__") and short.endswith("__"):
        bare = short[2:-2]
        if bare in INPLACE_DUNDERS:
            inplace = True
            bare = bare if bare == "setitem" else bare[1:]
        canonical = DUNDER_ALIASES.get(bare, bare)
    elif short.endswith("_") and not short.startswith("_"):
        inplace = True
        canonical = short[:-1]
    else:
        canonical = short
    return OpName(ALIASES.get(canonical, canonical), target, inplace, False)
