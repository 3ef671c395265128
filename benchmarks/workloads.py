"""The models `per_op.py` measures: the kinds people write, each small enough that attnscope's own
cost, not the arithmetic, is what a check adds (and BERT-base from `overhead.py`, where it is not).

Each builder returns `(model, args, kwargs)` for one forward pass. The models are correct (a
check finds nothing), so their figures are what every clean run pays. HuggingFace's are built
from tiny random configurations: nothing is downloaded.
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from benchmarks.overhead import Workload
from models.reference import TransformerEncoder


def course_encoder() -> Workload:
    """The course's hand-written encoder (its own LayerNorm, no mask): 4 layers, d=32, 4 heads, T=16."""
    model = TransformerEncoder(num_layers=4, d_model=32, num_heads=4, d_ff=64)
    return model, (torch.randn(1, 16, 32),), {}


class PaddedLayer(nn.Module):
    """A post-norm encoder layer with `nn.LayerNorm` and a key-padding mask, as a student writes it."""

    def __init__(self, d_model: int, num_heads: int, d_ff: int) -> None:
        super().__init__()
        self.num_heads, self.head_dim = num_heads, d_model // num_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(keep[:, None, None, :] == 0, float("-inf"))
        attended = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
        x = self.norm1(x + self.out(attended))
        return self.norm2(x + self.ff(x))


class PaddedEncoder(nn.Module):
    def __init__(self, vocab: int = 1000, d_model: int = 64, num_heads: int = 4, d_ff: int = 128,
                 num_layers: int = 4, max_len: int = 64) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.positions = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(PaddedLayer(d_model, num_heads, d_ff) for _ in range(num_layers))

    def forward(self, ids: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        x = self.embed(ids) + self.positions(torch.arange(ids.shape[1]))
        for layer in self.layers:
            x = layer(x, keep)
        return x


def padded_encoder() -> Workload:
    """`nn.LayerNorm` and a padding mask: 4 layers, d=64, 4 heads, batch 2, T=16, the second row padded."""
    ids = torch.randint(1, 1000, (2, 16))
    keep = torch.ones(2, 16, dtype=torch.long)
    keep[1, 11:] = 0
    return PaddedEncoder(), (ids, keep), {}


class CachedLayer(nn.Module):
    """A pre-norm decoder layer that attends to P cached keys and values, then the T new ones."""

    def __init__(self, d_model: int, num_heads: int) -> None:
        super().__init__()
        self.num_heads, self.head_dim = num_heads, d_model // num_heads
        self.norm1 = nn.LayerNorm(d_model)
        self.q, self.k, self.v = (nn.Linear(d_model, d_model) for _ in range(3))
        self.out = nn.Linear(d_model, d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def split(self, x: torch.Tensor) -> torch.Tensor:
        B, T, _ = x.shape
        return x.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x: torch.Tensor, past_k: torch.Tensor, past_v: torch.Tensor) -> torch.Tensor:
        B, T, d = x.shape
        h = self.norm1(x)
        q = self.split(self.q(h))
        k = torch.cat([past_k, self.split(self.k(h))], dim=2)
        v = torch.cat([past_v, self.split(self.v(h))], dim=2)
        P = past_k.shape[2]
        future = torch.arange(P + T)[None, :] > torch.arange(P, P + T)[:, None]
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        weights = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        x = x + self.out((weights @ v).transpose(1, 2).reshape(B, T, d))
        return x + self.ff(self.norm2(x))


class CachedDecoder(nn.Module):
    def __init__(self, vocab: int = 1000, d_model: int = 64, num_heads: int = 4, num_layers: int = 4) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList(CachedLayer(d_model, num_heads) for _ in range(num_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, ids: torch.Tensor, past: list[tuple[torch.Tensor, torch.Tensor]]) -> torch.Tensor:
        x = self.embed(ids)
        for layer, (past_k, past_v) in zip(self.layers, past):
            x = layer(x, past_k, past_v)
        return self.head(self.norm(x))


def kv_cache_decoder() -> Workload:
    """A causal decoder stepping 4 new tokens past 12 cached ones: 4 layers, d=64, 4 heads, batch 2."""
    model = CachedDecoder()
    past = [(torch.randn(2, 4, 12, 16), torch.randn(2, 4, 12, 16)) for _ in model.layers]
    return model, (torch.randint(0, 1000, (2, 4)), past), {}


class ViTBlock(nn.Module):
    """timm's `Block`, written out: pre-norm, fused qkv, GELU MLP."""

    def __init__(self, dim: int, num_heads: int) -> None:
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.fc1, self.fc2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        qkv = self.qkv(self.norm1(x)).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        x = x + self.proj((attn.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, N, C))
        return x + self.fc2(F.gelu(self.fc1(self.norm2(x))))


class ViT(nn.Module):
    """timm's `VisionTransformer` in small: conv patches, a class token, learned positions."""

    def __init__(self, image: int = 32, patch: int = 8, dim: int = 64, depth: int = 4, num_heads: int = 4,
                 classes: int = 10) -> None:
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, (image // patch) ** 2 + 1, dim) * 0.02)
        self.blocks = nn.Sequential(*(ViTBlock(dim, num_heads) for _ in range(depth)))
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.head = nn.Linear(dim, classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        return self.head(self.norm(self.blocks(x))[:, 0])


def vit() -> Workload:
    """A timm-style ViT: 32x32 images in 8x8 patches (17 tokens), 4 blocks, d=64, 4 heads, batch 2."""
    return ViT(), (torch.randn(2, 3, 32, 32),), {}


def _transformers():  # noqa: ANN202 - the module, imported only for the models that need it
    import transformers

    transformers.utils.logging.set_verbosity_error()
    return transformers


def _padded_ids(batch: int = 2, length: int = 16) -> dict[str, torch.Tensor]:
    ids = torch.randint(5, 1000, (batch, length))
    mask = torch.ones_like(ids)
    mask[1, 11:] = 0
    return {"input_ids": ids, "attention_mask": mask}


def hf_bert_tiny() -> Workload:
    """HuggingFace `BertModel`, random tiny config: 2 layers, d=64, 4 heads, batch 2, T=16 with padding."""
    transformers = _transformers()
    config = transformers.BertConfig(vocab_size=1000, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                                     intermediate_size=128, max_position_embeddings=64, attn_implementation="eager")
    return transformers.BertModel(config), (), _padded_ids()


def hf_llama_tiny() -> Workload:
    """HuggingFace `LlamaModel`, random tiny config: 2 layers, d=64, 4 heads (2 KV heads), batch 2, T=16."""
    transformers = _transformers()
    config = transformers.LlamaConfig(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                                      attn_implementation="eager")
    return transformers.LlamaModel(config), (), _padded_ids()
