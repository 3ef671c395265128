"""Hierarchical attention network (Yang et al., 2016) with a transformer on top, for statute
prediction from fact descriptions.

Words -> GRU -> additive word attention with a learned context vector -> sentence vectors ->
transformer encoder over sentences -> attention pooling -> labels. Padding id is 0; the
documents are padded to a fixed number of sentences.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttentionPool(nn.Module):
    """u_it = tanh(W h_it + b); a_it = softmax(u_it^T u_w); s_i = sum_t a_it h_it"""

    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.context = nn.Parameter(torch.randn(d) * 0.1)

    def forward(self, h, pad):  # h: (N, L, d), pad: (N, L) True = padding
        scores = torch.tanh(self.proj(h)) @ self.context
        scores = scores.masked_fill(pad, float("-inf"))
        alpha = F.softmax(scores, dim=-1)
        return torch.bmm(alpha.unsqueeze(1), h).squeeze(1)


class HANTransformer(nn.Module):
    def __init__(self, vocab=250, d=32, heads=4, n_labels=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.word_rnn = nn.GRU(d, d, batch_first=True)
        self.word_pool = AdditiveAttentionPool(d)
        self.sent_encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True), 1,
            enable_nested_tensor=False)
        self.sent_pool = AdditiveAttentionPool(d)
        self.out = nn.Linear(d, n_labels)

    def forward(self, facts):  # (B, S, L)
        B, S, L = facts.shape
        words = facts.view(B * S, L)
        h, _ = self.word_rnn(self.emb(words))
        sents = self.word_pool(h, words == 0).view(B, S, -1)
        sent_pad = (facts == 0).all(-1)
        z = self.sent_encoder(sents, src_key_padding_mask=sent_pad)
        return self.out(self.sent_pool(z, sent_pad))


def build():
    torch.manual_seed(0)
    model = HANTransformer().eval()
    facts = torch.randint(1, 250, (3, 5, 8))
    facts[0, :, 6:] = 0
    facts[1, 3:] = 0
    facts[2, 0, 4:] = 0
    return model, (facts,)
