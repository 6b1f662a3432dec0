"""A class of words a rule cannot do without, written as one space-separated string: the word
sets every rule module gates on."""

from __future__ import annotations


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())
