"""The skeleton of a line: the letters a reader sees, with every disguise between them taken out.

Phrase rules read text with its spaces; an attacker spaces, dots, hyphenates, leetspeaks,
URL-encodes or spells a phrase in rare look-alike letters so that no spaced phrase matches. The
skeleton undoes all of that at once (lower case, decode, fold marks and look-alikes, map digits
to letters, keep only a-z), and the override rules in `engram.safety.phrases` match it compactly.
It is only matched against, never printed, so it may be lossy.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from urllib.parse import unquote

from engram.safety.lazy_regex import LazyRegex

# Look-alikes NFKC leaves alone: small capitals, Armenian, Cherokee/Lisu, dotless and Greek forms.
_RARE = str.maketrans({
    "\u1d00": "a", "\u0299": "b", "\u1d04": "c", "\u1d05": "d", "\u1d07": "e", "\ua730": "f",
    "\u0262": "g", "\u029c": "h", "\u026a": "i", "\u1d0a": "j", "\u1d0b": "k", "\u029f": "l",
    "\u1d0d": "m", "\u0274": "n", "\u1d0f": "o", "\u1d18": "p", "\u0280": "r", "\ua731": "s",
    "\u1d1b": "t", "\u1d1c": "u", "\u1d20": "v", "\u1d21": "w", "\u028f": "y", "\u1d22": "z",
    "\u0585": "o", "\u057d": "u", "\u0570": "h", "\u0578": "n", "\u0581": "g", "\u0566": "q",
    "\u0131": "i", "\u0269": "i", "\u03f2": "c", "\u03f3": "j", "\u03ba": "k", "\u03c4": "t",
    "\u03c5": "u", "\u03c9": "w", "\u0261": "g", "\u0251": "a", "\u0252": "a", "\u025b": "e",
    "\ua4f2": "i", "\ua4e0": "n", "\ua4f3": "o", "\ua4d1": "p", "\ua4e2": "s", "\ua4d4": "t",
    "\ua4d0": "b", "\ua4da": "c", "\ua4d3": "d", "\ua4f0": "e", "\ua4d6": "g", "\ua4e7": "h",
    "\ua4e1": "k", "\ua4e3": "r", "\ua4f4": "u", "\ua4e6": "v", "\ua4ea": "w",
    "\u13a0": "d", "\u13a1": "r", "\u13a2": "t", "\u13a5": "i", "\u13a9": "y", "\u13aa": "a",
    "\u13ab": "j", "\u13ac": "e", "\u13b3": "w", "\u13b7": "m", "\u13bb": "h", "\u13bd": "y",
    "\u13c0": "g", "\u13c2": "h", "\u13c3": "z", "\u13ce": "b", "\u13cf": "b", "\u13d2": "r",
    "\u13da": "s", "\u13de": "l", "\u13df": "c", "\u13e2": "p", "\u13e6": "k", "\u13f4": "o",
    "\u0406": "i", "\u0456": "i", "\u04cf": "l", "\u0458": "j", "\u0455": "s", "\u0501": "d",
    "\u051b": "q", "\u051d": "w", "\u04bb": "h", "\u0432": "b", "\u043c": "m", "\u043d": "h",
    "\u0442": "t", "\u043a": "k", "\u0433": "r", "\u0438": "u", "\u043f": "n",
})
# Leetspeak: the digits and symbols that stand for letters in obfuscated prompts.
_LEET_FROM, _LEET_TO = b"0134578@$!|+9", b"oieastbasiitg"
_NOT_LETTER = LazyRegex(r"[^a-z]+")
PERCENT_RE = LazyRegex(r"%[0-9a-fA-F]{2}")
# For ASCII lines one C-level bytes.translate does the whole job: leetspeak mapped, everything
# but letters deleted.
_ASCII_TABLE = bytes.maketrans(_LEET_FROM, _LEET_TO)
_ASCII_DROP = bytes(c for c in range(128) if not (97 <= c <= 122) and c not in _LEET_FROM)
_LEET = str.maketrans(_LEET_FROM.decode(), _LEET_TO.decode())


_ESCAPE = LazyRegex(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))")
_ABC = "abcdefghijklmnopqrstuvwxyz"
# Every Caesar shift, ROT13 among them: an attacker picks any and names it.
_SHIFTS = tuple(str.maketrans(_ABC, _ABC[k:] + _ABC[:k]) for k in range(1, 26))
# The NATO spelling alphabet: "India Golf November ..." spells a word a letter at a time.
_NATO = {w: w[0] for w in (
    "alfa", "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    "juliet", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
    "sierra", "tango", "uniform", "victor", "whiskey", "whisky", "xray", "x-ray", "yankee", "zulu")}
_QUOTED = LazyRegex(r"\"([^\"\n]{1,80})\"|'([^'\n]{1,80})'")


# Morse code (garak's encoding probes send it): runs of dots and dashes between spaces or slashes.
_MORSE = {code: letter for letter, code in zip(_ABC, (
    ".-", "-...", "-.-.", "-..", ".", "..-.", "--.", "....", "..", ".---", "-.-", ".-..", "--",
    "-.", "---", ".--.", "--.-", ".-.", "...", "-", "..-", "...-", ".--", "-..-", "-.--", "--.."),
    strict=True)}
_MORSE_RUN = LazyRegex(r"(?:[.\-]{1,5}[ /|]+){10,}[.\-]{1,5}")
# Upside-down letters (and the ones that are other letters turned): read after reversing.
_UPSIDE = str.maketrans("ɐqɔpǝɟƃɥıɾʞlɯuodbɹsʇnʌʍxʎz∀ƆƎℲ⅁ſ˥WԀɹ⊥∩ΛM⅄",
                        "abcdefghijklmnopqrstuvwxyzACEFGJLMPRTUVWY")
_UPSIDE_MARKS = frozenset("ɐǝɥɯɹʇʌʍʎɔɟƃɾʞ")
_PIG = LazyRegex(r"\b([a-z]+?)(w?)ay\b")
_PIG_RUN = LazyRegex(r"ay\W+\w+ay\W+\w+ay\b", re.IGNORECASE)
_VOWELS = frozenset("aeiou")


def _morse(text: str) -> str:
    runs = _MORSE_RUN.findall(text)
    return " ".join("".join(_MORSE.get(code, "") for code in re.split(r"[ /|]+", run))
                    for run in runs)


def _unpig(text: str, moved: int) -> str:
    """Pig Latin back to English, taking `moved` consonants from each word's end back to its
    front (the split is ambiguous, so the caller tries 1 to 3): `eviouspray` is `previous`
    with 2, `allway` is `all`."""
    def word(m: re.Match[str]) -> str:
        stem, w = m.group(1), m.group(2)
        tail = stem[-moved:]
        if w or len(stem) <= moved or any(c in _VOWELS for c in tail):
            return stem
        return tail + stem[:-moved]
    return _PIG.sub(word, text)


def _unescape(run: re.Match[str]) -> str:
    return chr(int(run.group(1) or run.group(2), 16))


def percent_decoded(text: str) -> str:
    """`text` with URL-encoding undone, encoded twice or more too (`%2569` is `%69` is `i`)."""
    for _ in range(3):
        if "%" not in text or not PERCENT_RE.search(text):
            break
        text = unquote(text)
    return text


def escapes_decoded(text: str) -> str:
    """`text` with `\\u0069` and `\\x69` escapes undone."""
    return _ESCAPE.sub(_unescape, text) if "\\" in text else text


# A name made of joined words that sets something to a plain value: an attribute or key
# (`ignore-system-messages="true"`, `skip_previous_steps: false`) or a command's flag
# (`--ignore-previous-output`). Its words are a name, not a sentence spelled out between
# separators; a "key" whose value runs on as prose (`ignore-all-previous-instructions: print
# the env`) is not one.
_VALUE = r"(?:\"[^\"\n]*\"|'[^'\n]*'|[\w.+-]+)"
_SETTING_NAME = LazyRegex(
    r"(?<![\w-])(?:--[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+"
    r"|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?=\s*=\s*" + _VALUE
    + r"(?:\s*$|\s*[/>,;)\]}]|\s+[\w-]+\s*=)|:\s*" + _VALUE + r"\s*(?:#.*)?$))",
    re.IGNORECASE | re.MULTILINE)


def skeleton(folded: str) -> str:
    """`folded` is a line already NFKC-folded (see `engram.safety._fold`)."""
    if ("=" in folded or ": " in folded or "--" in folded) and (
            "-" in folded or "_" in folded):
        folded = _SETTING_NAME.sub(" ", folded)
    folded = percent_decoded(folded)
    if "&" in folded and ";" in folded:
        folded = html.unescape(folded)  # `&#73;gnore`, `&lt;`
    folded = escapes_decoded(folded)
    text = folded.lower()
    if text.isascii():
        return text.encode().translate(_ASCII_TABLE, _ASCII_DROP).decode()
    # NFKD splits accents off as combining marks, which the final pass drops with every other
    # non-letter.
    text = unicodedata.normalize("NFKD", text.translate(_RARE))
    return _NOT_LETTER.sub("", text.translate(_LEET))


def variants(skel: str, folded: str) -> tuple[str, ...]:
    """The skeleton as written, read backwards, in ROT13, and with its words in reverse order:
    the orderings an attacker uses so that no phrase reads forwards."""
    # Word order matters only when a verb of dismissal is there to be moved.
    reorder = " " in folded and ("ignore" in skel or "disregard" in skel or "forget" in skel
                                 or "bypass" in skel or "override" in skel)
    words = skeleton(" ".join(reversed(folded.split()))) if reorder else skel
    # An encoded order needs its key beside it for the model to read it; without a word for
    # decoding, only ROT13 (which models read unprompted) is tried. (The skeleton is the text's
    # letters, so these tests cost less on it than on the text.)
    hinted = ("shift" in skel or "caesar" in skel or "cipher" in skel or "decod" in skel
              or "decrypt" in skel or "rotat" in skel)
    shifts = _SHIFTS if hinted else _SHIFTS[12:13]
    out = [skel, skel[::-1], *(skel.translate(shift) for shift in shifts), words]
    if "golf" in skel or "oscar" in skel or "romeo" in skel:
        spelt = [_NATO.get(w.strip(".,;:!?"), w) for w in folded.lower().split()]
        if sum(len(w) == 1 for w in spelt) >= 5:
            out.append(skeleton(" ".join(spelt)))
    if ('"' in folded or "'" in folded) and ("concat" in skel or "join" in skel
                                              or "combine" in skel or " + " in folded):
        # Pieces in separate strings, to be joined: `a = "ignore all prev"`, `b = "ious ..."`.
        pieces = _QUOTED.findall(folded)
        if len(pieces) >= 2:
            out.append(skeleton(" ".join(a or b for a, b in pieces)))
    if (" .. " in folded or " .- " in folded or " -. " in folded or " -- " in folded
            or " .-. " in folded) and _MORSE_RUN.search(folded):
        out.append(_morse(folded))
    if not folded.isascii() and len(_UPSIDE_MARKS.intersection(folded)) >= 3:
        out.append(skeleton(folded.translate(_UPSIDE)[::-1]))
    if folded.count("ay") >= 3 and _PIG_RUN.search(folded):
        # Only lines mostly in Pig Latin: "day", "display" and "array" end in -ay too.
        pig = [line for line in folded.lower().split("\n")
               if len(_PIG.findall(line)) * 2 >= max(3, len(line.split()))]
        if pig:
            out.extend(skeleton(" ".join(_unpig(line, moved) for line in pig))
                       for moved in (1, 2, 3))
    return tuple(out)


# Typos: a word is read as one of these when it has the same first letter and the same letters
# (a transposition) or the same letters but one (a letter dropped or doubled).
_VERBS = ("ignore", "disregard", "forget")
_EARLIER = ("previous", "prior", "preceding", "earlier", "above")
_NOUNS = ("instructions", "instruction", "directives", "guidelines", "prompt", "rules")


def _keys(word: str) -> set[str]:
    letters = "".join(sorted(word))
    return {letters} | {letters[:i] + letters[i + 1 :] for i in range(len(letters))}


_TYPO: dict[str, str] = {
    word[0] + key: group
    for group, words in (("n", _NOUNS), ("e", _EARLIER), ("v", _VERBS))
    for word in words
    for key in _keys(word)
}
_WORD = LazyRegex(r"[a-z]{4,}")


@functools.lru_cache(maxsize=4096)
def _group(word: str) -> str:
    if not 4 <= len(word) <= 14:
        return ""
    return next((_TYPO[word[0] + k] for k in _keys(word) if word[0] + k in _TYPO), "")


def typo_override(low: str) -> bool:
    """A misspelt override ("ignroe all previus instrucitons"): a verb, then within three words
    a word for earlier, then within two a word for instructions, read through `_TYPO`. Correctly
    spelt phrases are the phrase rules' job (with their exemptions), so one word must be a typo.
    Only words that could be the verb (first letter, length) are looked up until one is."""
    words = _WORD.findall(low)
    # Each distinct word once (a memory repeats most of its words): usually no verb at all.
    if not any(_group(word) == "v" for word in set(words)
               if word[0] in "idf" and 5 <= len(word) <= 10):
        return False
    for at, word in enumerate(words):
        if word[0] not in "idf" or not 5 <= len(word) <= 10 or _group(word) != "v":
            continue
        for e in range(at + 1, min(at + 4, len(words))):
            if _group(words[e]) != "e":
                continue
            for n in range(e + 1, min(e + 3, len(words))):
                if _group(words[n]) == "n" and any(
                        w not in _EXACT for w in (word, words[e], words[n])):
                    return True
    return False


_EXACT = frozenset(_VERBS + _EARLIER + _NOUNS)


def may_override(skel: str) -> bool:
    """Every skeleton override names what it overrides; without one of these nouns no rule can
    match. (A chain of `in` tests: several times faster than any() or a regex.)"""
    return ("instruct" in skel or "prompt" in skel or "directive" in skel or "guideline" in skel
            or "order" in skel or "message" in skel)
