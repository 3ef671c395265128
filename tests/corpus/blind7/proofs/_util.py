"""Shared helpers for the blind7 label proofs (plain torch only)."""
import importlib.util
import json
import math
import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def load(name):
    path = os.path.join(ROOT, name if name.endswith(".py") else name + ".py")
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fresh(name):
    """Rebuild the model from build(): returns (model, list(args), dict(kwargs))."""
    r = load(name).build()
    model, args = r[0], r[1]
    kwargs = r[2] if len(r) > 2 else {}
    assert not model.training, "model must be in eval mode"
    return model, [a.clone() if torch.is_tensor(a) else a for a in args], dict(kwargs)


def first_tensor(y):
    while isinstance(y, (tuple, list)):
        y = y[0]
    return y


def call(model, args, kwargs=None):
    with torch.no_grad():
        return first_tensor(model(*args, **(kwargs or {})))


def run(name, mutate=None):
    """Fresh build, optionally mutate args in place (mutate(args, kwargs)), run, return (output, args, kwargs)."""
    model, args, kwargs = fresh(name)
    if mutate is not None:
        mutate(args, kwargs)
    return call(model, args, kwargs), args, kwargs


def md(a, b):
    """max abs difference; nan-aware (returns inf if nan pattern differs)."""
    a = a.detach().double()
    b = b.detach().double()
    na, nb = torch.isnan(a), torch.isnan(b)
    if not torch.equal(na, nb):
        return float("inf")
    d = (a - b).abs()
    d = d[~na]
    return d.max().item() if d.numel() else 0.0


class Report:
    def __init__(self, name, label):
        self.name = name
        self.label = label
        self.checks = []
        self.ok = True

    def check(self, desc, value, cond, expect):
        """expect: 'harm' (value must show the harm) or 'inv' (invariant must hold)."""
        passed = bool(cond)
        self.ok &= passed
        self.checks.append({"check": desc, "value": value, "kind": expect, "pass": passed})
        print(f"[{'PASS' if passed else 'FAIL'}] {self.name}: {desc}: {value:.3e}" if isinstance(value, float)
              else f"[{'PASS' if passed else 'FAIL'}] {self.name}: {desc}: {value}")

    def harm(self, desc, value, thresh=1e-4):
        self.check(desc, value, value > thresh or (isinstance(value, float) and math.isnan(value)), "harm")

    def inv(self, desc, value, tol=1e-6):
        self.check(desc, value, value <= tol, "inv")

    def done(self):
        os.makedirs(RESULTS, exist_ok=True)
        with open(os.path.join(RESULTS, self.name + ".json"), "w") as f:
            json.dump({"file": self.name + ".py", "label": self.label, "ok": self.ok, "checks": self.checks}, f, indent=1)
        print(f"== {self.name} label={self.label} confirmed={self.ok}")
        if not self.ok:
            sys.exit(1)


def perturb_tail(t, dim, start, seed=123, scale=3.0):
    """Replace positions start: along dim (after batch) with fresh random values (float) or ids (long)."""
    g = torch.Generator().manual_seed(seed)
    idx = [slice(None)] * t.dim()
    idx[dim] = slice(start, None)
    sub = t[tuple(idx)]
    if t.dtype in (torch.long, torch.int32, torch.int64):
        hi = int(t.max().item()) + 1
        new = (sub + 1 + torch.randint(0, max(hi - 1, 1), sub.shape, generator=g)) % max(hi, 2)
    else:
        new = torch.randn(sub.shape, generator=g) * scale
    t[tuple(idx)] = new


def causal_probe(name, arg_i, time_dim, out_time_dim, ts, rep):
    """For each t in ts: change arg positions > t, compare outputs at <= t. Returns max diff per t."""
    base, _, _ = run(name)
    res = {}
    for t in ts:
        def mut(a, k, t=t):
            perturb_tail(a[arg_i], time_dim, t + 1)
        y, _, _ = run(name, mut)
        sl = [slice(None)] * base.dim()
        sl[out_time_dim] = slice(0, t + 1)
        res[t] = md(base[tuple(sl)], y[tuple(sl)])
    return res


def batch_probe(name, arg_is, src=1, dst=0):
    """Change sample `src` of the given args; return max diff of output sample `dst`."""
    base, _, _ = run(name)

    def mut(a, k):
        for i in arg_is:
            sub = a[i][src:src + 1]
            if a[i].dtype.is_floating_point:
                a[i][src] = torch.randn(sub.shape[1:], generator=torch.Generator().manual_seed(7)) * 2
            else:
                perturb_tail(a[i][src:src + 1], 1, 0)
    y, _, _ = run(name, mut)
    return md(base[dst], y[dst])


def shift_samples(args, which):
    return args
