"""The course's exercises 8-10 as plans: which arms, on which task, with which shared training.

Every arm is the reference code of `models.reference` (d = 32, d_ff = 64, two layers, four
heads unless the heads are what varies), trained on the lag-D repetition task of `tasks`.
Quick plans keep the same code path and shrink every size so that all three run in well
under a minute each on two CPU cores; their numbers only show that the path works.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from torch import nn

from ..reference import GRUClassifier, TransformerClassifier
from .design import Experiment, Plan, Training, Variant
from .tasks import RepeatTask
from .window import window_classifier

D_MODEL, HEADS, D_FF, LAYERS = 32, 4, 64, 2

FULL = Training(steps=600, batch_size=32, learning_rate=3e-3, train_size=8192, test_size=1024)
QUICK = Training(steps=30, batch_size=16, learning_rate=3e-3, train_size=512, test_size=256)


def transformer(task: RepeatTask, heads: int = HEADS) -> TransformerClassifier:
    return TransformerClassifier(task.vocab, D_MODEL, heads, D_FF, LAYERS, task.num_classes, task.length)


def parameter_count(model: nn.Module) -> int:
    return sum(parameter.numel() for parameter in model.parameters())


def matched_gru_width(task: RepeatTask, target: int) -> int:
    """The GRU width whose classifier has the parameter count closest to `target`.

    Embedding (vocab x h) + GRU (3 gates, each W_ih and W_hh of h x h and two biases of h)
    + linear head (h x classes + classes).
    """
    def count(h: int) -> int:
        return task.vocab * h + 3 * (2 * h * h + 2 * h) + h * task.num_classes + task.num_classes

    return min(range(1, 1025), key=lambda h: abs(count(h) - target))


def gru_vs_transformer(quick: bool, values: Sequence[int] | None) -> Plan:
    """Exercise 8: a GRU against a Transformer encoder of about the same size, per length T (D = T/2)."""
    lengths = tuple(values) if values else ((16, 32) if quick else (16, 32, 64))
    variants: list[Variant] = []
    for length in lengths:
        if length < 4 or length % 2:
            variants.append(Variant(f"T={length}", "invalid", length, None, None,
                                    {"T": length}, f"T={length}: the length must be even and at least 4 (D = T/2)"))
            continue
        task = RepeatTask(length, length // 2)
        width = matched_gru_width(task, parameter_count(transformer(task)))
        design = {"T": length, "D": task.distance}
        variants.append(Variant(f"GRU T={length}", "GRU", length, task,
                                partial(GRUClassifier, task.vocab, width, task.num_classes),
                                {**design, "model": "GRU", "width": width}))
        variants.append(Variant(f"Transformer T={length}", "Transformer", length, task, partial(transformer, task),
                                {**design, "model": "Transformer", "width": D_MODEL}))
    return Plan(
        "gru-vs-transformer", "GRU vs Transformer encoder, by sequence length",
        "Does the recurrent model keep up as the dependency (D = T/2) and the sequence grow, and what does each cost?",
        "sequence length T", tuple(variants), QUICK if quick else FULL,
    )


def heads(quick: bool, values: Sequence[int] | None) -> Plan:
    """Exercise 9: H heads at fixed d = 32 (d_head = d / H); an H that does not divide d is reported."""
    task = RepeatTask(32, 8) if quick else RepeatTask(64, 16)
    counts = tuple(values) if values else (1, 2, 4, 8)
    variants = []
    for count in counts:
        design = {"H": count, "T": task.length, "D": task.distance}
        if count < 1 or D_MODEL % count:
            reason = f"H={count}: d={D_MODEL} is not divisible by H (d % H = {D_MODEL % count if count > 0 else 'n/a'})"
            variants.append(Variant(f"H={count}", "heads", count, task, None, design, reason))
            continue
        variants.append(Variant(f"H={count}", "heads", count, task, partial(transformer, task, count),
                                {**design, "d_head": D_MODEL // count}))
    return Plan(
        "heads", f"{', '.join(map(str, counts))} heads at fixed d = {D_MODEL}",
        "With the width fixed, does splitting it into more, narrower heads change quality or cost?",
        "heads H", tuple(variants), QUICK if quick else FULL,
    )


def _reach(window: int, task: RepeatTask) -> str:
    """Where the dependency at distance D lies relative to a window of w keys in L layers."""
    if task.distance <= window - 1:
        return "inside the window"
    if task.distance <= LAYERS * (window - 1):
        return f"outside one window, within {LAYERS} stacked layers"
    return "outside, even stacked"


def window(quick: bool, values: Sequence[int] | None) -> Plan:
    """Exercise 10: global vs sliding-window attention on long sequences, the dependency at distance D."""
    task = RepeatTask(32, 6) if quick else RepeatTask(64, 12)
    widths = tuple(values) if values else ((4, 8) if quick else (4, 8, 16))
    design = {"T": task.length, "D": task.distance}
    variants = [Variant("global", "global", task.length, task,
                        partial(window_classifier, task, D_MODEL, HEADS, D_FF, LAYERS, None),
                        {**design, "window": "global", "method": "global",
                         "reach": f"{task.length - 1} both ways", "dependency": "inside the window"})]
    for width in widths:
        columns = {**design, "window": width, "method": "chunked", "reach": LAYERS * (width - 1)}
        if width < 1 or task.length % width:
            reason = f"w={width}: the window must be a positive divisor of T={task.length} (chunked method)"
            variants.append(Variant(f"w={width}", "chunked", width, task, None, columns, reason))
            continue
        variants.append(Variant(f"w={width}", "chunked", width, task,
                                partial(window_classifier, task, D_MODEL, HEADS, D_FF, LAYERS, width, "chunked"),
                                {**columns, "dependency": _reach(width, task)}))
    valid = [variant.factor for variant in variants[1:] if not variant.invalid]
    if valid:  # the widest window again, computed as a masked T x T table: same function, global cost
        widest = max(valid)
        variants.append(Variant(f"w={widest} masked", "masked", widest, task,
                                partial(window_classifier, task, D_MODEL, HEADS, D_FF, LAYERS, widest, "masked"),
                                {**design, "window": widest, "method": "masked", "reach": LAYERS * (widest - 1),
                                 "dependency": _reach(widest, task)}))
    return Plan(
        "window", f"Global vs sliding-window attention, T = {task.length}, dependency at D = {task.distance}",
        "Does a window narrower than the dependency fail, and what does the window save?",
        "window width w (keys per query; global = T)", tuple(variants), QUICK if quick else FULL,
        markers=((f"w = D+1 = {task.distance + 1}: one layer's window holds x[t-D]", task.distance + 1),
                 (f"w = D/{LAYERS}+1 = {task.distance / LAYERS + 1:g}: {LAYERS} stacked layers reach x[t-D]",
                  task.distance / LAYERS + 1)),
        factor_names=((task.length, f"{task.length}\n(global)"),),
    )


EXPERIMENTS = (
    Experiment("gru-vs-transformer", "exercise 8, GRU vs Transformer encoder by sequence length", gru_vs_transformer),
    Experiment("heads", "exercise 9, 1 to 8 heads at fixed d", heads),
    Experiment("window", "exercise 10, global vs sliding-window attention", window),
)
