"""A cached decoder prefills a left-padded prompt with its padding mask, then decodes the next token with no mask: the new token attends to the padded cache slots.

The prompt's pass hides the padded keys and zeroes their values in the cache, but the decode
step builds its mask only when it has more than one query (OpenNMT-style), so the padded
keys take softmax weight from the new token. Fix: keep the prompt's key padding mask for the
cached keys in every step (`scores.masked_fill(self.pad[:, None, None, :], -1e9)`).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("padding-leak",)
PAD = 0


class CachedDecoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2, mask_steps: bool = False):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.embed = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)
        self.mask_steps = mask_steps

    def attend(self, x, cache, pad):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).split(x.shape[-1], dim=-1)
        q, k, v = (t.view(B, T, self.n_heads, self.d_head).transpose(1, 2) for t in (q, k, v))
        if cache:
            k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if T > 1 or self.mask_steps:
            hidden = pad[:, None, None, :] | ~torch.ones(T, k.shape[2], dtype=torch.bool).tril(k.shape[2] - T)
            scores = scores.masked_fill(hidden, -1e9)
        y = F.softmax(scores, dim=-1) @ v  # BUG: padding-leak
        return self.head(x + y.transpose(1, 2).reshape(B, T, -1)), (k, v.masked_fill(pad[:, None, :, None], 0.0))

    def forward(self, prompt, next_token):
        pad = prompt.eq(PAD)
        prefill, cache = self.attend(self.embed(prompt), None, pad)
        step_pad = torch.cat([pad, torch.zeros_like(pad[:, :1])], dim=1)
        step, _ = self.attend(self.embed(next_token), cache, step_pad)
        return torch.cat([prefill, step], dim=1)


def build():
    torch.manual_seed(0)
    prompt = torch.randint(1, 30, (2, 6))
    prompt[1, :2] = PAD                                       # sample 1 is left-padded by 2
    return CachedDecoder().eval(), (prompt, torch.randint(1, 30, (2, 1)))
