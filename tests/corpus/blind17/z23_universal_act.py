"""Universal Transformer encoder with Adaptive Computation Time (Dehghani et al. 2019).

One shared transition block is applied repeatedly; every position decides when to halt
(Graves 2016). A small amount of Gaussian noise on the halting logits keeps the halting unit
from saturating early.
"""
import math

import torch
import torch.nn as nn


def timing_signal(length, channels, min_timescale=1.0, max_timescale=1.0e4):
    position = torch.arange(length).float()
    num_timescales = channels // 2
    log_inc = math.log(max_timescale / min_timescale) / max(num_timescales - 1, 1)
    inv = min_timescale * torch.exp(torch.arange(num_timescales).float() * -log_inc)
    scaled = position.unsqueeze(1) * inv.unsqueeze(0)
    return torch.cat([torch.sin(scaled), torch.cos(scaled)], dim=1).unsqueeze(0)


class ACTUniversalEncoder(nn.Module):
    def __init__(self, vocab=200, d=32, heads=4, max_hops=6, threshold=0.99, halt_noise=0.1, n_classes=4):
        super().__init__()
        self.max_hops, self.threshold, self.halt_noise = max_hops, threshold, halt_noise
        self.embed = nn.Embedding(vocab, d)
        self.register_buffer("timing", timing_signal(64, d))
        self.register_buffer("position", timing_signal(max_hops, d))
        self.block = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.halt = nn.Linear(d, 1)
        nn.init.constant_(self.halt.bias, 1.0)
        self.out = nn.Linear(d, n_classes)

    def forward(self, ids):
        state = self.embed(ids)
        B, T, D = state.shape
        halting_probability = state.new_zeros(B, T)
        remainders = state.new_zeros(B, T)
        n_updates = state.new_zeros(B, T)
        previous_state = torch.zeros_like(state)
        step = 0
        while ((halting_probability < self.threshold) & (n_updates < self.max_hops)).any():
            state = state + self.timing[:, :T] + self.position[:, step].unsqueeze(1)
            logit = self.halt(state).squeeze(-1)
            p = torch.sigmoid(logit + self.halt_noise * torch.randn_like(logit))
            still_running = (halting_probability < 1.0).float()
            new_halted = (halting_probability + p * still_running > self.threshold).float() * still_running
            still_running = (halting_probability + p * still_running <= self.threshold).float() * still_running
            halting_probability = halting_probability + p * still_running
            remainders = remainders + new_halted * (1 - halting_probability)
            halting_probability = halting_probability + new_halted * remainders
            n_updates = n_updates + still_running + new_halted
            update_weights = (p * still_running + new_halted * remainders).unsqueeze(-1)
            state = self.block(state)
            previous_state = state * update_weights + previous_state * (1 - update_weights)
            step += 1
        return self.out(previous_state.mean(1))


def build():
    torch.manual_seed(0)
    model = ACTUniversalEncoder().eval()
    ids = torch.randint(0, 200, (3, 12))
    return model, (ids,)
