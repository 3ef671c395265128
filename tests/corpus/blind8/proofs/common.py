import importlib.util, os, sys, json, math
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
os.makedirs(RESULTS, exist_ok=True)
torch.set_grad_enabled(False)
import warnings
warnings.filterwarnings("ignore")


def resolve(name):
    import glob
    if os.path.exists(os.path.join(ROOT, name + ".py")):
        return name + ".py"
    hits = glob.glob(os.path.join(ROOT, "s[0-9][0-9]_" + name + ".py"))
    assert len(hits) == 1, (name, hits)
    return os.path.basename(hits[0])


def load(name):
    fname = resolve(name)
    path = os.path.join(ROOT, fname)
    spec = importlib.util.spec_from_file_location(fname[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build(name):
    r = load(name).build()
    model, args = r[0], r[1]
    kwargs = r[2] if len(r) > 2 else {}
    return model, list(args), dict(kwargs)


def clone(x):
    if torch.is_tensor(x):
        return x.clone()
    if isinstance(x, (list, tuple)):
        return type(x)(clone(v) for v in x)
    if isinstance(x, dict):
        return {k: clone(v) for k, v in x.items()}
    return x


def run(name, args=None, kwargs=None, model_fn=None):
    """Rebuild the model with build() and run it on (possibly modified) args."""
    model, a0, k0 = build(name)
    if model_fn is not None:
        model_fn(model)
    a = a0 if args is None else args
    k = k0 if kwargs is None else kwargs
    with torch.no_grad():
        return model(*a, **k)


def default(name):
    _, a, k = build(name)
    return a, k


def md(a, b):
    a = a.double(); b = b.double()
    d = (a - b).abs()
    if torch.isnan(d).any():
        return float("nan")
    return d.max().item()


def nan_frac(x):
    return torch.isnan(x).float().mean().item()


def report(name, ok, **metrics):
    rec = {"name": name, "file": resolve(name), "ok": bool(ok), **metrics}
    print(json.dumps(rec))
    with open(os.path.join(RESULTS, name + ".json"), "w") as f:
        json.dump(rec, f)
    return rec


def causal_effect(name, tok_idx=0, time_dim=1, out_time_dim=1, vocab=None, get=lambda o: o,
                  positions=None, a=None, k=None):
    """Max over t of the change of outputs at positions <= t when inputs at positions > t change."""
    if a is None:
        a, k = default(name)
    base = get(run(name, clone(a), clone(k)))
    x = a[tok_idx]
    T = x.shape[time_dim]
    worst = 0.0
    g = torch.Generator().manual_seed(123)
    for t in (range(T - 1) if positions is None else positions):
        a2 = clone(a)
        xx = a2[tok_idx].movedim(time_dim, 0)
        if xx.dtype in (torch.long, torch.int):
            lo = 0 if vocab is None else vocab[0]
            hi = int(xx.max()) + 1 if vocab is None else vocab[1]
            xx[t + 1:] = torch.randint(lo, hi, xx[t + 1:].shape, generator=g)
        else:
            xx[t + 1:] = torch.randn(xx[t + 1:].shape, generator=g) * 3
        a2[tok_idx] = xx.movedim(0, time_dim)
        out = get(run(name, a2, clone(k)))
        sl = [slice(None)] * out.dim()
        sl[out_time_dim] = slice(0, t + 1)
        worst = max(worst, md(base[tuple(sl)], out[tuple(sl)]))
    return worst


def eval_repeat(name):
    a, k = default(name)
    o1 = run(name, clone(a), clone(k))
    o2 = run(name, clone(a), clone(k))
    return md(o1, o2)


def ref_attn(q_in, kv_in, wq, wk, wv, wo, H, keep=None, causal=False):
    """Reference multi-head attention with F.scaled_dot_product_attention.
    q_in (B,Tq,D), kv_in (B,Tk,D); keep: bool broadcastable to (B,H,Tq,Tk), True = attend."""
    import torch.nn.functional as F
    B, Tq, D = q_in.shape
    Tk = kv_in.shape[1]
    dh = D // H
    q = wq(q_in).view(B, Tq, H, dh).transpose(1, 2)
    k = wk(kv_in).view(B, Tk, H, dh).transpose(1, 2)
    v = wv(kv_in).view(B, Tk, H, dh).transpose(1, 2)
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=keep, is_causal=causal)
    o = o.transpose(1, 2).reshape(B, Tq, D)
    return wo(o) if wo is not None else o


def seeded_run(name, seed, args=None, kwargs=None):
    model, a0, k0 = build(name)
    a = a0 if args is None else args
    k = k0 if kwargs is None else kwargs
    torch.manual_seed(seed)
    with torch.no_grad():
        return model(*a, **k)
