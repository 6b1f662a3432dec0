"""engram: the right project memory for coding agents, at the right moment.

Re-exports only; the stages live in their own modules (see docs/architecture.md).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
