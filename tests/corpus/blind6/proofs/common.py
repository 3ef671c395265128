"""Plain-torch helpers shared by the proofs of the blind6 set."""
import importlib.util
import math
import types
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
TOL = 1e-5      # an invariance holds if the max abs change stays below this (float32)
HARM = 1e-3     # a planted bug counts as harmful if the max abs change exceeds this

_modules = {}


def module(name):
    if name not in _modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _modules[name] = mod
    return _modules[name]


def fresh(name):
    """Rebuild the model (this also resets any cache/state) and return (model, args, kwargs)."""
    r = module(name).build()
    model, args = r[0], [a.clone() if torch.is_tensor(a) else a for a in r[1]]
    kwargs = {k: (v.clone() if torch.is_tensor(v) else v) for k, v in (r[2] if len(r) > 2 else {}).items()}
    return model, args, kwargs


def main_out(o):
    while isinstance(o, (tuple, list)):
        o = o[0]
    return o


def get(args, kwargs, sel):
    return kwargs[sel] if isinstance(sel, str) else args[sel]


def put(args, kwargs, sel, val):
    args, kwargs = list(args), dict(kwargs)
    if isinstance(sel, str):
        kwargs[sel] = val
    else:
        args[sel] = val
    return args, kwargs


@torch.no_grad()
def run(name, args=None, kwargs=None, pick=main_out, hook=None):
    """Fresh model each call, so cached state never carries over between runs."""
    model, a, k = fresh(name)
    if args is not None:
        a = args
    if kwargs is not None:
        k = kwargs
    if hook is not None:
        hook(model)
    return pick(model(*a, **k))


def mdiff(a, b):
    if a.numel() == 0:
        return 0.0
    return (a.float() - b.float()).abs().max().item()


_gen = torch.Generator().manual_seed(1234)


def change(x, where, vocab=None, low=0):
    """Replace x's content where `where` (a bool over x's leading dims) is True."""
    w = where
    while w.dim() < x.dim():
        w = w.unsqueeze(-1)
    w = w.expand_as(x)
    if x.dtype.is_floating_point:
        new = torch.randn(x.shape, generator=_gen) * 2.0
    else:
        span = vocab - low
        r = torch.randint(1, span, x.shape, generator=_gen)
        new = low + torch.remainder(x - low + r, span)
    return torch.where(w, new.to(x.dtype), x)


def time_mask(shape_bt, t, after=True, time_dim=1):
    """bool over (B, T) (or (T, B) with time_dim=0): positions > t (after) or <= t."""
    T = shape_bt[time_dim]
    ar = torch.arange(T)
    m = ar > t if after else ar <= t
    return m[None, :].expand(shape_bt) if time_dim == 1 else m[:, None].expand(shape_bt)


def causal_scan(name, sel, vocab=None, low=0, time_in=1, time_out=1, ts=None, pick=main_out, rows=None):
    """For each t: change every input position > t, measure the max change of outputs at <= t."""
    a, k = fresh(name)[1:]
    x = get(a, k, sel)
    base = run(name, a, k, pick)
    T = x.shape[time_in]
    worst, worst_t = 0.0, None
    per_t = {}
    for t in (ts if ts is not None else range(T - 1)):
        m = time_mask(x.shape[:2], t, after=True, time_dim=time_in)
        if rows is not None:
            keep = torch.zeros(x.shape[1 - time_in], dtype=torch.bool)
            keep[rows] = True
            m = m & (keep[:, None] if time_in == 1 else keep[None, :])
        a2, k2 = put(a, k, sel, change(x, m, vocab, low))
        out = run(name, a2, k2, pick)
        d = mdiff(base.narrow(time_out, 0, t + 1), out.narrow(time_out, 0, t + 1))
        per_t[t] = d
        if d > worst:
            worst, worst_t = d, t
    return worst, worst_t, per_t


def single_future_token(name, sel, t, vocab=None, low=0, time_in=1, time_out=1, pick=main_out, offset=1):
    """Change only position t + offset; return max change of outputs at <= t."""
    a, k = fresh(name)[1:]
    x = get(a, k, sel)
    base = run(name, a, k, pick)
    T = x.shape[time_in]
    m = torch.zeros(T, dtype=torch.bool)
    m[t + offset] = True
    m = m[None, :].expand(x.shape[:2]) if time_in == 1 else m[:, None].expand(x.shape[:2])
    a2, k2 = put(a, k, sel, change(x, m, vocab, low))
    out = run(name, a2, k2, pick)
    return mdiff(base.narrow(time_out, 0, t + 1), out.narrow(time_out, 0, t + 1))


def batch_effect(name, sels, vocabs=None, lows=None, batch_in=0, batch_out=0, pick=main_out, src=1, dst=0):
    """Change every input of sample `src`; return the max change of sample `dst`'s output."""
    a, k = fresh(name)[1:]
    base = run(name, a, k, pick)
    a2, k2 = a, k
    for i, sel in enumerate(sels):
        x = get(a2, k2, sel)
        m = torch.zeros(x.shape[batch_in], dtype=torch.bool)
        m[src] = True
        where = m if batch_in == 0 else m[None, :].expand(x.shape[:2])
        v = vocabs[i] if vocabs else None
        lo = lows[i] if lows else 0
        a2, k2 = put(a2, k2, sel, change(x, where, v, lo))
    out = run(name, a2, k2, pick)
    return mdiff(base.select(batch_out, dst), out.select(batch_out, dst)), mdiff(base.select(batch_out, src), out.select(batch_out, src))


def pad_effect(name, sel, pad, real_out, vocab=None, low=0, pick=main_out):
    """Change input content where `pad` is True; return max change of outputs selected by real_out (bool)."""
    a, k = fresh(name)[1:]
    x = get(a, k, sel)
    base = run(name, a, k, pick)
    a2, k2 = put(a, k, sel, change(x, pad, vocab, low))
    out = run(name, a2, k2, pick)
    if real_out is None:
        return mdiff(base, out)
    w = real_out
    while w.dim() < base.dim():
        w = w.unsqueeze(-1)
    w = w.expand_as(base)
    return mdiff(base[w], out[w])


@torch.no_grad()
def two_passes(name):
    model, a, k = fresh(name)
    o1 = main_out(model(*a, **k)).clone()
    o2 = main_out(model(*a, **k)).clone()
    return mdiff(o1, o2)


def patch(model, cls_name, fn):
    """Replace forward of every submodule whose class is named cls_name with fn(self, *args)."""
    n = 0
    for m in model.modules():
        if type(m).__name__ == cls_name:
            m.forward = types.MethodType(fn, m)
            n += 1
    assert n > 0, cls_name
    return model


def ref_diff(name, cls_name, fn, pick=main_out):
    a, k = fresh(name)[1:]
    base = run(name, a, k, pick)
    ref = run(name, a, k, pick, hook=lambda m: patch(m, cls_name, fn))
    return mdiff(base, ref), base.abs().max().item()


def manual_mha(mha, query, key, value, key_padding_mask=None):
    """Reference for nn.MultiheadAttention (batch_first or not), key_padding_mask True = ignore."""
    if not mha.batch_first:
        query, key, value = (t.transpose(0, 1) for t in (query, key, value))
    B, L, E = query.shape
    S = key.shape[1]
    H = mha.num_heads
    wq, wk, wv = mha.in_proj_weight.chunk(3)
    bq, bk, bv = mha.in_proj_bias.chunk(3)
    q = F.linear(query, wq, bq).view(B, L, H, -1).transpose(1, 2)
    k = F.linear(key, wk, bk).view(B, S, H, -1).transpose(1, 2)
    v = F.linear(value, wv, bv).view(B, S, H, -1).transpose(1, 2)
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if key_padding_mask is not None:
        s = s.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
    o = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, L, E)
    o = mha.out_proj(o)
    return o if mha.batch_first else o.transpose(0, 1)
