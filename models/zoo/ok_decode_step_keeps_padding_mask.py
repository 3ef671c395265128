"""A cached decoder that keeps the prompt's key padding mask in every decode step: correct.

The twin of `padding_leak_decode_step_unmasked`: the step with one query masks the padded
cache slots too, so the new token reads only real keys.
"""

from .padding_leak_decode_step_unmasked import CachedDecoder, build as _buggy

EXPECTED: tuple[str, ...] = ()


def build():
    _, args = _buggy()
    return CachedDecoder(mask_steps=True).eval(), args
