"""Match and league seeds: whoever knows a seed knows every hand it deals, so the ones that
decide ratings are drawn with enough entropy that nobody can guess or enumerate them."""

from __future__ import annotations

import secrets

SEED_BYTES = 32
"""Seeds drawn here: 256 bits."""
MIN_SEED_HEX = 32
"""A seed chosen elsewhere counts as strong with at least 128 bits, written as hex."""
_HEX = frozenset("0123456789abcdef")


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def strong_seed(seed: str) -> bool:
    """At least 128 bits of lowercase hex: what the arbiter and the leagues draw or derive."""
    return len(seed) >= MIN_SEED_HEX and set(seed) <= _HEX
