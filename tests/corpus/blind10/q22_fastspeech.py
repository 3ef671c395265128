import torch
import torch.nn as nn
import torch.nn.functional as F


def get_mask_from_lengths(lengths, max_len):
    ids = torch.arange(0, max_len, device=lengths.device)
    return ids.unsqueeze(0).expand(lengths.size(0), -1) >= lengths.unsqueeze(1)  # True = padding


class FFTBlock(nn.Module):
    def __init__(self, d=32, heads=2, kernel=3):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, dropout=0.1, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.conv = nn.Sequential(nn.Conv1d(d, 2 * d, kernel, padding=kernel // 2), nn.ReLU(),
                                  nn.Conv1d(2 * d, d, kernel, padding=kernel // 2))

    def forward(self, x, pad_mask):
        a, _ = self.attn(x, x, x, key_padding_mask=pad_mask, need_weights=False)
        x = self.ln1(x + a).masked_fill(pad_mask.unsqueeze(-1), 0.0)
        y = self.conv(x.transpose(1, 2)).transpose(1, 2)
        return self.ln2(x + y).masked_fill(pad_mask.unsqueeze(-1), 0.0)


class LengthRegulator(nn.Module):
    def forward(self, x, durations, max_len):
        out = []
        for seq, dur in zip(x, durations):
            out.append(torch.repeat_interleave(seq, dur, dim=0))
        mel_len = torch.tensor([o.size(0) for o in out])
        out = torch.stack([F.pad(o, (0, 0, 0, max_len - o.size(0))) for o in out])
        return out, mel_len


class FastSpeech(nn.Module):
    def __init__(self, n_symbols=30, d=32, n_mels=8, max_pos=64):
        super().__init__()
        self.emb = nn.Embedding(n_symbols, d, padding_idx=0)
        self.pos = nn.Embedding(max_pos, d)
        self.encoder = nn.ModuleList(FFTBlock(d) for _ in range(2))
        self.duration_predictor = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))
        self.regulator = LengthRegulator()
        self.decoder = nn.ModuleList(FFTBlock(d) for _ in range(2))
        self.mel = nn.Linear(d, n_mels)

    def forward(self, phonemes, src_lens, durations, max_mel_len):
        B, T = phonemes.shape
        src_mask = get_mask_from_lengths(src_lens, T)
        x = self.emb(phonemes) + self.pos(torch.arange(T))[None]
        for blk in self.encoder:
            x = blk(x, src_mask)
        log_dur = self.duration_predictor(x).squeeze(-1).masked_fill(src_mask, 0.0)
        y, mel_lens = self.regulator(x, durations, max_mel_len)
        mel_mask = get_mask_from_lengths(mel_lens, max_mel_len)
        y = y + self.pos(torch.arange(max_mel_len))[None]
        for blk in self.decoder:
            y = blk(y, mel_mask)
        return self.mel(y).masked_fill(mel_mask.unsqueeze(-1), 0.0), log_dur


def build():
    torch.manual_seed(0)
    model = FastSpeech().eval()
    src_lens = torch.tensor([8, 5])
    phonemes = torch.zeros(2, 8, dtype=torch.long)
    durations = torch.zeros(2, 8, dtype=torch.long)
    for b, n in enumerate(src_lens.tolist()):
        phonemes[b, :n] = torch.randint(1, 30, (n,))
        durations[b, :n] = torch.randint(1, 3, (n,))
    max_mel = int(durations.sum(1).max())
    return model, (phonemes, src_lens, durations, max_mel)
