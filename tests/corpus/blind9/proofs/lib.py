import importlib.util
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(name):
    path = os.path.join(ROOT, name + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build(name):
    r = load(name).build()
    if len(r) == 2:
        m, a = r
        kw = {}
    else:
        m, a, kw = r
    if not isinstance(a, (tuple, list)):
        a = (a,)
    return m, [x.clone() if torch.is_tensor(x) else x for x in a], dict(kw)


def first(o):
    if torch.is_tensor(o):
        return o
    if isinstance(o, dict) or hasattr(o, "keys"):
        for k in o.keys():
            v = o[k]
            if torch.is_tensor(v) and v.is_floating_point():
                return v
    if isinstance(o, (tuple, list)):
        for v in o:
            if torch.is_tensor(v) and v.is_floating_point():
                return v
        return first(o[0])
    raise TypeError(type(o))


def run(name, edit=None, pick=first):
    """Rebuild the model from build(), optionally edit args/kwargs, run once."""
    m, a, kw = build(name)
    if edit is not None:
        a, kw = edit(m, a, kw)
    with torch.no_grad():
        o = m(*a, **kw)
    return pick(o)


def perturb_like(x, where, seed=123, vocab=None):
    """Return copy of x with entries where `where` (bool, broadcastable over leading dims) replaced."""
    g = torch.Generator().manual_seed(seed)
    y = x.clone()
    if x.dtype in (torch.long, torch.int32, torch.int64):
        hi = vocab if vocab is not None else int(x.max().item()) + 1
        r = torch.randint(1, max(hi, 2), x.shape, generator=g)
    else:
        r = x + 3.0 * torch.randn(x.shape, generator=g)
    w = where
    while w.dim() < x.dim():
        w = w.unsqueeze(-1)
    w = w.expand_as(x)
    y[w] = r[w]
    return y


def maxdiff(a, b):
    a = a.double()
    b = b.double()
    if a.shape != b.shape:
        return float("inf")
    d = (a - b).abs()
    if torch.isnan(d).any():
        return float("nan")
    return d.max().item()


def causal_probe(name, idx=0, tpos=None, vocab=None, out_tdim=1, in_tdim=1, key=None, keep=None):
    """Perturb inputs at positions > t; max change of outputs at positions <= t, over t."""
    m, a, kw = build(name)
    x = kw[key] if key else a[idx]
    T = x.shape[in_tdim]
    base = run(name)
    worst = 0.0
    ts = range(T - 1) if tpos is None else tpos
    for t in ts:
        where = torch.zeros(x.shape[: in_tdim + 1], dtype=torch.bool)
        idxs = [slice(None)] * in_tdim + [slice(t + 1, None)]
        where[tuple(idxs)] = True

        def edit(m_, a_, kw_, t=t, where=where):
            if key:
                kw_[key] = perturb_like(kw_[key], where, seed=t, vocab=vocab)
            else:
                a_[idx] = perturb_like(a_[idx], where, seed=t, vocab=vocab)
            return a_, kw_

        o = run(name, edit)
        sl = [slice(None)] * out_tdim + [slice(0, t + 1)]
        if keep is not None:
            dd = (base.double() - o.double()).abs()
            k_ = keep
            while k_.dim() < dd.dim():
                k_ = k_.unsqueeze(-1)
            dd = dd * k_.expand_as(dd)
            d = dd[tuple(sl)].max().item()
        else:
            d = maxdiff(base[tuple(sl)], o[tuple(sl)])
        if d != d:
            return float("nan")
        worst = max(worst, d)
    return worst


def determinism(name, n=2, pick=first):
    """One build, n forward passes on the same model and inputs."""
    m, a, kw = build(name)
    outs = []
    with torch.no_grad():
        for _ in range(n):
            outs.append(pick(m(*a, **kw)))
    return max(maxdiff(outs[0], o) for o in outs[1:])


def rebuild_determinism(name, pick=first):
    """Two separate build() + forward runs."""
    return maxdiff(run(name, pick=pick), run(name, pick=pick))


def has_nan(name):
    o = run(name)
    return bool(torch.isnan(o).any().item()) or bool(torch.isinf(o).any().item())


def report(**kw):
    print("RESULT " + json.dumps(kw, default=float))
    return kw


def batch_probe(name, bdim_args=None, out_bdim=0):
    """Compare each sample run alone with its slice of the full-batch run."""
    m, a, kw = build(name)
    base = run(name)
    B = base.shape[out_bdim]
    worst = 0.0
    for i in range(B):
        def edit(m_, a_, kw_, i=i):
            def sl(x, d=0):
                if torch.is_tensor(x) and x.dim() > d and x.shape[d] == B:
                    return x.narrow(d, i, 1)
                return x
            if bdim_args is None:
                a_ = [sl(x) for x in a_]
                kw_ = {k: sl(v) for k, v in kw_.items()}
            else:
                a_ = [sl(x, d) if d is not None else x for x, d in zip(a_, bdim_args)]
            return a_, kw_
        o = run(name, edit)
        worst = max(worst, maxdiff(base.narrow(out_bdim, i, 1), o))
    return worst


def pad_probe(name, idx, padmask, vocab=None, keep=None, key=None, seed=7):
    """Perturb inputs where padmask True; return max change of output at positions `keep` (bool over out[:, :T]) or all."""
    base = run(name)

    def edit(m_, a_, kw_):
        if key:
            kw_[key] = perturb_like(kw_[key], padmask, seed=seed, vocab=vocab)
        else:
            a_[idx] = perturb_like(a_[idx], padmask, seed=seed, vocab=vocab)
        return a_, kw_

    o = run(name, edit)
    if keep is None:
        return maxdiff(base, o)
    d = (base.double() - o.double()).abs()
    while keep.dim() < d.dim():
        keep = keep.unsqueeze(-1)
    d = d * keep.expand_as(d)
    return d.max().item()


def trunc_probe(name, i, L, seq_args=(0,), seq_kwargs=("attention_mask",), pick=first, out_slice=True):
    """Run sample i alone truncated to its first L (real) tokens; compare with full padded batch run at those positions."""
    base = run(name, pick=pick)

    def edit(m_, a_, kw_):
        a_ = list(a_)
        for j in seq_args:
            a_[j] = a_[j][i:i + 1, :L]
        for k in seq_kwargs:
            if k in kw_ and kw_[k] is not None:
                kw_[k] = kw_[k][i:i + 1, :L]
        return a_, kw_

    o = run(name, edit, pick=pick)
    ref = base[i:i + 1, :L] if out_slice else base[i:i + 1]
    return maxdiff(ref, o)


def second(o):
    if isinstance(o, (tuple, list)):
        return o[1]
    return list(o.values())[1]


def load_patched(name, replacements):
    """Load the file's source with exact textual replacements (each must occur) as a separate module."""
    src = open(os.path.join(ROOT, name + ".py")).read()
    for old, new in replacements:
        assert src.count(old) >= 1, ("not found", old)
        src = src.replace(old, new)
    import types
    mod = types.ModuleType(name + "_fixed")
    mod.__file__ = os.path.join(ROOT, name + "_fixed.py")
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    return mod


def run_fixed(name, replacements, edit=None, pick=first):
    r = load_patched(name, replacements).build()
    m, a = r[0], r[1]
    kw = dict(r[2]) if len(r) > 2 else {}
    a = list(a) if isinstance(a, (tuple, list)) else [a]
    if edit is not None:
        a, kw = edit(m, a, kw)
    with torch.no_grad():
        o = m(*a, **kw)
    return pick(o)


def twin_diff(name, replacements, edit=None, pick=first, keep=None):
    """Max |buggy - fixed| with identical seeds/weights/inputs; also relative error."""
    b = run(name, edit, pick=pick)
    f = run_fixed(name, replacements, edit, pick=pick)
    if keep is not None:
        k_ = keep
        while k_.dim() < b.dim():
            k_ = k_.unsqueeze(-1)
        k_ = k_.expand_as(b)
        b, f = b[k_], f[k_]
    return maxdiff(b, f), ((b.double() - f.double()).norm() / f.double().norm()).item()


def fixed_name(name, replacements):
    """Write the patched source next to the proofs so every probe can be run on the fixed twin by name."""
    src = open(os.path.join(ROOT, name + ".py")).read()
    for old, new in replacements:
        assert old in src, ("not found", old)
        src = src.replace(old, new)
    d = os.path.join(ROOT, "proofs", "_fixed")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name + "__fixed.py"), "w").write(src)
    return "proofs/_fixed/" + name + "__fixed"
