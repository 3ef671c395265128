"""Response generation for multi-party dialogue with a turn-level causal mask (UniLM-style).

Tokens inside one turn attend to each other in both directions (the turn is given as a whole),
and to every token of earlier turns; later turns are invisible. Speaker embeddings tell who
spoke each turn. Padding at the end of a conversation is removed from the keys.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def turn_causal_mask(turn_ids, attention_mask):
    """(B, 1, T, T) boolean, True = may attend: key turn <= query turn, key is real."""
    allowed = turn_ids[:, None, :] <= turn_ids[:, :, None]
    allowed = allowed & attention_mask.bool()[:, None, :]
    return allowed.unsqueeze(1)


class TurnBlock(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.wqkv = nn.Linear(d, 3 * d)
        self.wo = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self.wqkv(self.ln1(x)).chunk(3, -1)
        q, k, v = (t.unflatten(-1, (self.h, -1)).transpose(1, 2) for t in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.wo(a.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln2(x))


class TurnLM(nn.Module):
    def __init__(self, vocab=300, d=48, h=4, depth=2, n_speakers=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.spk = nn.Embedding(n_speakers, d)
        self.blocks = nn.ModuleList([TurnBlock(d, h) for _ in range(depth)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, speaker_ids, turn_ids, attention_mask):
        mask = turn_causal_mask(turn_ids, attention_mask)
        x = self.tok(input_ids) + self.spk(speaker_ids)
        x = x + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(self.ln(x))


def build():
    torch.manual_seed(0)
    B, T = 3, 20
    ids = torch.randint(1, 300, (B, T))
    lengths = torch.tensor([[4, 6, 5, 5], [3, 7, 6, 4], [5, 5, 4, 6]])
    turn = torch.stack([torch.repeat_interleave(torch.arange(4), l) for l in lengths])
    speaker = torch.tensor([[0, 1, 2, 0], [1, 0, 1, 0], [2, 3, 2, 3]]).gather(1, turn)
    mask = torch.ones(B, T, dtype=torch.long)
    mask[1, 16:] = 0
    model = TurnLM().eval()
    return model, (ids, speaker, turn, mask)
