"""Early-exit (DeeBERT / PABEE-like) sentence classifier.

Every layer has an internal classifier. At inference a sample leaves the network at the first
layer whose prediction entropy drops below a threshold; its logits are frozen from then on. The
loop stops early once every sample in the batch has exited.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ExitLayer(nn.Module):
    def __init__(self, dim, heads, num_labels):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True)
        self.pooler = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, x, pad_mask):
        x = self.layer(x, src_key_padding_mask=pad_mask)
        return x, self.classifier(self.pooler(x[:, 0]))


class EarlyExitClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4, depth=3, num_labels=3, entropy_threshold=1.05):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(32, dim)
        self.layers = nn.ModuleList([ExitLayer(dim, heads, num_labels) for _ in range(depth)])
        self.threshold = entropy_threshold

    @staticmethod
    def entropy(logits):
        p = logits.softmax(-1)
        return -(p * p.clamp_min(1e-12).log()).sum(-1)

    def forward(self, input_ids):
        pad_mask = input_ids.eq(0)
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        out = None
        exited = torch.zeros(input_ids.size(0), dtype=torch.bool, device=input_ids.device)
        for layer in self.layers:
            x, logits = layer(x, pad_mask)
            out = logits if out is None else torch.where(exited[:, None], out, logits)
            exited = exited | (self.entropy(logits) < self.threshold)
            if not self.training and bool(exited.all()):
                break
        return out


def build():
    torch.manual_seed(0)
    model = EarlyExitClassifier().eval()
    lengths = torch.tensor([14, 9, 12, 6])
    ids = torch.randint(1, 100, (4, 14)).masked_fill(torch.arange(14)[None] >= lengths[:, None], 0)
    return model, (ids,)
