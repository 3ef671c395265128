"""IP-Adapter decoupled cross-attention: the U-Net query attends separately to the text tokens and
to image-prompt tokens (projected from a CLIP image embedding) and the two results are summed."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageProjModel(nn.Module):
    def __init__(self, clip_dim=40, cross_dim=24, num_tokens=4):
        super().__init__()
        self.num_tokens, self.cross_dim = num_tokens, cross_dim
        self.proj = nn.Linear(clip_dim, num_tokens * cross_dim)
        self.norm = nn.LayerNorm(cross_dim)

    def forward(self, image_embeds):
        return self.norm(self.proj(image_embeds).reshape(-1, self.num_tokens, self.cross_dim))


class IPAttention(nn.Module):
    def __init__(self, query_dim=32, cross_dim=24, heads=4, ip_scale=0.8, attn_drop=0.1):
        super().__init__()
        self.heads, self.ip_scale, self.attn_drop = heads, ip_scale, attn_drop
        self.to_q = nn.Linear(query_dim, query_dim, bias=False)
        self.to_k = nn.Linear(cross_dim, query_dim, bias=False)
        self.to_v = nn.Linear(cross_dim, query_dim, bias=False)
        self.to_k_ip = nn.Linear(cross_dim, query_dim, bias=False)
        self.to_v_ip = nn.Linear(cross_dim, query_dim, bias=False)
        self.to_out = nn.Linear(query_dim, query_dim)

    def heads_first(self, t):
        b, n, d = t.shape
        return t.view(b, n, self.heads, d // self.heads).transpose(1, 2)

    def attend(self, q, k, v):
        probs = (q @ k.transpose(-1, -2) * q.size(-1) ** -0.5).softmax(dim=-1)
        probs = F.dropout(probs, p=self.attn_drop)
        return probs @ v

    def forward(self, hidden_states, text_states, ip_tokens):
        q = self.heads_first(self.to_q(hidden_states))
        out = self.attend(q, self.heads_first(self.to_k(text_states)), self.heads_first(self.to_v(text_states)))
        ip_out = self.attend(q, self.heads_first(self.to_k_ip(ip_tokens)), self.heads_first(self.to_v_ip(ip_tokens)))
        out = out + self.ip_scale * ip_out
        b, h, n, d = out.shape
        return self.to_out(out.transpose(1, 2).reshape(b, n, h * d))


class AdapterBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.image_proj = ImageProjModel()
        self.norm = nn.LayerNorm(dim)
        self.attn = IPAttention(dim)

    def forward(self, hidden_states, text_states, image_embeds):
        ip_tokens = self.image_proj(image_embeds)
        return hidden_states + self.attn(self.norm(hidden_states), text_states, ip_tokens)


def build():
    torch.manual_seed(0)
    model = AdapterBlock().eval()
    hidden_states = torch.randn(2, 16, 32)  # 4x4 latent pixels
    text_states = torch.randn(2, 7, 24)
    image_embeds = torch.randn(2, 40)
    return model, (hidden_states, text_states, image_embeds)
