"""End-to-end speech translation with CTC compression (Gaido et al. / Liu et al. style).

The speech encoder is trained with an auxiliary CTC loss on source phones; consecutive frames
with the same CTC prediction are averaged into one vector before the translation decoder attends
to them, which shortens the memory 2-4x.
"""
import torch
import torch.nn as nn


def ctc_compress(h, ctc_logits, lengths):
    """average runs of frames that share the CTC argmax; returns (B, S, D) and the (B, S) mask"""
    B, T, D = h.shape
    valid = torch.arange(T, device=h.device)[None] < lengths[:, None]
    pred = ctc_logits.argmax(-1)
    new_seg = torch.ones_like(valid)
    new_seg[:, 1:] = pred[:, 1:] != pred[:, :-1]
    seg_id = new_seg.long().cumsum(1) - 1
    seg_id = seg_id.masked_fill(~valid, T)                       # padded frames go to a spare slot
    n_seg = seg_id.masked_fill(~valid, -1).amax(1) + 1
    summed = h.new_zeros(B, T + 1, D).scatter_add_(1, seg_id.unsqueeze(-1).expand(-1, -1, D), h)
    count = h.new_zeros(B, T + 1).scatter_add_(1, seg_id, valid.to(h.dtype))
    S = int(n_seg.max())
    out = summed[:, :S] / count[:, :S].clamp(min=1.0).unsqueeze(-1)
    return out, torch.arange(S, device=h.device)[None] < n_seg[:, None]


class SpeechTranslator(nn.Module):
    def __init__(self, n_feats=40, n_phones=12, vocab=64, dim=32, heads=4, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.frontend = nn.Sequential(nn.Linear(n_feats, dim), nn.GELU(), nn.Linear(dim, dim))
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.1, batch_first=True, norm_first=True), 2,
            enable_nested_tensor=False)
        self.ctc_head = nn.Linear(dim, n_phones + 1)
        self.tok = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.tgt_pos = nn.Embedding(64, dim)
        self.decoder = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(dim, heads, 2 * dim, 0.1, batch_first=True, norm_first=True), 2)
        self.out = nn.Linear(dim, vocab)

    def forward(self, feats, feat_lengths, prev_tokens):
        T = feats.size(1)
        frame_pad = torch.arange(T, device=feats.device)[None] >= feat_lengths[:, None]
        h = self.encoder(self.frontend(feats), src_key_padding_mask=frame_pad)
        ctc_logits = self.ctc_head(h)
        memory, mem_mask = ctc_compress(h, ctc_logits, feat_lengths)
        U = prev_tokens.size(1)
        y = self.tok(prev_tokens) + self.tgt_pos(torch.arange(U, device=feats.device))
        causal = torch.ones(U, U, dtype=torch.bool, device=feats.device).triu(1)     # True = not allowed
        y = self.decoder(y, memory, tgt_mask=causal, tgt_is_causal=True,
                         tgt_key_padding_mask=prev_tokens.eq(self.pad_id), memory_key_padding_mask=~mem_mask)
        return self.out(y)


def build():
    torch.manual_seed(0)
    model = SpeechTranslator().eval()
    feats = torch.randn(3, 12, 40).repeat_interleave(2, dim=1) + 0.05 * torch.randn(3, 24, 40)
    feat_lengths = torch.tensor([24, 19, 14])
    prev_tokens = torch.randint(1, 64, (3, 9))
    prev_tokens[:, 0] = 1                                              # <s>
    prev_tokens[2, 6:] = 0
    return model, (feats, feat_lengths, prev_tokens)
