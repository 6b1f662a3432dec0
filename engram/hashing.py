"""sha256 and blake2b from CPython's built-in modules when it has them.

`hashlib` loads OpenSSL first (about 2 ms, on every prompt); the built-in implementations give
the same digests, and the small inputs hashed on the hot path (one memory file, a listing)
gain nothing from OpenSSL's speed. Any other interpreter falls back to hashlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import blake2b, sha256
else:
    try:
        from _sha256 import sha256  # CPython up to 3.11
    except ImportError:  # pragma: no cover - depends on the interpreter
        try:
            from _sha2 import sha256  # CPython 3.12 on
        except ImportError:
            from hashlib import sha256
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - depends on the interpreter
        from hashlib import blake2b

__all__ = ["blake2b", "sha256"]
