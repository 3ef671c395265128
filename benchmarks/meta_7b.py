"""A 7B Llama configuration built the ordinary way, checked with `--device meta`: time and memory.

    .venv/bin/python benchmarks/meta_7b.py                 # check, then render at depth 2
    .venv/bin/python benchmarks/meta_7b.py --seq 2048 --no-render

Hidden 4096, 32 layers, 32 heads, intermediate 11008, vocab 32000 (about 6.7 billion
parameters). The target's `build()` constructs `LlamaForCausalLM(config)` with no meta
context of its own, as a student's code would; `--device meta` runs that build inside
`torch.device("meta")`, so no weight is ever allocated (built on the CPU it would need
27 GB). Issue 11 sets < 30 s and < 2 GiB on a 2-core machine.

Two measurements: the command itself (`attnscope check --device meta FILE:build` and
`attnscope render ...`, wall time, end to end: Python, imports, build, trace, analysis),
and the same check in this process, where the peak RSS is readable (the command's check
runs in a child process of a warm parent). Figures only, never asserted; needs transformers.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ATTNSCOPE = str(Path(sys.executable).with_name("attnscope"))

TARGET = '''
import torch
from transformers import LlamaConfig, LlamaForCausalLM


def build():
    config = LlamaConfig(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                         intermediate_size=11008, vocab_size=32000)
    model = LlamaForCausalLM(config).eval()   # no torch.device("meta") here: attnscope provides it
    return model, torch.zeros({batch}, {seq}, dtype=torch.long)
'''


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def command(argv: list[str], cwd: str) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=cwd)
    return time.perf_counter() - start, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seq", type=int, default=128, help="sequence length of the input ids")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--no-render", action="store_true", help="skip the depth-2 SVG")
    options = parser.parse_args()
    try:
        import transformers
    except ImportError:
        sys.exit("meta_7b: needs transformers (pip install -e '.[hf]')")
    import torch

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, torch {torch.__version__}, transformers {transformers.__version__}; "
          f"T = {options.seq}")
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "llama7b.py").write_text(TARGET.format(batch=options.batch, seq=options.seq))
        spec = "llama7b.py:build"

        wall, done = command([ATTNSCOPE, "check", "--device", "meta", spec], folder)
        summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()
        print(f"attnscope check --device meta {spec}: {wall:.2f} s wall, exit {done.returncode}: {summary}")
        if not options.no_render:
            wall, done = command([ATTNSCOPE, "render", "--device", "meta", spec, "-o", "llama.svg", "--depth", "2"],
                                 folder)
            print(f"attnscope render --device meta {spec} --depth 2: {wall:.2f} s wall, exit {done.returncode}")

        # The same check in this process, for the memory figure.
        sys.path.insert(0, folder)
        os.chdir(folder)
        from tracer.commands.common import trace_target
        from tracer.targets import isolated

        llama = transformers.LlamaForCausalLM  # transformers imports its modeling code lazily: not attnscope's time
        del llama
        print(f"in process: peak RSS after imports {peak_rss_mib():.0f} MiB")
        start = time.perf_counter()
        with isolated():
            report, recorded = trace_target(spec, device="meta")
        checked = time.perf_counter()
        sources = recorded.recording.sources.values()
        parameters = sum(source.meta.numel for source in sources if source.kind == "param")
        print(f"in process: check {checked - start:.2f} s (build included, {parameters / 1e9:.2f} B parameters "
              f"on {recorded.recording.device}), {report.summary['ops']} ops, "
              f"{report.summary['attention_blocks']} attention blocks, {len(report.findings)} findings; "
              f"peak RSS {peak_rss_mib():.0f} MiB; notes: {report.notes}")


if __name__ == "__main__":
    main()
