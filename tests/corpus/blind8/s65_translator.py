import math
import torch
import torch.nn as nn

PAD = 1


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=100):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class Seq2SeqTransformer(nn.Module):
    def __init__(self, src_vocab=40, tgt_vocab=45, d_model=32, nhead=4, ff=64):
        super().__init__()
        self.src_tok = nn.Embedding(src_vocab, d_model, padding_idx=PAD)
        self.tgt_tok = nn.Embedding(tgt_vocab, d_model, padding_idx=PAD)
        self.pos = PositionalEncoding(d_model)
        self.transformer = nn.Transformer(d_model, nhead, num_encoder_layers=2, num_decoder_layers=2,
                                          dim_feedforward=ff, dropout=0.1)
        self.generator = nn.Linear(d_model, tgt_vocab)
        self.d_model = d_model

    def forward(self, src, tgt):
        src_pad = (src == PAD).transpose(0, 1)
        tgt_pad = (tgt == PAD).transpose(0, 1)
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(0))
        s = self.pos(self.src_tok(src) * math.sqrt(self.d_model))
        t = self.pos(self.tgt_tok(tgt) * math.sqrt(self.d_model))
        out = self.transformer(s, t, tgt_mask=tgt_mask, src_key_padding_mask=src_pad,
                               tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        return self.generator(out)


def build():
    torch.manual_seed(0)
    model = Seq2SeqTransformer().eval()
    src = torch.tensor([[2, 2], [7, 9], [12, 30], [5, 3], [19, PAD], [3, PAD], [PAD, PAD]])
    tgt = torch.tensor([[2, 2], [8, 21], [11, 6], [40, 3], [3, PAD], [PAD, PAD]])
    return model, (src, tgt)
