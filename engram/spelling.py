"""Typed shorthand and misspellings, read as the words the memories hold: "bump deps" as
"dependencies", "migraton for the copay col" as "migration", "npe in the renderer" as "null
pointer exception".

Only a word no memory holds is read again, and only as words some memory does hold: a team whose
rules say "deps" keeps "deps", and a project's own noun ("slotboard", "payrun") is left alone
when nothing the memories hold is one typing slip away from it. A slip is one letter left out,
added, changed or two swapped (Damerau's single edit), looked for in words of eight letters or
more whose first two letters stay: shorter words are one slip away from too many others
("copay" and "copy", "lockerd" and "locker"), and "coroutine" is not a slip for "goroutine".
"""

from __future__ import annotations

import string

from engram.tokenize import anchors, stem

# Shorthand developers type, each with the words it stands for. Only what is short for one
# thing: "auth" is authentication or authorization, "ci" is often the tool's own name.
SHORTHAND: dict[str, tuple[str, ...]] = {
    stem(short): anchors(words) for short, words in (
        ("deps", "dependencies"), ("dep", "dependency"), ("msg", "message"),
        ("msgs", "messages"), ("repo", "repository"), ("repos", "repositories"),
        ("db", "database"), ("dbs", "databases"), ("k8s", "kubernetes"),
        ("perf", "performance"), ("infra", "infrastructure"), ("impl", "implementation"),
        ("npe", "null pointer exception"), ("nre", "null reference exception"),
        ("i18n", "internationalization"),
        ("l10n", "localization"), ("e2e", "end-to-end"), ("prod", "production"),
        ("pr", "pull request"), ("prs", "pull requests"), ("mr", "merge request"),
        ("env", "environment"), ("envs", "environments"), ("config", "configuration"),
        ("docs", "documentation"), ("func", "function"),
        ("fn", "function"), ("param", "parameter"), ("params", "parameters"),
        ("arg", "argument"), ("args", "arguments"), ("lib", "library"), ("libs", "libraries"),
        ("pkg", "package"), ("pkgs", "packages"),
    )
}

MIN_SLIP_LENGTH = 8  # letters of a word read for a typing slip
_LETTERS = string.ascii_lowercase


def may_be_misspelled(anchor: str) -> bool:
    """A plain word long enough to be read for one slip."""
    return len(anchor) >= MIN_SLIP_LENGTH and anchor.isascii() and anchor.isalpha()


def one_slip_away(anchor: str) -> list[str]:
    """The stems of every word one slip from the anchor (a stem itself), sorted: what the typist
    may have meant."""
    word = anchor
    edits = {word[:i] + word[i + 1:] for i in range(len(word))}
    edits.update(word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1))
    for i in range(len(word) + 1):
        head, tail = word[:i], word[i:]
        for letter in _LETTERS:
            edits.add(head + letter + tail)
            if tail:
                edits.add(head + letter + tail[1:])
    edits.discard(word)
    return sorted({stem(edit) for edit in edits if edit[:2] == word[:2]} - {anchor})
