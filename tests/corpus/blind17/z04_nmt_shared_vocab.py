"""Small Transformer-base style NMT model with a joint BPE vocabulary.

Encoder embedding, decoder embedding and the pre-softmax projection share one matrix
(Press & Wolf, 2017). Training uses label-smoothed cross-entropy; forward returns logits.
"""
import math

import torch
import torch.nn as nn


def sinusoid_table(n_pos, d):
    pos = torch.arange(n_pos).float().unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    tab = torch.zeros(n_pos, d)
    tab[:, 0::2] = torch.sin(pos * div)
    tab[:, 1::2] = torch.cos(pos * div)
    return tab


class LabelSmoothedCE(nn.Module):
    def __init__(self, eps=0.1, ignore_index=1):
        super().__init__()
        self.eps, self.ignore_index = eps, ignore_index

    def forward(self, logits, target):
        lprobs = logits.log_softmax(-1)
        nll = -lprobs.gather(-1, target.unsqueeze(-1)).squeeze(-1)
        smooth = -lprobs.mean(-1)
        keep = target.ne(self.ignore_index)
        loss = (1 - self.eps) * nll + self.eps * smooth
        return loss[keep].mean()


class SharedVocabTransformer(nn.Module):
    def __init__(self, vocab=96, d_model=48, nhead=4, layers=2, pad_idx=1, max_len=128):
        super().__init__()
        self.pad_idx = pad_idx
        self.shared = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.register_buffer("pe", sinusoid_table(max_len, d_model), persistent=False)
        self.transformer = nn.Transformer(d_model, nhead, layers, layers, dim_feedforward=2 * d_model,
                                          dropout=0.1, batch_first=True, norm_first=True)
        self.criterion = LabelSmoothedCE(0.1, pad_idx)

    def _embed(self, ids):
        return self.shared(ids) * math.sqrt(self.shared.embedding_dim) + self.pe[: ids.size(1)]

    def forward(self, src, tgt):
        src_pad = src.eq(self.pad_idx)
        tgt_pad = tgt.eq(self.pad_idx)
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(1), device=tgt.device)
        h = self.transformer(self._embed(src), self._embed(tgt), tgt_mask=tgt_mask,
                             src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad,
                             memory_key_padding_mask=src_pad)
        return h @ self.shared.weight.t()


def build():
    torch.manual_seed(0)
    model = SharedVocabTransformer().eval()
    src = torch.randint(4, 96, (3, 11))
    src[0, 8:] = 1
    src[2, 5:] = 1
    tgt = torch.randint(4, 96, (3, 9))
    return model, (src, tgt)
