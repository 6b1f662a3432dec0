"""Memory files to `Memory` values: frontmatter, field validation and the rendered body.

Never raises on file content: every problem comes back as a `Problem` carrying path, line and field.
"""

from __future__ import annotations

import bisect
import datetime as dt
import difflib
import hashlib
import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from engram.clauses import CLAUSE_OPENING as _CLAUSE_OPENING
from engram.clauses import listed_exclusions as _listed_exclusions
from engram.clauses import negation_clauses as negation_clauses  # re-exported
from engram.clauses import sentences as _sentences
from engram.model import (
    AUTHORITIES,
    CONFIDENCES,
    LIFECYCLES,
    LOAD_MODES,
    SAFETY_KINDS,
    TYPES,
    Memory,
    Problem,
)
from engram.sections import HEADING as _HEADING
from engram.sections import HIDDEN_TITLES as HIDDEN_TITLES  # re-exported: part of parse's API
from engram.sections import closes_fence as _closes_fence
from engram.sections import opens_fence as _opens_fence
from engram.sections import rendered_lines as rendered_lines  # re-exported
from engram.sections import sections as _sections
from engram.sections import split_frontmatter as _split_frontmatter
from engram.sections import split_lines as _split_lines
from engram.sections import trim_blank as _trim_blank

# A memory is a note for an agent; anything larger is a document and would swamp a context pack.
MAX_FILE_BYTES = 256 * 1024
MAX_ID_CHARS = 80
# Card text of last resort; render cuts cards to 160, so 200 leaves it room to cut at a word.
MAX_FIRST_SENTENCE_CHARS = 200

ID_RE = re.compile(r"[a-z0-9][a-z0-9._-]*")
_TYPES_HINT = " (rule, skill or knowledge)"
LEVELS = {"foundation": 0, "basic": 0, "core": 0, "intermediate": 1, "advanced": 2}
KNOWN_KEYS = (
    "id", "type", "directive", "summary", "tags", "triggers", "applies_to", "depends_on",
    "level", "confidence", "authority", "roles", "role", "lifecycle", "review_after",
    "valid_from", "valid_until", "sources", "superseded_by", "load", "safety",
)  # fmt: skip

_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[[ xX]\])?[ \t]+")
_THEMATIC_BREAK = re.compile(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})")
_ITEM_LEADS = frozenset("-*+")
_FENCE_LEADS = frozenset("`~")
_BREAK_LEADS = frozenset("-*_")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# A sentence ends at . ! or ? followed by white space; these abbreviations do not end one.


# --- Frontmatter -----------------------------------------------------------------------------


def parse_memory(
    raw: bytes, *, display_path: str, scope: str, rel_path: str
) -> tuple[Memory | None, list[Problem]]:
    """Parse one memory file's bytes: `(memory, warnings)`, or `(None, problems)` if invalid."""
    report = _Report(display_path)
    if len(raw) > MAX_FILE_BYTES:
        report.error(1, "file", f"{len(raw)} bytes is over the {MAX_FILE_BYTES // 1024} KiB "
                     "limit for a memory (split it, or keep it as a document and link to it)")
        return None, report.problems
    text = _decode(raw, report)
    if text is None:
        return None, report.problems
    lines = _split_lines(text)
    closing = _split_frontmatter(lines)
    if closing is None:
        report.error(1, "frontmatter", "no frontmatter: the file must start with a '---' line")
        return None, report.problems
    if closing < 0:
        report.error(1, "frontmatter", "no closing '---' line after the frontmatter")
        return None, report.problems
    fields = _load_frontmatter("\n".join(lines[1:closing]), report)
    if fields is None:
        return None, report.problems
    body_lines = list(enumerate(lines[closing + 1:], start=closing + 2))
    memory = _build(fields, report, raw, scope, rel_path, body_lines)
    return memory, report.problems


class _Report:
    """Collects problems for one file, so validation can report all of them, not the first."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []

    def error(self, line: int, field: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, field, message))

    def warning(self, line: int, field: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, field, message, severity="warning"))

    @property
    def failed(self) -> bool:
        return any(p.severity == "error" for p in self.problems)


def _decode(raw: bytes, report: _Report) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        report.error(line, "file", f"not valid UTF-8 (byte {exc.start}); save the file as UTF-8")
        return None
    if "\x00" in text:
        # NUL never occurs in Markdown; it means an image, archive or UTF-16 file named *.md.
        report.error(1, "file", "binary file (contains NUL bytes), not Markdown text")
        return None
    return text.removeprefix("\ufeff")  # editors on Windows add a BOM; it is not content


class _Fields:
    """The frontmatter's top-level keys: value and 1-based file line of each."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.lines: dict[str, int] = {}
        self.unreadable: set[str] = set()  # keys whose value YAML could not construct (reported)

    def line(self, key: str) -> int:
        return self.lines.get(key, 1)


# The characters PyYAML's reader refuses (its NON_PRINTABLE set), listed rather than written as
# the negation of the allowed ranges: a negated class over all of Unicode took 5 ms to compile,
# paid at import by every process that parses a memory.
_NON_PRINTABLE = re.compile(
    "[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]")


def _load_frontmatter(source: str, report: _Report) -> _Fields | None:
    # Lazy: yaml costs ~10 ms to import and warm `load` reads the index, not the files.
    import yaml

    # PyYAML counts more characters as line breaks than editors do; map offsets to lines ourselves.
    starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def line_of(mark: yaml.Mark | None) -> int:
        if mark is None:
            return 1
        return bisect.bisect_right(starts, mark.index) + 1  # frontmatter line 1 is file line 2

    try:
        # libyaml's loader when PyYAML has it (several times faster on a cold index); the pure
        # one for text with characters YAML forbids, since only it says where they are.
        fast = getattr(yaml, "CSafeLoader", None)
        loader = (fast if fast is not None and not _NON_PRINTABLE.search(source)
                  else yaml.SafeLoader)(source)
    except yaml.reader.ReaderError as exc:
        line = source.count("\n", 0, exc.position) + 2
        report.error(line, "frontmatter", f"character {exc.character!r} is not allowed in YAML")
        return None
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            problem = exc.problem or exc.context or "cannot be parsed"
            line = line_of(exc.problem_mark)
            lines = source.split("\n")
            text = lines[line - 2] if 0 <= line - 2 < len(lines) else ""
            report.error(line, "frontmatter",
                         f"YAML syntax error: {problem}{_yaml_hint(problem, text)}")
            return None
        except RecursionError:
            report.error(1, "frontmatter", "YAML nested too deeply to read")
            return None
        except (yaml.YAMLError, ValueError) as exc:
            report.error(1, "frontmatter", f"YAML syntax error: {_first_line(str(exc))}")
            return None
        if node is None:
            report.error(1, "frontmatter", "frontmatter is empty; `id` and `type` are required")
            return None
        if not isinstance(node, yaml.MappingNode):
            got = "a list" if isinstance(node, yaml.SequenceNode) else "a single value"
            report.error(2, "frontmatter", f"expected a mapping of `key: value` lines, got {got}")
            return None
        try:
            loader.flatten_mapping(node)  # resolves `<<` merge keys, as safe_load would
        except (yaml.YAMLError, ValueError, RecursionError) as exc:
            report.error(line_of(node.start_mark), "frontmatter", _first_line(str(exc)))
            return None
        fields = _Fields()
        for key_node, value_node in node.value:
            line = line_of(key_node.start_mark)
            try:
                key = _construct(loader, key_node)
            except (yaml.YAMLError, ValueError, TypeError, RecursionError):
                key = None
            name = key if isinstance(key, str) else None
            if name is None and key is not None and isinstance(key_node, yaml.ScalarNode):
                name = str(key_node.value)  # `1: x` and `yes: x` are keys too, just unknown ones
            if not name or not name.strip():
                report.warning(line, "frontmatter", "an entry without a plain key name; ignored")
                continue
            if name in fields.values:
                first = fields.lines[name]
                report.error(line, _shown_key(name), f"duplicate key (first on line {first})")
                continue
            try:
                value = _construct(loader, value_node)
            except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError) as exc:
                if isinstance(value_node, yaml.ScalarNode) and isinstance(exc, ValueError):
                    # PyYAML raises a bare ValueError for impossible dates such as 2027-02-30.
                    message = f"invalid value {value_node.value!r}: {_first_line(str(exc))}"
                elif isinstance(exc, yaml.MarkedYAMLError):
                    message = exc.problem or _first_line(str(exc))
                else:
                    message = _first_line(str(exc)) or "cannot be read"
                report.error(line, _shown_key(name), message)
                fields.lines[name] = line
                fields.unreadable.add(name)
                continue
            fields.values[name] = value
            fields.lines[name] = line
        return fields
    finally:
        loader.dispose()


_STR_TAG = "tag:yaml.org,2002:str"
_SEQ_TAG = "tag:yaml.org,2002:seq"


def _construct(loader: Any, node: Any) -> Any:
    """`loader.construct_object(node, deep=True)`: text and lists of text, most of any
    frontmatter, are read straight off the nodes (the value the safe constructor gives them),
    without its per-node machinery (a first index reads every file's frontmatter)."""
    if node.tag == _STR_TAG and node.id == "scalar":
        return node.value
    if node.tag == _SEQ_TAG and node.id == "sequence" and all(
            item.tag == _STR_TAG and item.id == "scalar" for item in node.value):
        return [item.value for item in node.value]
    return loader.construct_object(node, deep=True)


_QUOTE_STARTS = tuple("*&!@`%{|>")
# Keys other tools' rule files use, and where engram keeps the same meaning (engram import
# converts whole files).
_FOREIGN_KEYS = {
    "description": "; engram calls it summary",
    "globs": "; engram calls it applies_to (a list of globs)",
    "applyTo": "; engram calls it applies_to (a list of globs)",
    "paths": "; engram calls it applies_to (a list of globs)",
    "alwaysApply": "; engram writes `load: always`",
    "name": "; engram calls it id",
}


def _yaml_hint(problem: str, line: str) -> str:
    """What to write instead, for the YAML mistakes people make in frontmatter."""
    key, sep, value = line.partition(":")
    value = value.strip()
    quoted = f'{key.strip()}: {json.dumps(value, ensure_ascii=False)}' if sep and value else ""
    if "expected ',' or ']'" in problem or "sequence entries are not allowed" in problem:
        return "; write a list as [a, b] (closed) or one `- item` per line below the key"
    if "mapping values are not allowed" in problem and quoted:
        return f"; quote it (a value holding `: ` must be quoted): {quoted}"
    if value.startswith(_QUOTE_STARTS) and quoted:
        return f"; quote it (a value starting with {value[0]} must be quoted): {quoted}"
    if "end of stream" in problem and value.count('"') % 2:
        return "; close the quote"
    return ""


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


# --- Field validation ------------------------------------------------------------------------


def _describe(value: object) -> str:
    """How a wrong value reads in a message: short, and never the whole value."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no value; quote it to keep it as text)"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return repr(shown)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dt.datetime):
        return "a date and time"
    if isinstance(value, dt.date):
        return "a date"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _shown_key(key: str) -> str:
    """A key as a Problem's field: one short printable line, whatever the YAML held."""
    if key.isprintable() and len(key) <= 60:
        return key
    return repr(key if len(key) <= 60 else key[:57] + "...")


def _suggest(word: str, choices: tuple[str, ...] | list[str]) -> str:
    match = difflib.get_close_matches(word.lower(), choices, n=1, cutoff=0.7)
    return f"; did you mean {match[0]}?" if match else ""


class _Validator:
    """Reads typed fields out of `_Fields`, reporting each bad value at its key's line."""

    def __init__(self, fields: _Fields, report: _Report) -> None:
        self.fields = fields
        self.report = report

    def required(self, key: str, hint: str = "") -> bool:
        """Whether a required key has a value; reports it missing or empty when not."""
        if key in self.fields.unreadable:
            return False  # already reported by the YAML reader
        if key not in self.fields.lines:
            self.report.error(1, key, "required field is missing" + hint)
            return False
        if self.fields.values.get(key) is None:
            self.error(key, "required field is empty" + hint)
            return False
        return True

    def error(self, key: str, message: str) -> None:
        self.report.error(self.fields.line(key), key, message)

    def text(self, key: str, *, one_line: bool = False) -> str | None:
        value = self.fields.values.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            self.error(key, f"expected text, got {_describe(value)}")
            return None
        value = value.strip()
        if one_line and "\n" in value:
            self.error(key, "must be one line (put the detail in summary or the body)")
            return None
        return value or None

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.fields.values.get(key)
        if value is None:
            return default
        allowed = " | ".join(choices)
        if not isinstance(value, str):
            self.error(key, f"expected one of {allowed}, got {_describe(value)}")
            return default
        normal = value.strip().lower().replace("-", "_")
        if normal not in choices:
            self.error(key, f"expected one of {allowed}, got {_describe(value)}"
                       + _suggest(normal, choices))
            return default
        return normal

    def identifier(self, key: str) -> str | None:
        value = self.fields.values.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            hint = " (quote it)" if isinstance(value, int | float) else ""
            self.error(key, f"expected an id, got {_describe(value)}{hint}")
            return None
        problem = _id_problem(value.strip())
        if problem:
            self.error(key, problem)
            return None
        return value.strip()

    def strings(self, key: str, *, what: str = "strings", coerce_numbers: bool = False,
                check: Callable[[str], str | None] | None = None) -> tuple[str, ...]:
        value = self.fields.values.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]  # `tags: release` means `tags: [release]`
        if not isinstance(value, list):
            self.error(key, f"expected a list of {what}, got {_describe(value)}")
            return ()
        items: list[str] = []
        for position, item in enumerate(value, start=1):
            if coerce_numbers and isinstance(item, int | float) and not isinstance(item, bool):
                item = str(item)
            if not isinstance(item, str) or not item.strip():
                shown = "an empty string" if isinstance(item, str) else _describe(item)
                self.error(key, f"item {position}: expected a non-empty string, got {shown}")
                continue
            item = item.strip()
            problem = check(item) if check else None
            if problem:
                self.error(key, f"item {position}: {problem}")
                continue
            if item not in items:
                items.append(item)
        return tuple(items)

    def date(self, key: str) -> str | None:
        value = self.fields.values.get(key)
        if value is None:
            return None
        if isinstance(value, dt.datetime):
            self.error(key, "expected a date YYYY-MM-DD, got a date and time")
            return None
        if isinstance(value, dt.date):
            return value.isoformat()
        if isinstance(value, str) and _DATE_RE.fullmatch(value.strip()):
            try:
                return dt.date.fromisoformat(value.strip()).isoformat()
            except ValueError:
                self.error(key, f"{value.strip()!r} is not a real date")
                return None
        self.error(key, f"expected a date YYYY-MM-DD, got {_describe(value)}")
        return None

    def level(self) -> int | None:
        value = self.fields.values.get("level")
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        if isinstance(value, str):
            word = value.strip().lower()
            if word in LEVELS:
                return LEVELS[word]
            if word.isdigit() and word.isascii():
                return int(word)
        names = ", ".join(LEVELS)
        self.error("level", f"expected {names} or a non-negative integer, got {_describe(value)}")
        return None

    def safety_allow(self) -> tuple[str, ...]:
        value = self.fields.values.get("safety")
        if value is None:
            return ()
        if not isinstance(value, dict):
            got = _describe(value)
            self.error("safety", f"expected a mapping like `allow: [secret]`, got {got}")
            return ()
        for extra in value:
            if extra != "allow":
                self.error("safety", f"unknown key {str(extra)!r}; the only key is allow")
        allow = value.get("allow")
        if allow is None:
            return ()
        if isinstance(allow, str):
            allow = [allow]
        if not isinstance(allow, list):
            self.error("safety", f"allow: expected a list of kinds, got {_describe(allow)}")
            return ()
        kinds: list[str] = []
        for position, kind in enumerate(allow, start=1):
            if not isinstance(kind, str) or not kind.strip():
                self.error("safety", f"allow: item {position}: expected a kind such as secret, "
                           f"got {_describe(kind)}")
            elif kind.strip().lower() not in kinds:
                kinds.append(kind.strip().lower())
                if kinds[-1] not in SAFETY_KINDS:
                    # A typo would silently leave the memory withheld: say so, but keep it.
                    hint = _suggest(kinds[-1], SAFETY_KINDS)
                    self.report.warning(self.fields.line("safety"), "safety",
                                        f"allow: unknown kind {kinds[-1]!r}{hint}; kinds are "
                                        + ", ".join(SAFETY_KINDS))
        return tuple(kinds)


def _id_problem(value: str) -> str | None:
    if not value:
        return "an id cannot be empty"
    if len(value) > MAX_ID_CHARS:
        return f"an id is at most {MAX_ID_CHARS} characters, this one has {len(value)}"
    if not ID_RE.fullmatch(value):
        return (f"{_describe(value)} is not a valid id: use lower-case letters, digits, '.', '_' "
                "and '-', starting with a letter or digit")
    return None


def _build(fields: _Fields, report: _Report, raw: bytes, scope: str, rel_path: str,
           body_lines: list[tuple[int, str]]) -> Memory | None:
    check = _Validator(fields, report)
    for key in fields.values:
        if key not in KNOWN_KEYS:
            hint = _FOREIGN_KEYS.get(key) or _suggest(key, KNOWN_KEYS)
            report.warning(fields.line(key), _shown_key(key), "unknown key, ignored" + hint)

    ident = check.identifier("id") if check.required("id") else None
    kind = check.choice("type", TYPES, "") if check.required("type", _TYPES_HINT) else None

    if "roles" in fields.values and "role" in fields.values:
        check.error("role", "both `role` and `roles` are set; keep only `roles`")
    roles = check.strings("roles" if "roles" in fields.values else "role")
    depends_on = check.strings("depends_on", what="ids", check=_id_problem)
    if ident and ident in depends_on:
        check.report.warning(fields.line("depends_on"), "depends_on", "a memory cannot depend on "
                             "itself; entry ignored")
        depends_on = tuple(d for d in depends_on if d != ident)
    values: dict[str, Any] = {
        "directive": check.text("directive", one_line=True),
        "summary": check.text("summary"),
        "tags": check.strings("tags", coerce_numbers=True),
        "triggers": check.strings("triggers", what="phrases", coerce_numbers=True),
        "applies_to": check.strings("applies_to", what="glob patterns"),
        "depends_on": depends_on,
        "level": check.level(),
        "confidence": check.choice("confidence", CONFIDENCES, "medium"),
        "authority": check.choice("authority", AUTHORITIES,
                                  "reference" if kind == "knowledge" else "instruction"),
        "roles": roles,
        "lifecycle": check.choice("lifecycle", LIFECYCLES, "active"),
        "review_after": check.date("review_after"),
        "valid_from": check.date("valid_from"),
        "valid_until": check.date("valid_until"),
        "sources": check.strings("sources", what="file paths"),
        "superseded_by": check.identifier("superseded_by"),
        "load": check.choice("load", LOAD_MODES, "auto"),
        "safety_allow": check.safety_allow(),
    }
    vf, vu = values["valid_from"], values["valid_until"]
    if vf and vu and vf > vu:
        check.error("valid_until", f"{vu} is before valid_from {vf}; the memory would never apply")
    if report.failed or not ident or not kind:
        return None

    body = list(_sections(body_lines))
    rendered = _trim_blank([(n, t) for n, t, state in body if state == "shown"])
    indexed = _trim_blank([(n, t) for n, t, state in body if state in ("shown", "context")])
    paragraph = _first_paragraph([t for _, t in rendered])
    indexed_body = "\n".join(t for _, t in indexed)
    # Authors put "Do not use this for X" anywhere, often as a memory's last line.
    paragraphs = (_prose_paragraphs([t for _, t in indexed])
                  if _CLAUSE_OPENING.search(indexed_body) else ())
    negations = _unique(itertools.chain(
        (clause
         for text in (values["summary"], values["directive"], *paragraphs)
         if text
         for clause in negation_clauses(text)),
        _listed_exclusions(indexed_body)))
    return Memory(
        id=ident,
        type=kind,
        scope=scope,
        rel_path=rel_path,
        sha256=hashlib.sha256(raw).hexdigest(),
        indexed_body=indexed_body,
        first_sentence=_first_sentence(paragraph),
        negations=negations,
        unknown_keys=tuple(k for k in fields.values if k not in KNOWN_KEYS),
        **values,
    )


# --- Body ------------------------------------------------------------------------------------


def _first_paragraph(lines: list[str]) -> list[str]:
    """The first prose paragraph: headings, code, tables, rules and HTML skipped; list and quote
    markers stripped. One list item counts as one paragraph."""
    return _paragraph_at(lines, 0)[0]


def _prose_paragraphs(lines: list[str]) -> Iterator[str]:
    """Every prose paragraph of the body, each joined to one line: code, headings, tables and
    HTML left out. A list item is a paragraph of its own."""
    start = 0
    while start < len(lines):
        paragraph, end = _paragraph_at(lines, start)
        if paragraph:
            yield " ".join(paragraph)
        start = max(end, start + 1)


def _paragraph_at(lines: list[str], start: int) -> tuple[list[str], int]:
    """The first prose paragraph from lines[start], and the index of the line that ended it."""
    paragraph: list[str] = []
    fence: str | None = None
    for n in range(start, len(lines)):
        text = lines[n]
        if fence is not None:
            if _closes_fence(fence, text):
                fence = None
            continue
        stripped = text.strip()
        while stripped.startswith(">"):
            stripped = stripped[1:].strip()
        # Each pattern below can only match on its own first character: most lines are prose,
        # and a character test is far cheaper than a failed match.
        lead = stripped[:1]
        item = _LIST_MARKER.match(stripped) if lead in _ITEM_LEADS or lead.isdigit() else None
        opened = _opens_fence(text) if lead in _FENCE_LEADS else None
        ends = (not stripped or opened is not None
                or lead == "#" and _HEADING.fullmatch(stripped) is not None
                or lead in _BREAK_LEADS and _THEMATIC_BREAK.fullmatch(stripped) is not None)
        if paragraph:
            if ends or item:
                return [line for line in paragraph if line], n
            paragraph.append(stripped)
            continue
        fence = opened
        # Indented code (4 spaces) cannot interrupt a paragraph, but it cannot start one either.
        if ends or text.startswith(("    ", "\t")) or stripped.startswith(("|", "<")):
            continue
        paragraph.append(stripped[item.end():] if item else stripped)
    return [line for line in paragraph if line], len(lines)


def _first_sentence(paragraph: list[str]) -> str:
    text = " ".join(" ".join(paragraph).split())
    text = _LINK.sub(r"\1", text).replace("**", "")
    sentence = next(_sentences(text), "")
    if len(sentence) > MAX_FIRST_SENTENCE_CHARS:
        cut = sentence[: MAX_FIRST_SENTENCE_CHARS - 1]
        cut = cut.rsplit(" ", 1)[0] if " " in cut else cut
        sentence = cut.rstrip(" ,;:") + "…"
    return sentence


def _unique(items: Iterator[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
