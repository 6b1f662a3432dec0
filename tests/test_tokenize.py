"""The tokenizer as routing sees it: identifiers, plural acronyms, CJK, and the stems of the
words that are never anchors."""

from __future__ import annotations

from engram.tokenize import (
    GENERIC_STEMS,
    GENERIC_WORDS,
    PROCEDURAL_WORDS,
    anchors,
    stem,
    tokens,
    words,
)


def test_identifiers_split_and_stay_whole() -> None:
    assert words("useCallback") == ["usecallback", "use", "callback"]
    assert words("rate-limit max_len") == ["rate-limit", "rate", "limit", "max_len", "max", "len"]
    assert words("HTTPServer") == ["httpserver", "http", "server"]


def test_plural_acronyms_stay_one_word() -> None:
    # Not "da" + "gs", which would match nothing anyone meant.
    assert words("DAGs URLs APIs") == ["dags", "urls", "apis"]
    assert tokens("URLs") == tokens("url")
    assert words("getURLsFast") == ["geturlsfast", "get", "urls", "fast"]


def test_plain_words_and_numbers() -> None:
    # A short version glued to a name also gives the name ("http2" is about "http"); bare
    # numbers, one-letter words and long numbers ("sha256") do not split.
    assert words("deploy http2 429 a") == ["deploy", "http2", "http", "429"]
    assert words("sha256 v2 k8s") == ["sha256", "v2", "k8s"]
    assert anchors("retry 429") == ("retri",)


def test_contractions_leave_no_anchor() -> None:
    # "don't" splits at its apostrophe; "don" matched every body that says "don't", the
    # prompt's own denial pulling in noise.
    assert anchors("don't open it, it doesn’t build, we can't and won't ship") == (
        "open", "build", "ship")


def test_cjk_becomes_bigrams() -> None:
    assert words("使用React组件") == ["使用", "react", "组件"]


def test_generic_stems_are_the_stems_of_the_generic_words() -> None:
    assert {stem(w) for w in GENERIC_WORDS | PROCEDURAL_WORDS} == GENERIC_STEMS


def test_stems_are_those_of_the_pinned_snowball_release() -> None:
    # Stems are stored in every index and decide every ranking. Snowball 2.x stems "adding" as
    # "ad"; 3.1 keeps "internal" and "interval" whole. 3.0 (PyStemmer 3.0) does neither.
    sample = "adding deploying deployment generously internal intervals ponies caresses"
    assert [stem(w) for w in sample.split()] == [
        "add", "deploy", "deploy", "generous", "intern", "interv", "poni", "caress"]


def test_words_the_stemmer_conflates_keep_their_own_stems() -> None:
    # Snowball gives "important" and "import", "accessibility" and "access", "authorization"
    # and "author" one stem each; in code and its rules they name different things.
    for one, other in [("important", "imports"), ("accessibility", "access"),
                       ("authorization", "author"), ("animation", "animal"),
                       ("international", "internal"), ("experience", "experiment")]:
        assert tokens(one) != tokens(other), (one, other)
    assert tokens("a11y") == tokens("accessibility") == tokens("accessible")
    assert tokens("unauthorized") == tokens("authorize")
