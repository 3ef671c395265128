import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderLayer(nn.Module):
    def __init__(self, d=32, h=4):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def step(self, x, past_k, past_v, key_mask):
        # x: [N, 1, d] (N = batch * beams); past_*: [N, h, P, dh]; key_mask: [N, P + 1] (1 = real)
        N, _, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(N, 1, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        k = torch.cat([past_k, k], 2)
        v = torch.cat([past_v, v], 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=key_mask.bool()[:, None, None, :])
        x = x + self.o(y.transpose(1, 2).reshape(N, 1, D))
        return x + self.mlp(self.ln2(x)), k, v


class BeamDecoder(nn.Module):
    def __init__(self, vocab=40, d=32, layers=2, num_beams=3):
        super().__init__()
        self.num_beams = num_beams
        self.emb, self.pos = nn.Embedding(vocab, d), nn.Embedding(32, d)
        self.layers = nn.ModuleList(DecoderLayer(d) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, position_ids, cache, attention_mask, beam_scores, beam_idx):
        # reorder the cache for the beams that survived the previous step
        cache = [(k.index_select(0, beam_idx), v.index_select(0, beam_idx)) for k, v in cache]
        attention_mask = attention_mask.index_select(0, beam_idx)
        mask = torch.cat([attention_mask, attention_mask.new_ones(attention_mask.size(0), 1)], dim=1)
        x = self.emb(input_ids) + self.pos(position_ids)
        for layer, (pk, pv) in zip(self.layers, cache):
            x, _, _ = layer.step(x, pk, pv, mask)
        logprobs = F.log_softmax(self.head(self.ln_f(x[:, -1])), dim=-1)
        scores = beam_scores[:, None] + logprobs  # [N, V]
        N, V = scores.shape
        return scores.view(N // self.num_beams, self.num_beams * V)  # per-example candidates over beams


def build():
    torch.manual_seed(0)
    model = BeamDecoder().eval()
    batch, beams, P = 2, 3, 7
    N = batch * beams
    attention_mask = torch.ones(N, P, dtype=torch.long)
    attention_mask[beams:, :3] = 0  # second prompt is left padded by 3
    cache = [(torch.randn(N, 4, P, 8), torch.randn(N, 4, P, 8)) for _ in range(2)]
    pad = (attention_mask == 0)[:, None, :, None]
    cache = [(k.masked_fill(pad, 0.0), v.masked_fill(pad, 0.0)) for k, v in cache]
    beam_idx = torch.tensor([0, 0, 2, 4, 3, 3])  # reordering stays within each example's beams
    input_ids = torch.randint(0, 40, (N, 1))
    position_ids = (attention_mask.sum(1, keepdim=True))  # next position counts real tokens only
    beam_scores = -torch.rand(N)
    return model, (input_ids, position_ids, cache, attention_mask, beam_scores, beam_idx)
