"""The one tokenizer, used identically for memories and queries.

The stemmer is imported here only, lazily, and every stem is cached: the same few thousand
words recur across memories, so the cache turns stemming into a dict lookup.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

_COMPOUND = re.compile(r"[^\W_]+(?:[-_][^\W_]+)*")
# The same chunks in ASCII text, where [^\W_] is these ranges: a class of ranges is a third
# cheaper to test than a Unicode category, and a first index tokenizes every body.
_ASCII_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*")
# Identifier parts: a plural acronym (URLs), an acronym before a word (HTTPServer), a word, a
# number, or letters outside A-Z.
_CAMEL = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z0-9]+"
                    r"|[^\W\d_A-Za-z]+[0-9]*")
_CJK_RUN = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+"


@functools.cache
def _cjk() -> re.Pattern[str]:
    # Compiled on first use: its wide character class takes over a millisecond to compile, and
    # a plain ASCII prompt never needs it.
    return re.compile(_CJK_RUN)
_SPLIT = re.compile(r"[-_]")

# Technology names written with a dot, a hash or pluses ("Next.js", "ASP.NET", ".NET", "C#",
# "C++") are spelled joined in ids, tags and file names ("nextjs-app-router", "csharp",
# "dotnet", "cpp"). The written form also gets the joined word beside it, in place, so a
# query and a memory meet whichever spelling each uses; the split parts stay ("next", "js").
# The marks are found by substring search (most text holds none), the word before a dot read
# back by hand: a first index tokenizes every body, and a pattern that tried each word as a
# library name cost more than the tokenizing itself.
_JOIN_HINTS = (".js", ".JS", ".Js", ".net", ".NET", ".Net", "c#", "C#", "f#", "F#", "c++", "C++")
# The hints by the mark each holds: text without the mark (most ids, tags and phrases have no
# dot) is not searched for its hints.
_HINTS_BY_MARK = tuple((mark, tuple(h for h in _JOIN_HINTS if mark in h)) for mark in ".#+")


def _word_start(text: str, at: int) -> bool:
    """Whether a word may start at `at` (no letter, digit, underscore or dot just before)."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "_.")


def _joined_name(text: str, start: int, mark: str) -> str | None:
    """The joined spelling of the technology name whose mark (".js", ".net", "c#", "c++")
    starts at `start`, or None when it is no such name ("example.net", "abc#")."""
    if mark[0] != ".":
        if not _word_start(text, start):
            return None
        return "cpp" if mark == "c++" else mark[0] + "sharp"
    begin = start
    while begin > 0 and text[begin - 1].isalnum():
        begin -= 1
    word = text[begin:start].lower()
    if mark == ".js":  # a name, not the end of an identifier ("content_script.js")
        return word + "js" if word and (begin == 0 or text[begin - 1] != "_") else None
    if not word:
        return "dotnet" if _word_start(text, start) else None
    return "aspnet" if word == "asp" and _word_start(text, begin) else None


def with_joined(text: str) -> str:
    """The text with each dotted, hashed or plussed technology name followed by its joined
    spelling ("Next.js" -> "Next.js nextjs"), for `words` and `tokens` to split as usual."""
    marks: list[tuple[int, int, str]] = []
    for mark, hints in _HINTS_BY_MARK:
        if mark not in text:
            continue
        for hint in hints:
            at = text.find(hint)
            while at >= 0:
                end = at + len(hint)
                after = text[end:end + 1]
                # A dotted mark ends a word (".json" is no ".js"); a hash or pluses may run on.
                if hint[0] != "." or not (after.isalnum() or after == "_"):
                    marks.append((at, end, hint.lower()))
                at = text.find(hint, end)
    if not marks:
        return text
    parts: list[str] = []
    pos = 0
    for start, end, mark in sorted(marks):
        name = _joined_name(text, start, mark)
        if name is not None:
            parts += [text[pos:end], " ", name]
            pos = end
    return "".join(parts) + text[pos:]


STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
don't down during each either etc even ever every few for from further get gets getting got had
hadn't has hasn't have haven't having he her here hers herself him himself his how however i i'm
if in into is isn't it it's its itself just let like ll may me might more most much must mustn't my
myself need needs no nor not now of off on once one only or other ought our ours ourselves out over
own per rather re same shall shan't she should shouldn't so some such than that that's the their
theirs them themselves then there these they this those though through thus to too under until up
upon us use used uses using ve very via was wasn't we were weren't what when where whether which
while who whom whose why will with within without won't would wouldn't yet you your yours yourself
yourselves want wants make makes made new way ways thing things something anything s t d m o y
ain aren couldn didn doesn don hadn hasn haven isn mustn shan shouldn wasn weren won wouldn
""".split())

# Words that say nothing about a memory's topic: every memory is a rule, skill or note, and a
# greeting or a thank-you is said to the agent, not about the work.
GENERIC_WORDS = frozenset("""
rule rules knowledge memory memories skill skills agent agents context engram task tasks guideline
guidelines instruction instructions note notes please help
thank thanks hello hi hey bye goodbye sorry
""".split())

# Mark a task as procedural (skills get a boost) without being anchors themselves.
PROCEDURAL_WORDS = frozenset({"workflow", "workflows", "steps"})
_HOW_TO = re.compile(r"\bhow\s+to\b", re.IGNORECASE)

_stem_cache: dict[str, str] = {}
_stemmer: Callable[[str], str] | None = None


def _load_stemmer() -> Callable[[str], str]:
    """Snowball's English stemmer, compiled (PyStemmer): a word costs about 2 us, against 35 us
    in pure Python, and a first index stems every distinct word of every memory. Stems are part
    of the index and of every ranking, so the dependency is pinned to one Snowball release."""
    global _stemmer
    if _stemmer is None:
        import Stemmer

        _stemmer = Stemmer.Stemmer("english").stemWord
    return _stemmer


def stem(word: str) -> str:
    cached = _stem_cache.get(word)
    if cached is None:
        cached = _KEPT_APART.get(word) or (
            _load_stemmer()(word) if word.isascii() and word.isalpha() else word)
        _stem_cache[word] = cached
    return cached


# Words Snowball reduces to a stem they share with another word, where the two name different
# things in code and its rules: "IMPORTANT:" opens rules that have nothing to do with imports,
# accessibility is not access control, authorization is not a commit's author, and animation
# not an animal. Each family gets a stem of its own.
_KEPT_APART = {word: kept for kept, family in (
    ("importan", "important importantly importance unimportant"),
    ("accessibl", "accessibility accessible accessibly inaccessible a11y"),
    ("authoriz", "authorization authorizations authorisation authorisations authorize authorizes"
                 " authorized authorizing authorise authorises authorised authorising authorizer"
                 " unauthorized unauthorised"),
    ("authorit", "authority authorities authoritative"),
    ("internation", "international internationally internationalization"
                    " internationalisation"),
    ("experienc", "experience experiences experienced"),
    ("animat", "animation animations animate animated animating animator"),
    ("several", "several"),
) for word in family.split()}


def words(text: str) -> list[str]:
    """Lower-cased surface words before stemming, identifiers split and also kept whole, a
    dotted technology name also joined (`with_joined`)."""
    return _words(with_joined(text))


def _words(text: str) -> list[str]:
    out: list[str] = []
    append = out.append
    for chunk in _COMPOUND.findall(text):
        if chunk.isascii() and chunk.isalnum():
            rest = chunk[1:]
            if rest.islower() or rest.isdigit() or not rest:
                # A plain word, perhaps capitalised (most of any text): nothing to split.
                if rest:
                    append(chunk.lower())
                    if chunk[-1].isdigit():
                        _unversioned(chunk.lower(), out)
                continue
        _split_chunk(chunk, out)
    return out


def _split_chunk(chunk: str, out: list[str]) -> None:
    """An identifier (camelCase, snake_case, kebab-case), a CJK run or a non-ASCII word."""
    found: list[str] = []
    if _cjk().search(chunk):
        _cjk_words(chunk, found)
    else:
        parts = [p for piece in _SPLIT.split(chunk) for p in _CAMEL.findall(piece)]
        if len(parts) > 1:
            found.append(chunk.lower())
        for part in parts:
            found.append(part.lower())
            if part[-1].isdigit():
                _unversioned(part.lower(), found)
    out.extend(w for w in found if len(w) >= 2 or _cjk().match(w))


# A name with a version glued on ("vue3", "nextjs15", "react19", "python3"): the name alone is
# what other text says ("Vue", "Next.js"). Three letters at least and a short number, so
# "v2", "k8s" or "sha256" stay as they are.
_VERSIONED = re.compile(r"([a-z]{3,})[0-9]{1,2}")


def _unversioned(word: str, out: list[str]) -> None:
    found = _VERSIONED.fullmatch(word)
    if found:
        out.append(found.group(1))


def _cjk_words(chunk: str, out: list[str]) -> None:
    # Scripts without spaces: character bigrams are the smallest unit that still means something.
    pos = 0
    for run in _cjk().finditer(chunk):
        if run.start() > pos:
            out.extend(_words(chunk[pos:run.start()]))
        text = run.group(0)
        if len(text) == 1:
            out.append(text)
        out.extend(text[i:i + 2] for i in range(len(text) - 1))
        pos = run.end()
    if pos < len(chunk):
        out.extend(_words(chunk[pos:]))


def tokens(text: str) -> list[str]:
    """Stemmed tokens of text: what the index stores and queries are matched against."""
    out: list[str] = []
    extend = out.extend
    # Most chunks of any text were seen before: one look-up gives their split, lowered stems.
    known = _chunk_stems.get
    joined = with_joined(text)
    for chunk in (_ASCII_COMPOUND if joined.isascii() else _COMPOUND).findall(joined):
        extend(known(chunk) or _stems_of_chunk(chunk))
    return out


_chunk_stems: dict[str, tuple[str, ...]] = {}
_CHUNK_CACHE_MAX = 200_000  # a long-lived server meets unbounded prompts; start over past this


def _stems_of_chunk(chunk: str) -> tuple[str, ...]:
    if len(_chunk_stems) >= _CHUNK_CACHE_MAX:
        _chunk_stems.clear()
    found = _chunk_stems[chunk] = tuple(stem(w) for w in _words(chunk))
    return found


# The stems of GENERIC_WORDS | PROCEDURAL_WORDS, written out so a query never needs the
# stemmer just to drop them (tests/test_tokenize.py holds this equal to the computed set).
GENERIC_STEMS = frozenset({
    "agent", "bye", "context", "engram", "goodby", "guidelin", "hello", "help", "hey", "hi",
    "instruct", "knowledg", "memori", "note", "pleas", "rule", "skill", "sorri", "step", "task",
    "thank", "workflow",
})


def is_procedural(query: str) -> bool:
    lowered = query.lower()
    return bool(_HOW_TO.search(lowered)) or any(w in PROCEDURAL_WORDS for w in words(lowered))


# "go" the verb ("go over the diff", "go ahead", "let's go"), not the language: a phrasal verb's
# particle after it, or "let's" before it. "Go" alone, "in Go", "Go modules" stay the language.
_GO_VERB = re.compile(r"\bgo(?=\s+(?:over|through|ahead|back|on|into|away|out|up|down|around"
                      r"|across|wrong|live|forward|along)\b)|(?<=\blet's\s)go\b|(?<=\blets\s)go\b",
                      re.IGNORECASE)


def anchors(query: str) -> tuple[str, ...]:
    """The query's distinct meaningful stems, in first-seen order.

    Stopwords, generic memory words, procedural markers, bare numbers and the verb "go"
    (`_GO_VERB`) are never anchors.
    """
    if "go" in query.lower():
        query = _GO_VERB.sub(" ", query)
    seen: dict[str, None] = {}
    for word in words(query):
        if word in STOPWORDS or word in GENERIC_WORDS or word in PROCEDURAL_WORDS:
            continue
        if word.isdigit():
            continue
        stemmed = stem(word)
        if stemmed in GENERIC_STEMS or len(stemmed) < 2 and not _cjk().match(stemmed):
            continue
        seen.setdefault(stemmed, None)
    return tuple(seen)


# A term made of parts ("zero-downtime", "next.js"): a phrase of one compound word also yields
# its parts, and the parts decide.
COMPOUND_TERM = re.compile(r"[-_./:]")


@functools.lru_cache(maxsize=1 << 16)
def name_words(phrase: str) -> tuple[str, ...]:
    """The stemmed words of a memory's name (its id, a tag, a trigger phrase), compounds left
    out unless it has nothing else. The index stores them with each memory, so a query that
    judges every candidate's names does not tokenize them again; memoized for the names read
    from full records."""
    terms = anchors(phrase)
    return tuple(t for t in terms if not COMPOUND_TERM.search(t)) or terms


# The words a trigger phrase uses for whatever the user will name there ("why does this exist").
_PLACEHOLDERS = frozenset("this that these those it x y something someone them".split())
SAID_GAP = "*"  # a placeholder's place in a written form
SAID_GAP_MAX = 4  # how many of the prompt's words one placeholder may stand for
SAID_MIN_WORDS = 3  # written words a form needs besides its placeholders
_SURFACE = re.compile(r"[a-z0-9]+")


def said_words(text: str) -> tuple[str, ...]:
    """Text's words in order, stemmed, function words kept and identifiers whole: what a
    trigger phrase's written form is looked for in."""
    return tuple(stem(w) for w in _SURFACE.findall(text.lower()))


@functools.lru_cache(maxsize=1 << 12)
def written_form(trigger: str) -> tuple[str, ...] | None:
    """A trigger phrase made of the words people say around a task rather than of its topic,
    framing what the user will name ("why does this exist", "turn this into a skill"), as its
    stemmed words in order with the placeholder as SAID_GAP; None for a phrase whose content
    words name its memory on their own (`name_words`), and for one that frames nothing or has
    no word of its own: "i want to add" and "what is this for" are said by chance ("I want to
    add a second monitor to my desk")."""
    if len(name_words(trigger)) > 1:
        return None
    form: list[str] = []
    own_word = False
    for word in _SURFACE.findall(trigger.lower()):
        if word in _PLACEHOLDERS:
            if form and form[-1] != SAID_GAP:
                form.append(SAID_GAP)
            continue
        own_word = own_word or word not in STOPWORDS
        form.append(stem(word))
    while form and form[-1] == SAID_GAP:
        form.pop()
    # A leading or trailing placeholder was dropped: a gap left is between written words.
    written = len(form) - form.count(SAID_GAP)
    frames = written < len(form)
    return tuple(form) if frames and own_word and written >= SAID_MIN_WORDS else None


def says(form: Sequence[str], said: Sequence[str]) -> bool:
    """Whether the prompt's words (`said_words`) hold the written form, each placeholder
    standing for one to SAID_GAP_MAX of them."""
    def held_at(i: int, j: int) -> bool:
        if i == len(form):
            return True
        if form[i] == SAID_GAP:
            return any(held_at(i + 1, j + k) for k in range(1, SAID_GAP_MAX + 1))
        return j < len(said) and said[j] == form[i] and held_at(i + 1, j + 1)

    return any(held_at(0, start) for start, word in enumerate(said) if word == form[0])
