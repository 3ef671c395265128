import torch
import torch.nn as nn


class CaptionDecoder(nn.Module):
    def __init__(self, vocab=50, d_model=32, nhead=4, nlayers=2, feat_dim=20, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.mem_proj = nn.Linear(feat_dim, d_model)
        layer = nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=64, dropout=0.1, batch_first=True, norm_first=True)
        self.decoder = nn.TransformerDecoder(layer, nlayers)
        self.lm = nn.Linear(d_model, vocab)

    def forward(self, tokens, image_feats, feat_mask):
        T = tokens.size(1)
        x = self.tok(tokens) + self.pos(torch.arange(T, device=tokens.device))[None]
        memory = self.mem_proj(image_feats)
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(T)
        h = self.decoder(x, memory, tgt_mask=tgt_mask, memory_key_padding_mask=~feat_mask)
        return self.lm(h)


def build():
    torch.manual_seed(0)
    model = CaptionDecoder().eval()
    tokens = torch.randint(0, 50, (2, 9))
    image_feats = torch.randn(2, 6, 20)
    feat_mask = torch.ones(2, 6, dtype=torch.bool)
    feat_mask[1, 4:] = False
    return model, (tokens, image_feats, feat_mask)
