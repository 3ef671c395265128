"""A 7B Llama-style configuration traced on the meta device: time and peak memory.

    .venv/bin/python benchmarks/meta_7b.py                 # check, then render at depth 2
    .venv/bin/python benchmarks/meta_7b.py --seq 2048 --no-render

Hidden 4096, 32 layers, 32 heads, intermediate 11008, vocab 32000 (about 6.7 billion
parameters) built offline with `torch.device("meta")`: no weight is allocated, so the
figures are those of attnscope itself. The target the issue sets is under 30 seconds and
2 GiB on a 2-core machine. Figures only, printed and never asserted; needs `transformers`.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import tracer  # noqa: E402

LLAMA_7B = dict(
    hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, intermediate_size=11008, vocab_size=32000,
)


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seq", type=int, default=128, help="sequence length of the (meta) input ids")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--no-render", action="store_true", help="skip the depth-2 SVG")
    options = parser.parse_args()
    try:
        import transformers
    except ImportError:
        sys.exit("meta_7b: needs transformers (pip install -e '.[hf]')")
    transformers.utils.logging.set_verbosity_error()

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, torch {torch.__version__}, transformers {transformers.__version__}")
    llama = transformers.LlamaForCausalLM  # transformers imports its modeling code lazily: not attnscope's time
    print(f"peak RSS after imports: {peak_rss_mib():.0f} MiB")

    start = time.perf_counter()
    config = transformers.LlamaConfig(**LLAMA_7B)
    with torch.device("meta"):
        model = llama(config).eval()
        ids = torch.zeros(options.batch, options.seq, dtype=torch.long)
    built = time.perf_counter()
    parameters = sum(p.numel() for p in model.parameters())
    print(f"build on meta: {built - start:.2f} s, {parameters / 1e9:.2f} B parameters")

    report, recorded = tracer.run_check(model, (ids,))
    checked = time.perf_counter()
    counts = report.counts()
    print(f"check: {checked - built:.2f} s, {report.summary['ops']} ops, "
          f"{report.summary['attention_blocks']} attention blocks, "
          f"{counts['error']} errors, {counts['warning']} warnings; peak RSS {peak_rss_mib():.0f} MiB")

    if not options.no_render:
        with tempfile.TemporaryDirectory() as folder:
            try:
                recorded.render(os.path.join(folder, "llama.svg"), depth=2)
            except Exception as problem:  # the renderer is optional here: report, keep the figures
                print(f"render: skipped ({type(problem).__name__}: {problem})")
            else:
                print(f"render at depth 2: {time.perf_counter() - checked:.2f} s; peak RSS {peak_rss_mib():.0f} MiB")
    print(f"total: {time.perf_counter() - start:.2f} s, peak RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
