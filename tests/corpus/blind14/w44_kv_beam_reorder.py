"""Beam-search replay for a cached decoder: after each step the KV cache rows are reordered to
follow the surviving beams (beam_idx indexes rows of the flattened batch * beams axis)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, layer_past=None):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        if layer_past is not None:
            k = torch.cat([layer_past[0], k], dim=2)
            v = torch.cat([layer_past[1], v], dim=2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=layer_past is None)
        return self.proj(y.transpose(1, 2).reshape(B, T, D)), (k, v)


class Decoder(nn.Module):
    def __init__(self, vocab=50, d=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(max_len, d)
        self.attn = nn.ModuleList(CachedAttention(d, heads) for _ in range(layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def step(self, ids, past, start):
        x = self.wte(ids) + self.wpe(torch.arange(start, start + ids.size(1), device=ids.device))
        new_past = []
        for i, attn in enumerate(self.attn):
            h, kv = attn(self.ln1[i](x), None if past is None else past[i])
            x = x + h
            x = x + self.mlp[i](self.ln2[i](x))
            new_past.append(kv)
        return self.head(self.ln_f(x)), new_past

    @staticmethod
    def reorder_cache(past, beam_idx):
        return [tuple(t.index_select(0, beam_idx) for t in layer) for layer in past]

    def forward(self, prompt_ids, step_tokens, beam_indices):
        """prompt_ids: (batch*beams, P); step_tokens, beam_indices: (steps, batch*beams)"""
        logits, past = self.step(prompt_ids, None, 0)
        out = []
        for s in range(step_tokens.size(0)):
            past = self.reorder_cache(past, beam_indices[s])
            logits, past = self.step(step_tokens[s][:, None], past, prompt_ids.size(1) + s)
            out.append(logits[:, -1])
        return torch.stack(out, dim=1)  # (batch*beams, steps, vocab)


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    batch, beams, P = 2, 3, 5
    prompt_ids = torch.randint(0, 50, (batch, P)).repeat_interleave(beams, dim=0)
    step_tokens = torch.randint(0, 50, (4, batch * beams))
    beam_indices = torch.stack([
        torch.arange(batch * beams),
        torch.tensor([0, 0, 2, 4, 3, 3]),
        torch.tensor([1, 2, 2, 5, 5, 4]),
        torch.tensor([0, 1, 1, 3, 3, 5]),
    ])  # parents stay inside their own group of beams
    return model, (prompt_ids, step_tokens, beam_indices)
