"""facebookresearch/detr: a sequence-first `nn.MultiheadAttention` encoder-decoder over flattened image features, its sine positions and its pixel mask (True = padding).

No backbone: `build` feeds random backbone features of two images padded to one size as
DETR's `NestedTensor` does (the first padded at its last column, the second at its last two
rows), through DETR's `input_proj` (a 1x1 Conv2d), with the pixel mask, the sine position
embedding computed from that mask, and 5 object queries; attnscope must say nothing.
`build_mask_inverted` plants the bug a user makes who reads `mask` as a keep-mask: the
transformer gets `~mask`, so every image attends to its padding only; it must be a
`mask-polarity`. Both images are padded, so no query loses every key and the inversion is
the only fault: the mask input's padding is the value that fills some last rows and columns of
each image, and the transformer's mask hides exactly the other pixels. `build_mask_inverted_full_image`
plants it where the second image fills the batch's size, so the inversion hides all its
pixels: `mask-polarity`, with the `fully-masked-row` and `nan` it causes as its consequences.
`build_unprojected` feeds features of the model's width straight to the transformer, as a
user of DETR's `Transformer` alone would: correct, and clean. The files are imported by path: DETR's `models` package shares its
name with this project's own, and its `__init__` builds the torchvision backbone.
"""

from __future__ import annotations

import torch
from torch import nn

from benchmarks.real import source_file, stand_in

REPOSITORY = "facebookresearch/detr"
COMMIT = "29901c5"
FOLDER = "detr"
EXPECTED = {"build": [], "build_mask_inverted": ["mask-polarity"],
            "build_mask_inverted_full_image": ["mask-polarity"], "build_unprojected": []}
BACKBONE_CHANNELS = 64


class BackboneFree(nn.Module):
    """DETR's forward after the backbone: input_proj, positions from the mask, the transformer, the object queries."""

    def __init__(self, invert_mask: bool, project: bool) -> None:
        super().__init__()
        stand_in("torchvision", __version__="0.20.0")  # util.misc reads its version and nothing else
        transformer = source_file(FOLDER, "models/transformer.py")
        positions = source_file(FOLDER, "models/position_encoding.py")
        self.nested = source_file(FOLDER, "util/misc.py").NestedTensor
        self.transformer = transformer.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                                   dim_feedforward=64)
        self.input_proj = nn.Conv2d(BACKBONE_CHANNELS, 32, kernel_size=1) if project else nn.Identity()
        self.position = positions.PositionEmbeddingSine(16, normalize=True)
        self.query_embed = nn.Embedding(5, 32)
        self.invert_mask = invert_mask

    def forward(self, features, mask):
        pos = self.position(self.nested(features, mask))
        given = ~mask if self.invert_mask else mask
        return self.transformer(self.input_proj(features), given, self.query_embed.weight, pos)[0]


def _images(invert_mask: bool = False, project: bool = True, second_padded: bool = True):
    torch.manual_seed(0)
    mask = torch.zeros(2, 4, 5, dtype=torch.bool)
    mask[0, :, -1:] = True
    mask[1, -2:, :] = second_padded
    features = torch.randn(2, BACKBONE_CHANNELS if project else 32, 4, 5)
    return BackboneFree(invert_mask, project).eval(), (features, mask)


def build():
    return _images()


def build_mask_inverted():
    return _images(invert_mask=True)


def build_mask_inverted_full_image():
    return _images(invert_mask=True, second_padded=False)


def build_unprojected():
    return _images(project=False)
