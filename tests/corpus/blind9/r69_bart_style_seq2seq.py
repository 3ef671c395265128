import torch
import torch.nn as nn
import torch.nn.functional as F


def _make_causal_mask(input_ids_shape, dtype):
    bsz, tgt_len = input_ids_shape
    mask = torch.full((tgt_len, tgt_len), torch.finfo(dtype).min)
    mask_cond = torch.arange(mask.size(-1))
    mask.masked_fill_(mask_cond < (mask_cond + 1).view(mask.size(-1), 1), 0)
    mask = mask.to(dtype)
    return mask[None, None, :, :].expand(bsz, 1, tgt_len, tgt_len)


def _expand_mask(mask, dtype, tgt_len=None):
    bsz, src_len = mask.size()
    tgt_len = tgt_len if tgt_len is not None else src_len
    expanded_mask = mask[:, None, None, :].expand(bsz, 1, tgt_len, src_len).to(dtype)
    inverted_mask = 1.0 - expanded_mask
    return inverted_mask.masked_fill(inverted_mask.to(torch.bool), torch.finfo(dtype).min)


class BartAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def _shape(self, tensor, seq_len, bsz):
        return tensor.view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2).contiguous()

    def forward(self, hidden_states, key_value_states=None, attention_mask=None):
        is_cross_attention = key_value_states is not None
        bsz, tgt_len, _ = hidden_states.size()
        query_states = self.q_proj(hidden_states) * self.scaling
        kv = key_value_states if is_cross_attention else hidden_states
        key_states = self._shape(self.k_proj(kv), -1, bsz)
        value_states = self._shape(self.v_proj(kv), -1, bsz)
        proj_shape = (bsz * self.num_heads, -1, self.head_dim)
        query_states = self._shape(query_states, tgt_len, bsz).view(*proj_shape)
        key_states = key_states.view(*proj_shape)
        value_states = value_states.view(*proj_shape)
        src_len = key_states.size(1)
        attn_weights = torch.bmm(query_states, key_states.transpose(1, 2))
        if attention_mask is not None:
            attn_weights = attn_weights.view(bsz, self.num_heads, tgt_len, src_len) + attention_mask
            attn_weights = attn_weights.view(bsz * self.num_heads, tgt_len, src_len)
        attn_weights = F.softmax(attn_weights, dim=-1)
        attn_probs = F.dropout(attn_weights, p=self.dropout, training=self.training)
        attn_output = torch.bmm(attn_probs, value_states)
        attn_output = attn_output.view(bsz, self.num_heads, tgt_len, self.head_dim).transpose(1, 2)
        attn_output = attn_output.reshape(bsz, tgt_len, self.embed_dim)
        return self.out_proj(attn_output)


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.self_attn = BartAttention(d, h, dropout=0.1)
        self.self_attn_layer_norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)
        self.final_layer_norm = nn.LayerNorm(d)

    def forward(self, x, attention_mask):
        x = self.self_attn_layer_norm(x + self.self_attn(x, attention_mask=attention_mask))
        return self.final_layer_norm(x + self.fc2(F.gelu(self.fc1(x))))


class DecoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.self_attn = BartAttention(d, h, dropout=0.1)
        self.self_attn_layer_norm = nn.LayerNorm(d)
        self.encoder_attn = BartAttention(d, h, dropout=0.1)
        self.encoder_attn_layer_norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)
        self.final_layer_norm = nn.LayerNorm(d)

    def forward(self, x, attention_mask, encoder_hidden_states, encoder_attention_mask):
        x = self.self_attn_layer_norm(x + self.self_attn(x, attention_mask=attention_mask))
        x = self.encoder_attn_layer_norm(
            x + self.encoder_attn(x, key_value_states=encoder_hidden_states, attention_mask=encoder_attention_mask)
        )
        return self.final_layer_norm(x + self.fc2(F.gelu(self.fc1(x))))


class Seq2Seq(nn.Module):
    def __init__(self, vocab=50, d=32, h=4, layers=2, max_pos=32, pad_token_id=1):
        super().__init__()
        self.shared = nn.Embedding(vocab, d, padding_idx=pad_token_id)
        self.enc_pos = nn.Embedding(max_pos, d)
        self.dec_pos = nn.Embedding(max_pos, d)
        self.encoder_layers = nn.ModuleList([EncoderLayer(d, h) for _ in range(layers)])
        self.decoder_layers = nn.ModuleList([DecoderLayer(d, h) for _ in range(layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask, decoder_input_ids):
        x = self.shared(input_ids) + self.enc_pos(torch.arange(input_ids.size(1)))
        enc_mask = _expand_mask(attention_mask, x.dtype)
        for layer in self.encoder_layers:
            x = layer(x, enc_mask)
        y = self.shared(decoder_input_ids) + self.dec_pos(torch.arange(decoder_input_ids.size(1)))
        causal = _make_causal_mask(decoder_input_ids.shape, y.dtype)
        cross = _expand_mask(attention_mask, y.dtype, tgt_len=decoder_input_ids.size(1))
        for layer in self.decoder_layers:
            y = layer(y, causal, x, cross)
        return self.lm_head(y)


def build():
    torch.manual_seed(0)
    model = Seq2Seq().eval()
    input_ids = torch.randint(2, 50, (2, 11))
    attention_mask = torch.ones(2, 11, dtype=torch.long)
    attention_mask[1, 7:] = 0
    input_ids = input_ids.masked_fill(attention_mask == 0, 1)
    decoder_input_ids = torch.randint(2, 50, (2, 6))
    return model, (input_ids, attention_mask, decoder_input_ids)
