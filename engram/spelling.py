"""Typed shorthand and misspellings, read as the words the memories hold: "bump deps" as
"dependencies", "migraton for the copay col" as "migration", "npe in the renderer" as "null
pointer exception".

Only a word no memory holds is read again, and only as words some memory does hold: a team whose
rules say "deps" keeps "deps", and a project's own noun ("slotboard", "payrun") is left alone
when nothing the memories hold is one typing slip away from it. A slip is one letter left out,
added, changed or two swapped (Damerau's single edit) that keeps the first two letters
("coroutine" is not a slip for "goroutine"). A word of eight letters or more is read as such a
slip; one of five to seven letters only as a doubled letter typed once or a single one twice
("comit", "flagg") or a vowel left out ("feture"): short words are another slip away from too
many others ("consent" and "content", "lawyer" and "layer", "modal" and "model").
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

from engram.tokenize import anchors, said_words, stem

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

# Words developers type for a concept that rules name by its field: "LCP is 4s" is about
# performance, "test-first" about TDD, "screen reader users" about accessibility. Read like the
# shorthand (only when no memory holds the word), as those of the concept's words some memory
# holds. A key of two words is a phrase whose words memories may well hold apart ("screen",
# "reader"): its concept words are added beside them. Each key names one concept whatever the
# project; a word with a second common sense ("ship", "bump", "live", "image") is not a key,
# nor a product's name: a team without a memory for its monitoring stack wants nothing for
# "Grafana dashboards", not every memory that mentions monitoring.
_CONCEPTS = (
    ("performance", "lcp fcp ttfb lighthouse pagespeed jank janky sluggish laggy"
                    " slowness fps web-vitals"),
    ("accessibility a11y", "screenreader screen-reader voiceover talkback nvda wcag aria"
                           " keyboard-only colour-blind color-blind"),
    ("tdd test-driven", "test-first red-green-refactor"),
    ("security vulnerability", "xss csrf sqli ssrf cve cves pentest vuln vulns rce"),
    ("incident outage", "sev1 sev2 sev0 postmortem post-mortem downtime"),
    ("dependency dependencies upgrade", "outdated"),
    ("localization translation internationalization", "translate translations translator"
                                                      " pluralization pluralisation"),
    ("logging observability monitoring", "telemetry"),
    ("debugging debug", "stacktrace traceback segfault repro bisect heisenbug"),
    ("authentication login", "signin sign-in signup sign-up sso oauth oidc saml"),
    ("authorization permission", "rbac acl acls"),
    ("documentation", "readme docstring docstrings jsdoc javadoc tsdoc"),
    ("lint", "linter linters"),
    ("scheduled job cron", "nightly crontab"),
    ("real-time websocket", "realtime websockets sse"),
    ("location", "gps geolocation geofence geofencing"),
    ("feature flag", "toggles kill-switch"),
    ("cache caching", "memoize memoization"),
    ("money currency decimal", "penny pennies cents"),
    ("review", "lgtm nit nits"),
)
_CONCEPT_PHRASES = (
    ("accessibility a11y", "screen reader|colour contrast|color contrast|focus ring"
                           "|keyboard navigation"),
    ("performance", "web vitals|page speed|load time|bundle size"),
    ("tdd test-driven", "test first"),
    ("review", "look over|second pair"),
    ("incident outage", "went down"),
    ("setup onboarding", "new hire|new joiner|fresh laptop|new laptop|new machine|fresh machine"
                         "|fresh clone"),
)
CONCEPTS: dict[str, tuple[str, ...]] = {
    anchor: anchors(concept) for concept, keys in _CONCEPTS for key in keys.split()
    for anchor in anchors(key)[:1]}
CONCEPT_PHRASES: dict[tuple[str, ...], tuple[str, ...]] = {
    said_words(phrase): anchors(concept) for concept, phrases in _CONCEPT_PHRASES
    for phrase in phrases.split("|")}


def concept_phrases(said: Sequence[str]) -> tuple[str, ...]:
    """The concept words of every phrase key the prompt's words (`said_words`) hold, in order."""
    found: dict[str, None] = {}
    for at in range(len(said) - 1):
        meant = CONCEPT_PHRASES.get((said[at], said[at + 1]))
        if meant:
            found.update(dict.fromkeys(meant))
    return tuple(found)


MIN_SLIP_LENGTH = 8  # letters of a word as typed, read as the word any slip away
MIN_SLIP_NOTICED = 5  # letters of a word as typed, set aside when it is a slip of a held word
_LETTERS = string.ascii_lowercase
_VOWELS = "aeiou"
_TYPED = re.compile(r"[a-z]+")


def typed_words(query: str) -> dict[str, str]:
    """Each stem of the query's plain words, with the longest word typed for it: a slip is read
    in what was typed, since its stem may be shorter ("alginment" stems to "algin") or not a
    stem of anything."""
    typed: dict[str, str] = {}
    for word in _TYPED.findall(query.lower()):
        if len(word) >= MIN_SLIP_NOTICED:
            stemmed = stem(word)
            if len(word) > len(typed.get(stemmed, "")):
                typed[stemmed] = word
    return typed


def one_slip_away(typed: str, anchor: str) -> list[str]:
    """The stems of every word one slip from the word as typed, sorted, the anchor (its stem)
    left out: what the typist may have meant."""
    return _stems(_edits(typed), typed, anchor)


def one_letter_apart(typed: str, anchor: str) -> list[str]:
    """The stems of the words the word as typed is with a doubled letter typed once or a single
    one twice ("comit", "flagg"), with a vowel left out ("feture"), or with two neighbouring
    letters after the first swapped ("wirte", "mdtset": the commonest slip of all), sorted, the
    anchor left out: how a short word is read, since another letter left out or added, or
    changed, turns too many short words into others ("lawyer", "layer"; "consent", "content")."""
    word = typed
    edits = {word[:i] + word[i + 1:] for i in range(1, len(word)) if word[i] == word[i - 1]}
    for i in range(1, len(word) + 1):
        head, tail = word[:i], word[i:]
        edits.update(head + letter + tail for letter in {head[-1], *_VOWELS})
    edits.discard(word)
    # A swap may move the second letter, which `_stems` otherwise keeps ("wirte", "write").
    swaps = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(1, len(word) - 1)}
    swaps.discard(word)
    # ... and inflected as typed: "breake" stems to "break", but "brake" is no slip for it.
    cut = len(word) - len(stem(word))

    def as_typed(edit: str) -> bool:
        return len(edit) - len(stem(edit)) <= cut

    return sorted({*_stems({edit for edit in edits if as_typed(edit)}, typed, anchor),
                   *(stem(edit) for edit in swaps if as_typed(edit))} - {anchor})


def _edits(word: str) -> set[str]:
    edits = {word[:i] + word[i + 1:] for i in range(len(word))}
    edits.update(word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1))
    for i in range(len(word) + 1):
        head, tail = word[:i], word[i:]
        for letter in _LETTERS:
            edits.add(head + letter + tail)
            if tail:
                edits.add(head + letter + tail[1:])
    edits.discard(word)
    return edits


def _stems(edits: set[str], typed: str, anchor: str) -> list[str]:
    return sorted({stem(edit) for edit in edits if edit[:2] == typed[:2]} - {anchor})
