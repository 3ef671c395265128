"""Shared helpers for the blind21 proofs.

Each proof loads a model file (optionally with exact (old, new) source substitutions = the FIX),
calls its build(), and measures invariants by perturbing inputs and comparing outputs.
"""
import math
import os
import types

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOL = 1e-5


def source(name):
    with open(os.path.join(ROOT, name + ".py")) as f:
        return f.read()


def load(name, subs=None):
    src = source(name)
    for old, new in subs or []:
        n = src.count(old)
        assert n == 1, f"{name}: fix substring occurs {n} times: {old!r}"
        src = src.replace(old, new)
    mod = types.ModuleType(name)
    mod.__file__ = os.path.join(ROOT, name + ".py")
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    return mod


def build(mod):
    r = mod.build()
    model, args = r[0], tuple(r[1])
    kw = dict(r[2]) if len(r) > 2 else {}
    return model, args, kw


def to_tensor(o):
    if isinstance(o, torch.Tensor):
        return o
    if hasattr(o, "logits") and getattr(o, "logits", None) is not None:
        return o.logits
    if hasattr(o, "last_hidden_state") and getattr(o, "last_hidden_state", None) is not None:
        return o.last_hidden_state
    if isinstance(o, dict):
        return to_tensor(next(iter(o.values())))
    if isinstance(o, (tuple, list)):
        return to_tensor(o[0])
    raise TypeError(type(o))


def run(model, args, kw, pick=None):
    with torch.no_grad():
        o = model(*args, **kw)
    return pick(o) if pick else to_tensor(o)


def clone(x):
    if isinstance(x, torch.Tensor):
        return x.clone()
    if isinstance(x, (tuple, list)):
        return type(x)(clone(v) for v in x)
    if isinstance(x, dict):
        return {k: clone(v) for k, v in x.items()}
    return x


def get(args, kw, key):
    if isinstance(key, int):
        return args[key]
    if isinstance(key, tuple):  # nested: (argkey, index)
        return get(args, kw, key[0])[key[1]]
    return kw[key]


def put(args, kw, key, val):
    args = list(args)
    if isinstance(key, int):
        args[key] = val
    elif isinstance(key, tuple):
        outer = list(get(args, kw, key[0]))
        outer[key[1]] = val
        args, kw = put(args, kw, key[0], tuple(outer))
        return tuple(args), kw
    else:
        kw = dict(kw)
        kw[key] = val
    return tuple(args), kw


def maxdiff(a, b):
    a = a.detach().float()
    b = b.detach().float()
    if not (torch.isfinite(a).all() and torch.isfinite(b).all()):
        return float("nan")
    return (a - b).abs().max().item() if a.numel() else 0.0


# ---------------------------------------------------------------- perturbations
def perturb(key, where, low=None, high=None, seed=123):
    """Replace entries of input `key` where where(args, kw) is True (bool, broadcast over trailing dims).
    Integer inputs get random ids in [low, high), float inputs get fresh N(0,1)."""

    def f(args, kw):
        x = get(args, kw, key).clone()
        m = where(args, kw)
        while m.dim() < x.dim():
            m = m.unsqueeze(-1)
        m = m.expand_as(x)
        g = torch.Generator().manual_seed(seed)
        if x.dtype.is_floating_point:
            noise = torch.randn(x.shape, generator=g, dtype=x.dtype) * 2.0
        else:
            noise = torch.randint(low, high, x.shape, generator=g, dtype=x.dtype)
        x = torch.where(m, noise, x)
        return put(args, kw, key, x)

    return f


def chain(*fs):
    def f(args, kw):
        for g in fs:
            args, kw = g(args, kw)
        return args, kw

    return f


def after(key, t, dim=1):
    """positions > t along `dim` of input `key` (mask over the first dim+1 axes)"""

    def w(args, kw):
        x = get(args, kw, key)
        shape = x.shape[: dim + 1]
        idx = torch.arange(shape[dim]).view([1] * dim + [-1])
        return (idx > t).expand(shape)

    return w


def where_eq(key, value, other=None):
    """positions where input `key` == value (e.g. pad id, or mask == 0); shape of that input"""

    def w(args, kw):
        return get(args, kw, key) == value

    return w


def sample(key, i, lead=1):
    """all entries of sample i (batch axis 0) of input `key`"""

    def w(args, kw):
        x = get(args, kw, key)
        m = torch.zeros(x.shape[:lead], dtype=torch.bool)
        m[i] = True
        return m

    return w


def both(w1, w2):
    def w(a, k):
        x, y = w1(a, k), w2(a, k)
        while x.dim() < y.dim():
            x = x.unsqueeze(-1)
        while y.dim() < x.dim():
            y = y.unsqueeze(-1)
        return x & y

    return w


# ---------------------------------------------------------------- proof driver
def measure(name, subs, pert, region, pick, mpert=None):
    model, args, kw = build(load(name, subs))
    o1 = run(model, args, kw, pick)
    a2, k2 = pert(clone(args), clone(kw))
    if mpert is not None:  # blind15: a perturbation of the model's padding content (e.g. the pad embedding row)
        with torch.no_grad():
            mpert(model)
    o2 = run(model, a2, k2, pick)
    return maxdiff(region(o1, args, kw), region(o2, args, kw))


def basic(name, subs, pick):
    model, args, kw = build(load(name, subs))
    o1 = run(model, args, kw, pick)
    o2 = run(model, args, kw, pick)
    return o1, bool(torch.isfinite(o1).all()), maxdiff(o1, o2) if torch.isfinite(o1).all() else float("nan")


def _small(v):
    return v is not None and not math.isnan(v) and v < TOL


def _big(v, thr=1e-4):
    return v is not None and (math.isnan(v) or v > thr)


def rnd(v):
    if isinstance(v, float) and not math.isnan(v) and not math.isinf(v):
        return float(f"{v:.3g}")
    return v if not isinstance(v, float) else str(v)


def prove(name, verdict, harm=None, fix=None, checks=None, pick=None, ref=None, note="", label=None):
    checks = checks or {}
    res = {"verdict": verdict, "harm": harm, "fix": [list(p) for p in (fix or [])], "note": note}
    o, fin, rep = basic(name, None, pick)
    res["finite"] = fin
    res["eval_repeat_diff"] = rep
    for kind, (pert, region, *mp) in checks.items():
        res[f"{kind}_diff"] = measure(name, None, pert, region, pick, *mp)
    if ref:
        res["ref_diff"] = ref(load(name))
    ok = True
    why = []
    if verdict == "buggy":
        assert fix, name
        of, ffin, frep = basic(name, fix, pick)
        res["fixed_finite"] = ffin
        res["fixed_eval_repeat_diff"] = frep
        if not fin and ffin:
            res["fix_output_diff"] = float("inf")
        else:
            res["fix_output_diff"] = maxdiff(o, of) if o.shape == of.shape else float("inf")
        if not _big(res["fix_output_diff"]):
            ok = False; why.append("fix does not change output")
        for kind, (pert, region, *mp) in checks.items():
            v = measure(name, fix, pert, region, pick, *mp)
            res[f"fixed_{kind}_diff"] = v
            if not _small(v):
                ok = False; why.append(f"fixed {kind} invariant fails")
        if ref:
            res["fixed_ref_diff"] = ref(load(name, fix))
            if not (res["fixed_ref_diff"] < 1e-4):
                ok = False; why.append("fixed ref fails")
        if not ffin or not _small(frep):
            ok = False; why.append("fixed not finite/deterministic")
        # harm must be visible in the buggy version
        if harm in ("causal", "padding", "batch"):
            if not _big(res.get(f"{harm}_diff")):
                ok = False; why.append(f"harm {harm} not measured")
        elif harm == "random":
            if not _big(rep):
                ok = False; why.append("not random")
        elif harm == "nan":
            if fin:
                ok = False; why.append("no nan")
        elif harm in ("axis", "numeric"):
            if ref and not _big(res["ref_diff"]):
                ok = False; why.append("ref agrees")
    else:
        if not fin:
            ok = False; why.append("not finite")
        if not _small(rep):
            ok = False; why.append("eval passes differ")
        for kind in checks:
            if not _small(res[f"{kind}_diff"]):
                ok = False; why.append(f"{kind} invariant fails")
        if ref and not (res["ref_diff"] < 1e-4):
            ok = False; why.append("ref disagrees")
    res["ok"] = ok
    if why:
        res["failures"] = why
    res = {k: rnd(v) if isinstance(v, float) else v for k, v in res.items()}
    res["label"] = label or {}
    return res


# ---------------------------------------------------------------- regions
def real(key, keep=1, dim_out=None):
    """output rows at real positions: mask input `key` == keep (out indexed by the mask's shape)"""
    return lambda o, a, k: o[get(a, k, key) == keep]


def upto(t, dim=1):
    return lambda o, a, k: o.narrow(dim, 0, t + 1)


def samp(i):
    return lambda o, a, k: o[i]


def whole():
    return lambda o, a, k: o


def upto_real(t, key, keep=1):
    """positions <= t that are real according to mask input `key` [B, T]"""
    return lambda o, a, k: o[:, : t + 1][get(a, k, key)[:, : t + 1] == keep]


# ---------------------------------------------------------------- references (blind12 additions)
def _slice(x, B, T, i, keep):
    """sample i of a batch-first tensor; positions `keep` (a slice) of axis 1 when it has length T"""
    if isinstance(x, torch.Tensor) and x.dim() >= 1 and x.size(0) == B:
        x = x[i:i + 1]
        if keep is not None and x.dim() >= 2 and x.size(1) == T:
            x = x[:, keep]
        return x
    if isinstance(x, (tuple, list)):
        return type(x)(_slice(v, B, T, i, keep) for v in x)
    if isinstance(x, dict):
        return {k: _slice(v, B, T, i, keep) for k, v in x.items()}
    return x


def solo(i, n=None, left=False, pooled=False, B=None, T=None, pick=None, time_dim=1):
    """ref: sample i run alone (cut to its n real positions, right or left padded) must give the
    same outputs as in the padded batch. Catches padding, batch and position mistakes at once."""

    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw, pick)
        b = B or full.size(0)
        # the padded length: the output's time axis, or for pooled outputs the first input's axis 1
        t = T or (full.size(time_dim) if not pooled else next(x.size(1) for x in args if isinstance(x, torch.Tensor) and x.dim() >= 2))
        keep = None if n is None else (slice(-n, None) if left else slice(0, n))
        a1, k1 = _slice(tuple(args), b, t, i, keep), _slice(dict(kw), b, t, i, keep)
        one = run(model, a1, k1, pick)
        mine = full[i:i + 1]
        if keep is not None and not pooled:
            mine = mine.narrow(time_dim, full.size(time_dim) - n, n) if left else mine.narrow(time_dim, 0, n)
        return maxdiff(mine, one) if mine.shape == one.shape else float("inf")

    return ref


def refs(*fs):
    """several references: the largest difference counts"""

    def ref(mod):
        vals = [f(mod) for f in fs]
        return float("nan") if any(math.isnan(v) for v in vals) else max(vals)

    return ref


# ---------------------------------------------------------------- blind13 additions
def solo_cut(i, cuts, pick=None, out_cut=None):
    """ref: sample i run alone, with the inputs named in `cuts` ({key: n}) cut to their first n
    positions along axis 1 (where the pad mask is derived from the ids themselves, so padded
    positions cannot be perturbed without turning them into real tokens). The output of sample i
    in the batch (cut to its first out_cut positions along axis 1 if given) must be the same."""

    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw, pick)
        B = full.size(0)

        def one(x):
            return x[i:i + 1] if isinstance(x, torch.Tensor) and x.dim() >= 1 and x.size(0) == B else x

        a1 = [one(x) for x in args]
        k1 = {k: one(v) for k, v in kw.items()}
        for key, n in cuts.items():
            a1, k1 = put(tuple(a1), k1, key, get(tuple(a1), k1, key)[:, :n])
        one_out = run(model, tuple(a1), k1, pick)
        mine = full[i:i + 1]
        if out_cut is not None:
            mine = mine[:, :out_cut]
        return maxdiff(mine, one_out) if mine.shape == one_out.shape else float("inf")

    return ref


# ---------------------------------------------------------------- blind14 additions
def module_ref(get_module, reference):
    """ref: run the model, capture each call of the submodule `get_module(model)` (its inputs and
    output), and compare the output with `reference(module, *inputs)` computed independently."""

    def ref(mod):
        model, args, kw = build(mod)
        sub = get_module(model)
        calls = []
        h = sub.register_forward_hook(lambda m, i, o: calls.append((tuple(x.detach() if isinstance(x, torch.Tensor) else x for x in i), o)))
        try:
            run(model, args, kw, lambda o: o)
        finally:
            h.remove()
        assert calls, "module_ref: the submodule was never called"
        worst = 0.0
        with torch.no_grad():
            for inputs, out in calls:
                d = maxdiff(to_tensor(out), reference(sub, *inputs))
                if math.isnan(d):
                    return float("nan")
                worst = max(worst, d)
        return worst

    return ref


def spy_call(owner, attr, keep):
    """context manager: while active, owner.attr is wrapped and keep(args, kwargs) is called on each call"""

    class _Spy:
        def __enter__(self):
            self.orig = getattr(owner, attr)
            orig = self.orig

            def wrapped(*a, **k):
                keep(a, k)
                return orig(*a, **k)

            setattr(owner, attr, wrapped)
            return self

        def __exit__(self, *exc):
            setattr(owner, attr, self.orig)

    return _Spy()


# ---------------------------------------------------------------- blind15 additions
def keep(args, kw):
    """no input change (used with a model perturbation)"""
    return args, kw


def pad_row(get_emb, idx, seed=7):
    """model perturbation: overwrite embedding row `idx` (the padding id's vector) with random values,
    i.e. change only what the padded positions contain"""

    def f(model):
        emb = get_emb(model)
        g = torch.Generator().manual_seed(seed)
        emb.weight[idx] = torch.randn(emb.weight.shape[1:], generator=g) * 2.0

    return f


def perturb_cols(key, where, cols, seed=123):
    """like perturb, for float inputs, but only the trailing-axis entries in `cols` (a slice)"""

    def f(args, kw):
        x = get(args, kw, key).clone()
        m = where(args, kw)
        g = torch.Generator().manual_seed(seed)
        noise = torch.randn(x.shape, generator=g, dtype=x.dtype) * 2.0
        sub = x[..., cols]
        mm = m
        while mm.dim() < sub.dim():
            mm = mm.unsqueeze(-1)
        x[..., cols] = torch.where(mm.expand_as(sub), noise[..., cols], sub)
        return put(args, kw, key, x)

    return f
