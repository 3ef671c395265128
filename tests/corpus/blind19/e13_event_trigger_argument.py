"""Event argument extraction: for each trigger, an attention from the trigger representation
over all candidate argument tokens yields an event-specific context that conditions the
per-token argument-role tagger (BIO over roles)."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class TriggerArgumentAttention(nn.Module):
    def __init__(self, d, d_att=32):
        super().__init__()
        self.q = nn.Linear(d, d_att)
        self.k = nn.Linear(d, d_att)
        self.v = nn.Linear(d, d)

    def forward(self, trig, tokens, token_mask):
        # trig: (B, d); tokens: (B, T, d); token_mask: (B, T) float, 1 = real
        scores = torch.bmm(self.k(tokens), self.q(trig).unsqueeze(-1)).squeeze(-1) / math.sqrt(self.q.out_features)
        weights = F.softmax(scores, dim=-1) * token_mask
        return torch.bmm(weights.unsqueeze(1), self.v(tokens)).squeeze(1)


class EventArgumentTagger(nn.Module):
    def __init__(self, vocab=220, d=32, h=4, n_roles=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(32, d)
        self.trigger_flag = nn.Embedding(2, d)
        enc = nn.TransformerEncoderLayer(d, h, 2 * d, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc, 2, enable_nested_tensor=False)
        self.attend = TriggerArgumentAttention(d)
        self.tagger = nn.Linear(2 * d, 2 * n_roles + 1)

    def forward(self, input_ids, attention_mask, trigger_index):
        B, T = input_ids.shape
        is_trig = (torch.arange(T)[None] == trigger_index[:, None]).long()
        x = self.emb(input_ids) + self.pos.weight[:T] + self.trigger_flag(is_trig)
        h = self.encoder(x, src_key_padding_mask=attention_mask == 0)
        trig = h[torch.arange(B), trigger_index]
        ctx = self.attend(trig, h, attention_mask.float())
        feats = torch.cat([h, ctx[:, None].expand(-1, T, -1)], -1)
        return self.tagger(feats)


def build():
    torch.manual_seed(0)
    model = EventArgumentTagger().eval()
    ids = torch.randint(1, 220, (3, 18))
    mask = torch.ones(3, 18, dtype=torch.long)
    mask[0, 13:] = 0
    mask[2, 8:] = 0
    ids[mask == 0] = 0
    trig = torch.tensor([4, 10, 2])
    return model, (ids, mask, trig)
