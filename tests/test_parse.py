"""parse.py on real files: every field, defaults, each error with its line, hidden sections."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import write_memory
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.model import Memory, Problem
from engram.parse import MAX_FILE_BYTES, negation_clauses, parse_memory, rendered_lines

FULL = """\
---
id: release-checklist
type: rule
directive: Run the release checklist before tagging a version.
summary: Steps and checks that gate every release tag.
tags: [release, versioning]
triggers: ["cut a release", "tag a version"]
applies_to: ["CHANGELOG.md", "scripts/release/**"]
depends_on: [release-foundation]
level: advanced
confidence: high
authority: reference
roles: [maintainer]
lifecycle: review_due
review_after: 2027-03-01
valid_from: 2026-01-01
valid_until: "2028-12-31"
sources: [scripts/release.sh]
superseded_by: release-v2
load: always
safety:
  allow: [secret]
---
# Release checklist

1. Bump the version.
"""


def parse_file(path: Path, root: Path) -> tuple[Memory | None, list[Problem]]:
    rel = path.relative_to(root).as_posix()
    return parse_memory(path.read_bytes(), display_path=rel, scope="workspace", rel_path=rel)


def parse_text(tmp_path: Path, text: str, rel: str = "rules/x.md") -> tuple[
        Memory | None, list[Problem]]:
    return parse_file(write_memory(tmp_path, rel, text), tmp_path)


def parse_bytes(raw: bytes) -> tuple[Memory | None, list[Problem]]:
    return parse_memory(raw, display_path="rules/x.md", scope="global", rel_path="rules/x.md")


def minimal(extra: str = "", body: str = "Body text.\n") -> str:
    return f"---\nid: x\ntype: rule\n{extra}---\n{body}"


def only_error(problems: list[Problem]) -> Problem:
    errors = [p for p in problems if p.severity == "error"]
    assert len(errors) == 1, problems
    return errors[0]


def error_for(tmp_path: Path, extra: str) -> Problem:
    memory, problems = parse_text(tmp_path, minimal(extra))
    assert memory is None
    return only_error(problems)


# --- Fields and defaults ---------------------------------------------------------------------


def test_every_field_is_read(workspace: Path) -> None:
    path = write_memory(workspace / ".engram", "rules/release.md", FULL)
    memory, problems = parse_file(path, workspace / ".engram")
    assert problems == []
    assert memory is not None
    assert memory.id == "release-checklist"
    assert memory.type == "rule"
    assert memory.scope == "workspace"
    assert memory.rel_path == "rules/release.md"
    assert memory.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert memory.directive == "Run the release checklist before tagging a version."
    assert memory.summary == "Steps and checks that gate every release tag."
    assert memory.tags == ("release", "versioning")
    assert memory.triggers == ("cut a release", "tag a version")
    assert memory.applies_to == ("CHANGELOG.md", "scripts/release/**")
    assert memory.depends_on == ("release-foundation",)
    assert memory.level == 2
    assert memory.confidence == "high"
    assert memory.authority == "reference"
    assert memory.roles == ("maintainer",)
    assert memory.lifecycle == "review_due"
    assert memory.review_after == "2027-03-01"
    assert memory.valid_from == "2026-01-01"
    assert memory.valid_until == "2028-12-31"
    assert memory.sources == ("scripts/release.sh",)
    assert memory.superseded_by == "release-v2"
    assert memory.load == "always"
    assert memory.safety_allow == ("secret",)
    assert memory.unknown_keys == ()
    assert memory.card_text == memory.directive


def test_defaults(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, minimal())
    assert problems == []
    assert memory == Memory(
        id="x", type="rule", scope="workspace", rel_path="rules/x.md", sha256=memory.sha256,
        indexed_body="Body text.", first_sentence="Body text.",
    )
    assert memory.confidence == "medium"
    assert memory.authority == "instruction"
    assert memory.lifecycle == "active"
    assert memory.load == "auto"
    assert memory.level is None


@pytest.mark.parametrize(("kind", "authority"), [
    ("rule", "instruction"), ("skill", "instruction"), ("knowledge", "reference"),
])
def test_authority_default_depends_on_type(tmp_path: Path, kind: str, authority: str) -> None:
    memory, _ = parse_text(tmp_path, f"---\nid: x\ntype: {kind}\n---\n")
    assert memory is not None
    assert memory.authority == authority


def test_explicit_authority_overrides_the_type_default(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, "---\nid: x\ntype: knowledge\nauthority: instruction\n---\n")
    assert memory is not None
    assert memory.authority == "instruction"


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("tags", "release", ("release",)),
    ("triggers", "cut a release", ("cut a release",)),
    ("applies_to", "src/**/*.py", ("src/**/*.py",)),
    ("depends_on", "base-rule", ("base-rule",)),
    ("roles", "maintainer", ("maintainer",)),
    ("sources", "README.md", ("README.md",)),
])
def test_scalar_string_is_a_one_item_list(tmp_path: Path, field: str, value: str,
                                          expected: tuple[str, ...]) -> None:
    memory, problems = parse_text(tmp_path, minimal(f"{field}: {value}\n"))
    assert problems == []
    assert memory is not None
    assert getattr(memory, field) == expected


def test_role_is_an_alias_of_roles(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, minimal("role: reviewer\n"))
    assert memory is not None
    assert memory.roles == ("reviewer",)
    assert memory.unknown_keys == ()


def test_role_and_roles_together_is_an_error(tmp_path: Path) -> None:
    problem = error_for(tmp_path, "roles: [a]\nrole: b\n")
    assert (problem.line, problem.field) == (5, "role")


def test_numbers_in_tags_are_text(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, minimal("tags: [http2, 429, 3.5]\n"))
    assert memory is not None
    assert memory.tags == ("http2", "429", "3.5")


def test_list_items_are_stripped_and_deduplicated(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, minimal("tags: [' a ', a, b]\n"))
    assert memory is not None
    assert memory.tags == ("a", "b")


@pytest.mark.parametrize(("value", "level"), [
    ("foundation", 0), ("basic", 0), ("core", 0), ("intermediate", 1), ("advanced", 2),
    ("Advanced", 2), ("0", 0), ("5", 5), ("'3'", 3),
])
def test_level_names_and_numbers(tmp_path: Path, value: str, level: int) -> None:
    memory, _ = parse_text(tmp_path, minimal(f"level: {value}\n"))
    assert memory is not None
    assert memory.level == level


def test_dates_as_yaml_dates_or_strings(tmp_path: Path) -> None:
    extra = "review_after: 2027-03-01\nvalid_until: '2027-04-01'\n"
    memory, _ = parse_text(tmp_path, minimal(extra))
    assert memory is not None
    assert (memory.review_after, memory.valid_until) == ("2027-03-01", "2027-04-01")


def test_enum_values_are_case_insensitive(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, "---\nid: x\ntype: Skill\nconfidence: LOW\n"
                           "lifecycle: review-due\n---\n")
    assert memory is not None
    assert (memory.type, memory.confidence, memory.lifecycle) == ("skill", "low", "review_due")


def test_null_optional_fields_are_defaults(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, minimal("tags:\nsummary:\nlevel: ~\nconfidence:\n"))
    assert problems == []
    assert memory is not None
    assert (memory.tags, memory.summary, memory.level, memory.confidence) == ((), None, None,
                                                                              "medium")


def test_block_scalar_summary_is_kept_but_trimmed(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, minimal("summary: >\n  First sentence.\n  Second one.\n"))
    assert memory is not None
    assert memory.summary == "First sentence. Second one."


def test_safety_allow_accepts_a_scalar(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, minimal("safety: {allow: Secret}\n"))
    assert memory is not None
    assert memory.safety_allow == ("secret",)


def test_yaml_merge_keys_work_as_in_safe_load(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, "---\nbase: &b {type: rule}\n<<: *b\nid: x\n---\n")
    assert memory is not None
    assert memory.type == "rule"
    assert [p.field for p in problems] == ["base"]  # unknown key, still a warning


# --- Unknown keys ----------------------------------------------------------------------------


def test_odd_key_names_stay_on_one_line(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, minimal("? \"multi\\nline\"\n: 1\n"))
    assert memory is not None
    assert memory.unknown_keys == ("multi\nline",)
    assert str(problems[0]) == "rules/x.md:4: 'multi\\nline': unknown key, ignored"


def test_unknown_key_warns_with_suggestion_and_is_kept(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, minimal("depend_on: [a]\nowner: me\n"))
    assert memory is not None
    assert memory.unknown_keys == ("depend_on", "owner")
    assert memory.depends_on == ()
    typo, other = problems
    assert typo.severity == other.severity == "warning"
    assert str(typo) == "rules/x.md:4: depend_on: unknown key, ignored; did you mean depends_on?"
    assert str(other) == "rules/x.md:5: owner: unknown key, ignored"


# --- Errors: line, field, message ------------------------------------------------------------


def test_error_names_path_line_and_field(tmp_path: Path) -> None:
    problem = error_for(tmp_path, "depends_on: {a: 1}\n")
    assert str(problem) == "rules/x.md:4: depends_on: expected a list of ids, got a mapping"


@pytest.mark.parametrize(("extra", "field", "needle"), [
    ("tags: {a: 1}\n", "tags", "expected a list of strings, got a mapping"),
    ("tags: [a, [b]]\n", "tags", "item 2: expected a non-empty string, got a list"),
    ("tags: [a, '']\n", "tags", "item 2: expected a non-empty string, got an empty string"),
    ("triggers: 5\n", "triggers", "expected a list of phrases, got 5"),
    ("applies_to: [1]\n", "applies_to", "item 1: expected a non-empty string, got 1"),
    ("depends_on: [Bad Id]\n", "depends_on", "item 1: 'Bad Id' is not a valid id"),
    ("roles: true\n", "roles", "got true"),
    ("sources: [null]\n", "sources", "got nothing"),
    ("directive: [a]\n", "directive", "expected text, got a list"),
    ("directive: |\n  line one\n  line two\n", "directive", "must be one line"),
    ("summary: 42\n", "summary", "expected text, got 42"),
    ("level: expert\n", "level", "got 'expert'"),
    ("level: -1\n", "level", "non-negative integer, got -1"),
    ("level: 1.5\n", "level", "got 1.5"),
    ("confidence: certain\n", "confidence", "expected one of high | medium | low"),
    ("authority: law\n", "authority", "expected one of instruction | reference"),
    ("lifecycle: retired\n", "lifecycle", "expected one of active | review_due"),
    ("load: sometimes\n", "load", "expected one of auto | always"),
    ("review_after: soon\n", "review_after", "expected a date YYYY-MM-DD, got 'soon'"),
    ("review_after: 2027-02-30\n", "review_after", "2027-02-30"),
    ("valid_from: '2027-13-01'\n", "valid_from", "not a real date"),
    ("valid_until: 2027-03-01 10:00:00\n", "valid_until", "got a date and time"),
    ("valid_until: 20270301\n", "valid_until", "got 20270301"),
    ("superseded_by: Not An Id\n", "superseded_by", "is not a valid id"),
    ("superseded_by: 42\n", "superseded_by", "(quote it)"),
    ("safety: [secret]\n", "safety", "expected a mapping like `allow: [secret]`, got a list"),
    ("safety: {alow: [secret]}\n", "safety", "unknown key 'alow'"),
    ("safety: {allow: {a: 1}}\n", "safety", "allow: expected a list of kinds"),
    ("safety: {allow: [1]}\n", "safety", "allow: item 1"),
    ("tags: !!python/object:os.system ls\n", "tags", "python/object"),
    ("tags: !custom x\n", "tags", "!custom"),
])
def test_bad_values_are_errors_at_their_key(tmp_path: Path, extra: str, field: str,
                                             needle: str) -> None:
    problem = error_for(tmp_path, extra)
    assert problem.field == field
    assert problem.line == 4
    assert problem.path == "rules/x.md"
    assert needle in problem.message


def test_error_line_is_the_key_line_in_a_long_frontmatter(tmp_path: Path) -> None:
    text = "---\nid: x\n# a comment\n\ntype: rule\ntags:\n  - a\n  - b\nlevel: lots\n---\n"
    memory, problems = parse_text(tmp_path, text)
    assert memory is None
    assert (only_error(problems).line, only_error(problems).field) == (9, "level")


def test_error_line_counts_lines_as_editors_do(tmp_path: Path) -> None:
    # YAML also breaks lines at U+2028 and U+0085; editors and engram's line numbers do not.
    memory, problems = parse_text(tmp_path, minimal("summary: 'a\u2028b\x85c'\nlevel: x\n"))
    assert memory is None
    assert only_error(problems).line == 5


def test_all_errors_are_reported_not_only_the_first(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, minimal("level: x\nload: y\ntags: {}\n"))
    assert memory is None
    assert sorted((p.line, p.field) for p in problems) == [(4, "level"), (5, "load"), (6, "tags")]


@pytest.mark.parametrize(("text", "line", "field", "needle"), [
    ("---\ntype: rule\n---\n", 1, "id", "required field is missing"),
    ("---\nid: x\n---\n", 1, "type", "required field is missing"),
    ("---\nid:\ntype: rule\n---\n", 2, "id", "required field is empty"),
    ("---\nid: x\ntype: rules\n---\n", 3, "type", "did you mean rule?"),
    ("---\nid: Release Checklist\ntype: rule\n---\n", 2, "id", "is not a valid id"),
    ("---\nid: -x\ntype: rule\n---\n", 2, "id", "starting with a letter or digit"),
    ("---\nid: 2024\ntype: rule\n---\n", 2, "id", "expected an id, got 2024 (quote it)"),
    (f"---\nid: {'a' * 81}\ntype: rule\n---\n", 2, "id", "at most 80 characters"),
    ("---\nid: x\nid: y\ntype: rule\n---\n", 3, "id", "duplicate key (first on line 2)"),
    ("---\nid: !!python/name:os.system x\ntype: rule\n---\n", 2, "id", "python/name"),
    ("---\nid: x\ntype: rule\nvalid_from: 2027-01-01\nvalid_until: 2026-01-01\n---\n", 5,
     "valid_until", "before valid_from"),
])
def test_id_and_type_errors(tmp_path: Path, text: str, line: int, field: str,
                            needle: str) -> None:
    memory, problems = parse_text(tmp_path, text)
    assert memory is None
    problem = only_error(problems)
    assert (problem.line, problem.field) == (line, field)
    assert needle in problem.message


def test_id_of_80_chars_with_dots_and_underscores_is_fine(tmp_path: Path) -> None:
    ident = "a1._-" + "b" * 75
    memory, _ = parse_text(tmp_path, f"---\nid: {ident}\ntype: rule\n---\n")
    assert memory is not None
    assert memory.id == ident


def test_self_dependency_is_a_warning_and_dropped(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, minimal("depends_on: [x, y]\n"))
    assert memory is not None
    assert memory.depends_on == ("y",)
    assert [(p.severity, p.field) for p in problems] == [("warning", "depends_on")]


# --- Whole-file problems ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "line", "needle"), [
    ("# Just markdown\n", 1, "no frontmatter"),
    ("", 1, "no frontmatter"),
    ("\n---\nid: x\ntype: rule\n---\n", 1, "no frontmatter"),
    ("---\nid: x\ntype: rule\n", 1, "no closing '---'"),
    ("---\n---\n", 1, "frontmatter is empty"),
    ("---\n---", 1, "frontmatter is empty"),
    ("---\n# only a comment\n---\nbody\n", 1, "frontmatter is empty"),
    ("---\n- id: x\n- type: rule\n---\n", 2, "got a list"),
    ("---\njust a string\n---\n", 2, "got a single value"),
    ("---\nid: x\ntype: rule\ntags: [a, b\n---\n", 4, "YAML syntax error"),
    ("---\nid: x\ntype: rule\n  bad: indent\n---\n", 4, "YAML syntax error"),
    ("---\nid: x\ntype: *nowhere\n---\n", 3, "YAML syntax error"),
    ("---\nid: x\ntype: rule\nsummary: \"tab\x07bell\"\n---\n", 4, "not allowed in YAML"),
])
def test_frontmatter_problems(tmp_path: Path, text: str, line: int, needle: str) -> None:
    memory, problems = parse_text(tmp_path, text)
    assert memory is None
    problem = only_error(problems)
    assert problem.field == "frontmatter"
    assert problem.line == line
    assert needle in problem.message


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "rules" / "latin1.md"
    path.parent.mkdir()
    path.write_bytes("---\nid: x\ntype: rule\nsummary: café\n---\n".encode("latin-1"))
    memory, problems = parse_file(path, tmp_path)
    assert memory is None
    problem = only_error(problems)
    assert (problem.line, problem.field) == (4, "file")
    assert "not valid UTF-8" in problem.message


def test_binary_file(tmp_path: Path) -> None:
    memory, problems = parse_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert memory is None
    assert only_error(problems).field == "file"
    utf16 = "---\nid: x\ntype: rule\n---\n".encode("utf-16")
    memory, problems = parse_bytes(utf16)
    assert memory is None
    assert only_error(problems).field == "file"


def test_size_limit(tmp_path: Path) -> None:
    head = "---\nid: big\ntype: knowledge\n---\n"
    at_limit = head + "x" * (MAX_FILE_BYTES - len(head))
    memory, problems = parse_text(tmp_path, at_limit)
    assert memory is not None and problems == []
    memory, problems = parse_text(tmp_path, at_limit + "x")
    assert memory is None
    problem = only_error(problems)
    assert (problem.line, problem.field) == (1, "file")
    assert "256 KiB" in problem.message


def test_bom_is_ignored(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf" + minimal("level: 1\n").encode()
    memory, problems = parse_bytes(raw)
    assert problems == []
    assert memory is not None
    assert memory.sha256 == hashlib.sha256(raw).hexdigest()  # hash of the bytes, BOM included


def test_crlf_line_endings(tmp_path: Path) -> None:
    text = "---\r\nid: x\r\ntype: rule\r\nlevel: nope\r\n---\r\n# T\r\n\r\nBody.\r\n"
    memory, problems = parse_bytes(text.encode())
    assert memory is None
    assert (only_error(problems).line, only_error(problems).field) == (4, "level")
    memory, problems = parse_bytes(text.replace("nope", "1").encode())
    assert memory is not None
    assert memory.indexed_body == "# T\n\nBody."
    assert rendered_lines(text) == [(6, "# T"), (7, ""), (8, "Body.")]


def test_empty_body_and_closing_delimiter_at_end_of_file(tmp_path: Path) -> None:
    memory, problems = parse_text(tmp_path, "---\nid: x\ntype: skill\n---")
    assert problems == []
    assert memory is not None
    assert (memory.indexed_body, memory.first_sentence) == ("", "")


def test_dot_dot_dot_closes_frontmatter(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, "---\nid: x\ntype: rule\n...\nBody.\n")
    assert memory is not None
    assert memory.first_sentence == "Body."


# --- Rendered body and hidden sections -------------------------------------------------------

BODY = """\
---
id: x
type: rule
---

# Title

Intro line.

## Context
Why it exists.

### Example
deep example

Still example.

## How
Step one.

```markdown
## Context
inside a fence: not a heading
```

~~~
## Origin
~~~

### origin
where it came from

#### Notes
still origin

## Example ##
ex

# Last
final words


"""


def test_rendered_lines_hide_context_example_origin(tmp_path: Path) -> None:
    rendered = rendered_lines(BODY)
    texts = [text for _, text in rendered]
    assert texts == [
        "# Title", "", "Intro line.", "", "## How", "Step one.", "", "```markdown",
        "## Context", "inside a fence: not a heading", "```", "", "~~~", "## Origin", "~~~", "",
        "# Last", "final words",
    ]
    lines = BODY.split("\n")
    for number, text in rendered:
        assert lines[number - 1] == text  # numbers are 1-based file lines
    assert rendered[0][0] == 6  # leading blank line trimmed


def test_indexed_body_adds_context_but_not_example_or_origin(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, BODY)
    assert memory is not None
    assert "Why it exists." in memory.indexed_body
    assert "inside a fence: not a heading" in memory.indexed_body
    for hidden in ("deep example", "Still example", "where it came from", "still origin", "ex\n"):
        assert hidden not in memory.indexed_body
    assert memory.indexed_body.endswith("final words")


def test_context_heading_in_a_fence_hides_nothing(tmp_path: Path) -> None:
    text = minimal(body="Intro.\n\n````\n## Context\n```\nnot closed by three\n```\n````\n"
                   "after\n")
    assert [t for _, t in rendered_lines(text)] == [
        "Intro.", "", "````", "## Context", "```", "not closed by three", "```", "````", "after",
    ]


def test_indented_fence_in_a_list_item_is_a_fence() -> None:
    text = minimal(body="1. Step\n   ```\n   ## Origin\n   ```\n2. Next\n")
    assert [t for _, t in rendered_lines(text)][-2:] == ["   ```", "2. Next"]


def test_hidden_section_heading_match_is_on_title_only() -> None:
    text = minimal(body="## Contextual notes\nshown\n## CONTEXT\nhidden\n##Context\nshown too\n")
    # `##Context` (no space) is not a heading in Markdown, so it is text inside CONTEXT.
    assert [t for _, t in rendered_lines(text)] == ["## Contextual notes", "shown"]


def test_deeper_hidden_section_ends_at_same_or_higher_heading() -> None:
    text = minimal(body="# A\n### Context\nhidden\n#### Sub\nhidden too\n### B\nshown\n")
    assert [t for _, t in rendered_lines(text)] == ["# A", "### B", "shown"]


def test_unclosed_fence_runs_to_the_end() -> None:
    text = minimal(body="```\n## Context\nstill code\n")
    assert [t for _, t in rendered_lines(text)] == ["```", "## Context", "still code"]


def test_rendered_lines_of_text_without_frontmatter_and_empty_body() -> None:
    assert rendered_lines("plain\n\n") == [(1, "plain")]
    assert rendered_lines("---\nid: x\n") == []
    assert rendered_lines("---\nid: x\n---\n\n\n") == []
    assert rendered_lines("\ufeff---\nid: x\n---\nbody") == [(4, "body")]


# --- First sentence --------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "sentence"), [
    ("# Title\n\nRun the tests. Then tag.\n", "Run the tests."),
    ("Wrapped sentence that\ncontinues here! Next.\n", "Wrapped sentence that continues here!"),
    ("```\ncode. first\n```\nProse? Yes.\n", "Prose?"),
    ("- [ ] Check **the** [docs](http://x), e.g. the FAQ. More.\n",
     "Check the docs, e.g. the FAQ."),
    ("> Quoted advice here.\n", "Quoted advice here."),
    ("| a | b |\n|---|---|\n\n<!-- note -->\n---\nNo full stop\n", "No full stop"),
    ("## Context\nhidden. \n## Next\nVisible.\n", "Visible."),
    ("1. First item\n2. Second item\n", "First item"),
    ("    indented code.\n\nProse.\n", "Prose."),
    ("", ""),
])
def test_first_sentence(tmp_path: Path, body: str, sentence: str) -> None:
    memory, _ = parse_text(tmp_path, minimal(body=body))
    assert memory is not None
    assert memory.first_sentence == sentence


def test_first_sentence_is_at_most_200_chars(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, minimal(body="word " * 100 + "\n"))
    assert memory is not None
    assert len(memory.first_sentence) <= 200
    assert memory.first_sentence.endswith("word…")


def test_card_text_falls_back_to_first_sentence(tmp_path: Path) -> None:
    memory, _ = parse_text(tmp_path, minimal(body="# T\n\nUse pnpm, never npm. Why: lockfile.\n"))
    assert memory is not None
    assert memory.card_text == "Use pnpm, never npm."


# --- Negation clauses ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "clauses"), [
    ("Use this skill for building complex artifacts. Do not use it for simple single-file "
     "HTML/JSX artifacts.", ["Do not use it for simple single-file HTML/JSX artifacts"]),
    ("Creates PDFs. Do not use for scanned images.", ["Do not use for scanned images"]),
    ("Don't use for one-off scripts!", ["Don't use for one-off scripts"]),
    ("Don’t use this skill when the repo has no tests", [
        "Don’t use this skill when the repo has no tests"]),
    ("Handles Excel files. DO NOT USE FOR: CSV, Google Sheets.", ["DO NOT USE FOR: CSV, Google "
                                                                  "Sheets"]),
    ("Do not trigger for questions about billing.", ["Do not trigger for questions about billing"]),
    ("NOT for Python 2 code.", ["NOT for Python 2 code"]),
    ("Release steps, not for hotfixes.", ["not for hotfixes"]),
    ("Use it for reviews (not for drafting)", ["not for drafting)"]),
    ("Good for reads but not for writes; see db-writes.", ["not for writes"]),
    ("This skill is not intended for beginners.", ["not intended for beginners"]),
    ("This should not be used for production data.", ["not be used for production data"]),
    ("Never use this memory for client work.\nNot for mobile.", [
        "Never use this memory for client work", "Not for mobile"]),
    ("Use when tagging, e.g. v1.2. Do not use for drafts, e.g. RCs.", [
        "Do not use for drafts, e.g. RCs"]),
])
def test_negation_clauses_found(text: str, clauses: list[str]) -> None:
    assert negation_clauses(text) == clauses


@pytest.mark.parametrize("text", [
    "Do not use mocks for database tests.",  # a rule about database tests, not an exclusion
    "Never use `rm -rf` for cleanup.",
    "The staging cluster is not for load tests.",  # a fact about something else
    "Retries are not for free, so cap them.",
    "If not for the cache, builds would take an hour.",
    "Nothing to note here.",
    "Use it for everything.",
    "This is notable for speed.",
    "Never use for loops in hot paths; prefer map.",  # the `for` statement, not the memory
    "Prefer comprehensions, not for-loops.",
    "Do not use for...in over arrays.",
])
def test_negation_clauses_not_found(text: str) -> None:
    assert negation_clauses(text) == []


def test_memory_negations_from_summary_directive_and_every_paragraph(tmp_path: Path) -> None:
    # Authors often put the exclusion last; code blocks are examples, not the author's word.
    text = ("---\nid: x\ntype: skill\nsummary: Build artifacts. Do not use it for HTML.\n"
            "directive: Run the build, not for docs.\n---\n# T\n\nBuild steps. NOT for CI.\n\n"
            "```\n# not for production\n```\n\n- a list item, not for tables\n\n"
            "Later paragraph. Do not use this for commit messages or PR descriptions.\n")
    memory, _ = parse_text(tmp_path, text)
    assert memory is not None
    assert memory.negations == ("Do not use it for HTML", "not for docs", "NOT for CI",
                                "not for tables",
                                "Do not use this for commit messages or PR descriptions")
    assert memory.summary == "Build artifacts. Do not use it for HTML."  # unchanged


# --- Never crashes ---------------------------------------------------------------------------


def _check_result(memory: Memory | None, problems: list[Problem]) -> None:
    assert all(isinstance(p, Problem) and p.line >= 1 and p.field for p in problems)
    assert all("\n" not in str(p) and str(p).startswith("rules/x.md:") for p in problems)
    if memory is None:
        assert any(p.severity == "error" for p in problems)
    else:
        assert all(p.severity == "warning" for p in problems)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_parse_never_raises_on_bytes(raw: bytes) -> None:
    _check_result(*parse_bytes(raw))
    rendered_lines(raw.decode("utf-8", "replace"))


_yamlish = st.text(alphabet=st.sampled_from(list("ab-:[]{}!&*|>'\"#,? \n\t\r.~0%@`\u2028\x85")),
                   max_size=120)
_keys = st.sampled_from(["id", "type", "tags", "level", "depends_on", "safety", "review_after",
                         "role", "roles", "directive", "<<"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_keys, _yamlish), max_size=6), _yamlish, _yamlish)
def test_parse_never_raises_on_frontmatter_text(pairs: list[tuple[str, str]], free: str,
                                                body: str) -> None:
    front = "".join(f"{key}: {value}\n" for key, value in pairs) + free
    raw = f"---\n{front}\n---\n{body}".encode("utf-8", "surrogatepass")
    _check_result(*parse_bytes(raw))
    _check_result(*parse_bytes(b"---\nid: x\ntype: rule\n" + raw[4:]))
    negation_clauses(front + body)


def test_unknown_safety_kind_warns_but_keeps_the_memory() -> None:
    raw = b"---\nid: x\ntype: rule\nsafety:\n  allow: [secrets]\n---\nBody.\n"
    memory, problems = parse_memory(raw, display_path="x.md", scope="workspace", rel_path="x.md")
    assert memory is not None and memory.safety_allow == ("secrets",)
    assert [(p.line, p.field, p.severity) for p in problems] == [(4, "safety", "warning")]
    assert "did you mean secret?" in problems[0].message


def test_the_characters_yaml_refuses_are_the_ones_its_reader_refuses() -> None:
    """Which loader reads a frontmatter depends on them: libyaml's where there is none, the pure
    one (which says where the character is) otherwise. Checked on every code point."""
    import yaml.reader

    from engram.parse import _NON_PRINTABLE

    every = "".join(map(chr, range(0x110000)))
    ours = [m.start() for m in _NON_PRINTABLE.finditer(every)]
    theirs = [m.start() for m in yaml.reader.Reader.NON_PRINTABLE.finditer(every)]
    assert ours == theirs
