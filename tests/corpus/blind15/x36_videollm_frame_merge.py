"""Video-LLM connector: per-frame vision features are merged 2x2 spatially, mixed across
frames by a temporal attention layer, projected to the language model's width and spliced in
front of the prompt embeddings of a small causal decoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VideoConnector(nn.Module):
    def __init__(self, d_vision=24, d_model=32, grid=4, heads=4):
        super().__init__()
        self.grid = grid
        self.temporal = nn.MultiheadAttention(d_vision, heads)
        self.frame_pos = nn.Parameter(torch.randn(16, 1, d_vision) * 0.02)
        self.norm = nn.LayerNorm(d_vision)
        self.proj = nn.Sequential(nn.Linear(d_vision, d_model), nn.GELU(), nn.Linear(d_model, d_model))

    def forward(self, frames):
        B, Fr, N, D = frames.shape
        g = self.grid
        x = frames.reshape(B * Fr, g, g, D).permute(0, 3, 1, 2)
        x = F.avg_pool2d(x, 2).flatten(2).transpose(1, 2)          # (B*Fr, S, D), S = (g/2)^2
        S = x.size(1)
        t = x.reshape(B, Fr, S, D).permute(1, 0, 2, 3).reshape(Fr, B * S, D) + self.frame_pos[:Fr]
        h = self.norm(t)
        t = t + self.temporal(h, h, h, need_weights=False)[0]
        x = t.reshape(B, Fr, S, D)
        return self.proj(x.reshape(B, Fr * S, D))


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=64, d_model=32, heads=4, layers=2, max_len=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, heads, 4 * d_model, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, inputs_embeds):
        L = inputs_embeds.size(1)
        x = inputs_embeds + self.pos(torch.arange(L, device=inputs_embeds.device))
        causal = nn.Transformer.generate_square_subsequent_mask(L, device=x.device)
        return self.lm_head(self.norm(self.blocks(x, mask=causal, is_causal=True)))


class VideoLLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.connector = VideoConnector()
        self.lm = TinyCausalLM()

    def forward(self, frames, input_ids):
        visual = self.connector(frames)
        embeds = torch.cat([visual, self.lm.embed(input_ids)], dim=1)
        logits = self.lm(embeds)
        return logits[:, visual.size(1):]


def build():
    torch.manual_seed(0)
    model = VideoLLM().eval()
    frames = torch.randn(3, 5, 16, 24)
    input_ids = torch.randint(0, 64, (3, 9))
    return model, (frames, input_ids)
