import math
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_Q = nn.Linear(d_model, d_model)
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.fc = nn.Linear(d_model, d_model)

    def forward(self, Q, K, V, attn_mask):
        batch_size = Q.size(0)
        q_s = self.W_Q(Q).view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)
        k_s = self.W_K(K).view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)
        v_s = self.W_V(V).view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)
        attn_mask = attn_mask.unsqueeze(1).repeat(1, self.n_heads, 1, 1)
        scores = torch.matmul(q_s, k_s.transpose(-1, -2)) / math.sqrt(self.d_k)
        scores.masked_fill_(attn_mask, -1e9)
        attn = torch.softmax(scores, dim=1)
        context = torch.matmul(attn, v_s)
        context = context.transpose(1, 2).contiguous().view(batch_size, -1, self.n_heads * self.d_k)
        return self.fc(context)


def get_attn_pad_mask(seq_q, seq_k):
    batch_size, len_q = seq_q.size()
    _, len_k = seq_k.size()
    pad_attn_mask = seq_k.data.eq(0).unsqueeze(1)
    return pad_attn_mask.expand(batch_size, len_q, len_k)


class EncoderLayer(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.enc_self_attn = MultiHeadAttention(d_model)
        self.pos_ffn = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x, mask):
        x = self.ln1(x + self.enc_self_attn(x, x, x, mask))
        return self.ln2(x + self.pos_ffn(x))


class Classifier(nn.Module):
    def __init__(self, vocab=40, d_model=32, n_cls=3):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, d_model)
        self.pos_emb = nn.Embedding(16, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model) for _ in range(2)])
        self.out = nn.Linear(d_model, n_cls)

    def forward(self, enc_inputs):
        mask = get_attn_pad_mask(enc_inputs, enc_inputs)
        x = self.src_emb(enc_inputs) + self.pos_emb(torch.arange(enc_inputs.size(1)))
        for layer in self.layers:
            x = layer(x, mask)
        return self.out(x[:, 0])


def build():
    torch.manual_seed(0)
    model = Classifier().eval()
    enc_inputs = torch.tensor([[1, 12, 7, 30, 5, 0, 0, 0], [1, 22, 9, 14, 3, 18, 27, 6]])
    return model, (enc_inputs,)
