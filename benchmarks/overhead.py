"""Tracing overhead: `tracer.check` (record + axes + blocks + checks) against the untraced forward.

    .venv/bin/python benchmarks/overhead.py            # all models
    .venv/bin/python benchmarks/overhead.py --only bert --repeat 5

Prints, per model: the untraced forward time, the checked time and their ratio, measured in
the same process (one thread by default, the minimum over the runs, wall and CPU time: the
machine is shared, and the minimum CPU time moves least); peak resident memory of a fresh
process during each (and how much the forward itself added to what the built model held);
and, where it is installed, the same forward under torchlens (`torchlens.trace`). Figures
only: nothing here is asserted, and the tests never time anything.
`benchmarks/per_op.py` splits the checked time into its stages, per op.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from typing import Callable

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tracer  # noqa: E402
from models.reference import EncoderDecoderTransformer, TransformerEncoder  # noqa: E402

Workload = tuple[torch.nn.Module, tuple, dict]


def tiny_encoder() -> Workload:
    model = TransformerEncoder(num_layers=2, d_model=32, num_heads=4, d_ff=64)
    return model, (torch.randn(4, 16, 32),), {}


def bert_base() -> Workload:
    """BERT-base sizes: 12 layers, d=768, H=12, T=128, batch 8 (HuggingFace's if installed)."""
    try:
        import transformers

        transformers.utils.logging.set_verbosity_error()
        config = transformers.BertConfig(attn_implementation="eager")
        ids = torch.randint(1000, 20000, (8, 128))
        return transformers.BertModel(config), (), {"input_ids": ids, "attention_mask": torch.ones_like(ids)}
    except ImportError:
        model = TransformerEncoder(num_layers=12, d_model=768, num_heads=12, d_ff=3072)
        return model, (torch.randn(8, 128, 768),), {}


def encoder_decoder_4() -> Workload:
    model = EncoderDecoderTransformer(src_vocab=1000, tgt_vocab=1000, d_model=256, num_heads=8, d_ff=1024,
                                      num_layers=4, max_len=128)
    src, tgt = torch.randint(1, 1000, (8, 64)), torch.randint(1, 1000, (8, 48))
    return model, (src, tgt), {}


MODELS: dict[str, Callable[[], Workload]] = {
    "tiny": tiny_encoder, "bert": bert_base, "encdec4": encoder_decoder_4,
}


def timed(function: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Minimum over `repeat` runs after a warm-up: other jobs only ever add time. `time.process_time`
    (CPU seconds of this process, all threads) is the steadier clock on a busy machine."""
    function()  # warm-up
    samples = []
    for _ in range(repeat):
        start = clock()
        function()
        samples.append(clock() - start)
    return min(samples)


def resident_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_during(function: Callable[[], object]) -> tuple[float, float]:
    """(resident MiB before, peak resident MiB while `function` runs), polled every millisecond."""
    import threading

    before, peak, done = resident_mib(), [resident_mib()], threading.Event()

    def poll() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], resident_mib())
            time.sleep(0.001)

    watcher = threading.Thread(target=poll)
    watcher.start()
    try:
        function()
    finally:
        done.set()
        watcher.join()
    return before, max(peak[0], resident_mib())


def peak_rss_mib(name: str, mode: str) -> tuple[float, float]:
    """(resident MiB with the model built, peak MiB during one forward) in a fresh process."""
    code = (
        "import sys, gc, torch; sys.path.insert(0, %r); import benchmarks.overhead as b; import tracer\n"
        "torch.manual_seed(0); m, a, k = b.MODELS[%r](); m.eval(); gc.collect()\n"
        "with torch.no_grad():\n"
        "    run = (lambda: tracer.check(m, *a, **k)) if %r == 'traced' else (lambda: m(*a, **k))\n"
        "    print(*b.peak_during(run))"
    ) % (ROOT, name, mode)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, peak = out.stdout.strip().splitlines()[-1].split()
    return float(before), float(peak)


def torchlens_time(name: str, repeat: int) -> float | None:
    """torchlens's forward logging (`torchlens.trace`, its defaults) in a fresh process: it wraps
    torch's functions globally, which would slow every later measurement in this one."""
    code = (
        "import sys, torch; sys.path.insert(0, %r); import benchmarks.overhead as b\n"
        "torch.set_num_threads(%d)\n"
        "try:\n    import torchlens\nexcept ImportError:\n    print('absent'); raise SystemExit\n"
        "torch.manual_seed(0); m, a, k = b.MODELS[%r](); m.eval()\n"
        "with torch.no_grad():\n"
        "    print(b.timed(lambda: torchlens.trace(m, list(a) or None, input_kwargs=k or None), %d))"
    ) % (ROOT, torch.get_num_threads(), name, repeat)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines or lines[-1] == "absent":
        if out.returncode != 0:
            print(f"  torchlens failed on {name}: {(out.stderr.strip().splitlines() or ['?'])[-1][:160]}")
        return None
    return float(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(MODELS), action="append")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory subprocesses")
    parser.add_argument("--threads", type=int, default=1, help="torch's intra-op threads (default 1)")
    options = parser.parse_args()
    torch.set_num_threads(options.threads)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads")
    results = {}
    for name in options.only or MODELS:
        torch.manual_seed(0)
        model, args, kwargs = MODELS[name]()
        model.eval()
        with torch.no_grad():
            plain = timed(lambda: model(*args, **kwargs), options.repeat)
            checked = timed(lambda: tracer.check(model, *args, **kwargs), options.repeat)
            plain_cpu = timed(lambda: model(*args, **kwargs), options.repeat, time.process_time)
            checked_cpu = timed(lambda: tracer.check(model, *args, **kwargs), options.repeat, time.process_time)
        peer = torchlens_time(name, options.repeat)
        row = {"untraced_s": plain, "checked_s": checked, "ratio": checked / plain,
               "untraced_cpu_s": plain_cpu, "checked_cpu_s": checked_cpu, "cpu_ratio": checked_cpu / plain_cpu}
        if peer is not None:
            row |= {"torchlens_s": peer, "torchlens_over_attnscope": peer / checked}
        if not options.no_memory:
            (base_u, untraced_mib), (base_t, traced_mib) = peak_rss_mib(name, "untraced"), peak_rss_mib(name, "traced")
            row |= {"peak_untraced_mib": untraced_mib, "peak_traced_mib": traced_mib,
                    "peak_ratio": traced_mib / untraced_mib,
                    "forward_growth_untraced_mib": untraced_mib - base_u,
                    "forward_growth_traced_mib": traced_mib - base_t}
        results[name] = row
        print(f"{name:8} untraced {plain * 1000:9.1f} ms   checked {checked * 1000:9.1f} ms   ratio {row['ratio']:5.2f}"
              f" (CPU time ratio {row['cpu_ratio']:5.2f})"
              + (f"   torchlens {peer * 1000:9.1f} ms ({peer / checked:.1f}x attnscope)" if peer else "")
              + (f"   peak RSS {row['peak_untraced_mib']:.0f} -> {row['peak_traced_mib']:.0f} MiB "
                 f"({row['peak_ratio']:.2f}x; the forward itself grows it by {row['forward_growth_untraced_mib']:.0f}"
                 f" -> {row['forward_growth_traced_mib']:.0f} MiB)" if "peak_ratio" in row else ""))
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
