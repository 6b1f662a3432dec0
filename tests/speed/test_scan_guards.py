"""Speed guards for the safety scan (docs/performance.md, "Where the time goes": the scan).

`Alternatives` searches a regex one alternative at a time, only where the substrings that
alternative needs are in the text; it must find exactly what the alternatives joined by `|`
find: the leftmost match, at one position the first alternative listed, and every match in turn.
"""

from __future__ import annotations

import re
from pathlib import Path

from engram.safety import deeds
from engram.safety.gates import Alternatives

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "safety" / "corpus"


def joined(alternatives: Alternatives) -> re.Pattern[str]:
    return re.compile("|".join(rule.pattern for _, rule in alternatives._rules))


def same(a: re.Match[str] | None, b: re.Match[str] | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None
                                         and a.span() == b.span() and a.group() == b.group())


def test_alternatives_find_the_leftmost_match_and_the_first_listed_at_a_tie() -> None:
    rules = Alternatives([
        ((("disable",),), r"disable \w+"),
        ((("csrf",), ("off", "disable")), r"\w+ csrf"),
        ((("never",),), r"csrf"),
    ])
    one = rules.search("please disable csrf now")
    assert one is not None and one.group() == "disable csrf"  # leftmost, listed first
    two = rules.search("turn csrf off")
    assert two is not None and two.group() == "turn csrf"
    # the third rule's pattern matches, but the text lacks what it needs
    assert rules.search("csrf") is None
    for text in ("please disable csrf now", "turn csrf off", "csrf never"):
        assert same(rules.search(text), joined(rules).search(text))
    text = "disable csrf, then turn csrf off and disable it"
    assert [m.group() for m in rules.finditer(text)] == ["disable csrf", "turn csrf",
                                                         "disable it"]


def test_the_sabotage_rule_finds_what_its_joined_regex_finds() -> None:
    whole = joined(deeds._SABOTAGE)
    lines = [line.lower() for path in sorted(CORPUS.glob("*/*.txt"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) > 1000
    found = 0
    for line in lines:
        for text in (line, deeds._UNQUOTED.sub(" ", line)):
            split = deeds._SABOTAGE.search(text)
            assert same(split, whole.search(text)), text
            found += split is not None
    assert found >= 20  # the corpus's sabotage items: the comparison saw real matches


def test_the_disclosure_sources_are_what_their_joined_regex_finds() -> None:
    whole = joined(deeds._SOURCE)
    lines = [line.lower() for path in sorted(CORPUS.glob("*/*.txt"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    found = 0
    for line in lines:
        split = [(m.span(), m.group()) for m in deeds._SOURCE.finditer(line)]
        assert split == [(m.span(), m.group()) for m in whole.finditer(line)], line
        found += len(split)
    assert found >= 200
