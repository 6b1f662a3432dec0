"""One reader per rule format: a file's text in, drafted memories out, with what did not map.

Every reader keeps the whole text of its file in the memories it drafts; frontmatter it cannot
map goes into the memory's `## Origin` (kept in the file, never shown to an agent) and the report.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engram.importer import markdown, thirdparty
from engram.importer.model import Draft, Unmapped
from engram.managed import BEGIN as MANAGED_BEGIN
from engram.managed import END as MANAGED_END

MAX_IMPORT_DEPTH = 5  # Claude Code follows `@` imports five hops deep; so does import
MAX_SOURCE_BYTES = 1024 * 1024
DOC_NAMES = {"CLAUDE.md": "claude", "AGENTS.md": "agents", "GEMINI.md": "gemini"}
LEGACY_NAMES = {".cursorrules": "cursorrules", ".windsurfrules": "windsurfrules",
                ".clinerules": "clinerules"}


class Reader:
    """Reads one project's sources; collects what it could not map in `unmapped`."""

    def __init__(self, project: Path) -> None:
        self.project = project
        self.unmapped: list[Unmapped] = []

    def note(self, path: str, line: int, message: str) -> None:
        self.unmapped.append(Unmapped(path, line, message))

    def text(self, rel: str) -> str | None:
        try:
            raw = (self.project / rel).read_bytes()
        except OSError as exc:
            self.note(rel, 1, f"cannot be read ({exc.strerror}); skipped")
            return None
        if len(raw) > MAX_SOURCE_BYTES:
            self.note(rel, 1, f"{len(raw)} bytes is too large to be instructions; skipped")
            return None
        try:
            return raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            self.note(rel, 1, "not UTF-8 text; skipped")
            return None

    # -- helpers shared by the readers ----------------------------------------------------------

    def _front(self, rel: str) -> tuple[dict[str, Any], str, int] | None:
        """(frontmatter fields, body, 1-based body line) of a rule file; None when unreadable."""
        text = self.text(rel)
        if text is None:
            return None
        fields, body, first, _ = thirdparty.split(text)
        return fields, body, first

    def _extra_keys(self, rel: str, fields: dict[str, Any], mapped: set[str],
                    draft_origin: list[str]) -> None:
        for key in sorted(k for k in fields if k not in mapped):
            value = fields[key]
            self.note(rel, 2, f"frontmatter {key!r} has no engram field; kept under "
                      "## Origin in the memory")
            draft_origin.append(f"- `{key}: {_short(value)}` (no engram field)")

    def _scoped(self, folder: str, patterns: list[str]) -> tuple[str, ...]:
        """Globs relative to `folder`, as workspace-relative gitignore-style patterns."""
        out: list[str] = []
        for pattern in patterns:
            pattern = pattern.strip().removeprefix("./")
            if not pattern:
                continue
            if folder:
                pattern = pattern.lstrip("/")
                joined = (f"{folder}/{pattern}" if "/" in pattern.rstrip("/")
                          or pattern.startswith("**") else f"{folder}/**/{pattern}")
                out.append(joined)
            else:
                out.append(pattern)
        return tuple(dict.fromkeys(out))

    # -- instruction documents: CLAUDE.md, AGENTS.md, GEMINI.md, copilot-instructions, legacy --

    def document(self, rel: str, *, always_top: bool = True) -> list[Draft]:
        """Split at headings; the text before the first section loads always at the top level."""
        folder = _scope_folder(rel)
        kind = _doc_kind(rel)
        drafts = self._document(rel, kind, folder, always_top, seen=set(), depth=0,
                                root_source=rel)
        return drafts

    def _document(self, rel: str, kind: str, folder: str, always_top: bool, seen: set[str],
                  depth: int, root_source: str) -> list[Draft]:
        seen.add(rel)
        text = self.text(rel)
        if text is None:
            return []
        stripped = strip_managed(text)
        if stripped != text and not stripped.strip():
            return []  # only engram's own section: a migrated file, nothing of the team's left
        text = stripped
        fields, body, first, _ = thirdparty.split(text)
        if fields:
            # instruction documents carry no frontmatter of their own; keep it as text
            body, first = text, 1
        chunks = markdown.split(body, first)
        if not chunks:
            self.note(rel, 1, "no text; nothing to import")
        drafts: list[Draft] = []
        for chunk in chunks:
            top = chunk.heading is None or len(chunks) == 1
            name = (markdown.slug(chunk.heading) if chunk.heading
                    else kind if len(chunks) == 1 else f"{kind}-overview")
            if folder:  # a nested file's memories carry its folder in their ids
                name = f"{_prefix(kind, folder)}-{name}"
            draft = Draft(
                name=name or f"{kind}-section", type=markdown.guess_type(chunk.text),
                body=chunk.text, source=rel, line=chunk.line,
                applies_to=(f"{folder}/**",) if folder else (),
                load="always" if top and always_top and not folder else "auto",
                tags=markdown.guess_tags(chunk.heading or "", folder.rsplit("/", 1)[-1]),
                sources=(rel,), prefix=_prefix(kind, folder))
            if chunk.heading and chunk.heading.strip().lower() in ("context", "example",
                                                                  "origin"):
                self.note(rel, chunk.line, f"section {chunk.heading!r}: engram never shows a "
                          f"`{chunk.heading}` section to the agent; rename the heading in "
                          "the memory if it should")
            drafts.append(draft)
            for offset, target in markdown.imports(chunk.text):
                drafts += self._follow(rel, chunk.line + offset, target, draft, kind, folder,
                                       seen, depth, root_source)
        return drafts

    def _follow(self, rel: str, line: int, target: str, parent: Draft, kind: str, folder: str,
                seen: set[str], depth: int, root_source: str) -> list[Draft]:
        """An `@path` import: the file's text becomes memories of its own, in the same scope."""
        if target.startswith("~"):
            self.note(rel, line, f"@{target}: outside the repository (a personal file); not "
                      "imported, the reference stays in the text")
            return []
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(rel), target)
                                      if not target.startswith("/") else target.lstrip("/"))
        if resolved.startswith("../") or resolved == "..":
            self.note(rel, line, f"@{target}: outside the repository; not imported")
            return []
        path = self.project / resolved
        if not path.is_file():
            if "/" in target or "." in target.strip("."):
                self.note(rel, line, f"@{target}: no such file; not imported")
            return []  # a bare `@name` is a mention, not an import
        if resolved in seen:
            return []
        if depth + 1 > MAX_IMPORT_DEPTH:
            self.note(rel, line, f"@{target}: more than {MAX_IMPORT_DEPTH} imports deep; "
                      "not followed")
            return []
        if not resolved.endswith((".md", ".mdx", ".txt")) and "." in posixpath.basename(resolved):
            self.note(rel, line, f"@{target}: not a Markdown file; not imported, the "
                      "reference stays in the text")
            return []
        parent.origin.append(f"- `@{target}` (line {line}) imported as its own memories")
        drafts = self._document(resolved, kind, folder, always_top=False, seen=seen,
                                depth=depth + 1, root_source=root_source)
        for draft in drafts:
            draft.origin.append(f"- imported by `@{target}` from `{rel}` line {line}")
            if draft.name.endswith("-overview"):
                draft.name = markdown.slug(Path(resolved).stem) or draft.name
        return drafts

    # -- Cursor .mdc (and .md) rules ------------------------------------------------------------

    def cursor(self, rel: str) -> list[Draft]:
        read = self._front(rel)
        if read is None:
            return []
        fields, body, first = read
        folder = rel.split("/.cursor/", 1)[0] if "/.cursor/" in rel else ""
        draft = self._rule(rel, body, first, _stem(rel), folder)
        description = _text(fields.get("description"))
        globs = thirdparty.globs(fields.get("globs"))
        draft.summary = description
        draft.applies_to = self._scoped(folder, globs)
        if fields.get("alwaysApply") is True:
            draft.load = "always"
        elif not globs and not description:
            self.note(rel, 1, "a manual rule (no description, globs or alwaysApply): imported "
                      "as a routed memory; `engram load --id` fetches it by name")
        self._extra_keys(rel, fields, {"description", "globs", "alwaysApply"}, draft.origin)
        if folder:
            draft.applies_to = draft.applies_to or (f"{folder}/**",)
        return [draft]

    # -- Copilot .github/instructions/*.instructions.md -----------------------------------------

    def copilot(self, rel: str) -> list[Draft]:
        read = self._front(rel)
        if read is None:
            return []
        fields, body, first = read
        draft = self._rule(rel, body, first, _stem(rel).removesuffix(".instructions"))
        globs = thirdparty.globs(fields.get("applyTo"))
        if globs in (["**"], ["**/*"]):
            draft.load = "always"  # applyTo "**" is every file: always loaded
        else:
            draft.applies_to = self._scoped("", globs)
        draft.summary = _text(fields.get("description"))
        self._extra_keys(rel, fields, {"applyTo", "description"}, draft.origin)
        return [draft]

    # -- Claude Code .claude/rules/*.md ---------------------------------------------------------

    def claude_rule(self, rel: str) -> list[Draft]:
        read = self._front(rel)
        if read is None:
            return []
        fields, body, first = read
        folder = rel.split("/.claude/", 1)[0] if "/.claude/" in rel else ""
        draft = self._rule(rel, body, first, _stem(rel), folder)
        paths = thirdparty.globs(fields.get("paths"))
        draft.applies_to = self._scoped(folder, paths)
        if not paths:
            draft.load = "always"  # Claude loads a rule without `paths` at every session start
        draft.summary = _text(fields.get("description"))
        self._extra_keys(rel, fields, {"paths", "description"}, draft.origin)
        return [draft]

    # -- Windsurf .windsurf/rules/*.md ----------------------------------------------------------

    def windsurf(self, rel: str) -> list[Draft]:
        read = self._front(rel)
        if read is None:
            return []
        fields, body, first = read
        draft = self._rule(rel, body, first, _stem(rel))
        trigger = str(fields.get("trigger") or "").strip()
        draft.summary = _text(fields.get("description"))
        if trigger == "always_on":
            draft.load = "always"
        elif trigger == "glob":
            draft.applies_to = self._scoped("", thirdparty.globs(fields.get("globs")))
        elif trigger == "manual":
            self.note(rel, 2, "trigger: manual: imported as a routed memory; `engram load "
                      "--id` fetches it by name")
        self._extra_keys(rel, fields, {"trigger", "globs", "description"}, draft.origin)
        return [draft]

    # -- Skills: <folder>/SKILL.md with its reference files -------------------------------------

    def skill(self, rel: str) -> list[Draft]:
        read = self._front(rel)
        if read is None:
            return []
        fields, body, first = read
        folder = posixpath.dirname(rel)
        name = _text(fields.get("name")) or posixpath.basename(folder) or "skill"
        draft = Draft(name=markdown.slug(name) or "skill", type="skill", body=body.strip("\n"),
                      source=rel, line=first, summary=_text(fields.get("description")),
                      tags=markdown.guess_tags(name), sources=(rel,))
        if not draft.summary:
            self.note(rel, 1, "SKILL.md without a description: its card shows the first "
                      "sentence of the body")
        self._extra_keys(rel, fields, {"name", "description"}, draft.origin)
        drafts = [draft]
        references = sorted(p.relative_to(self.project).as_posix()
                            for p in (self.project / folder).rglob("*")
                            if p.is_file() and p.name != "SKILL.md"
                            and not any(part.startswith(".") for part in
                                        p.relative_to(self.project / folder).parts))
        listed: list[str] = []
        for ref in references:
            if ref.endswith(".md"):
                ref_text = self.text(ref)
                if ref_text is None:
                    continue
                stem = markdown.slug(Path(ref).stem)
                drafts.append(Draft(name=f"{draft.name}-{stem}", type="knowledge",
                                    body=ref_text.strip("\n"), source=ref, line=1,
                                    summary=f"Reference for the {name} skill: {Path(ref).name}.",
                                    tags=draft.tags, sources=(ref,)))
                listed.append(f"- `{ref}` (also the memory `{draft.name}-{stem}`)")
            else:
                listed.append(f"- `{ref}`")
        if listed:
            draft.body += ("\n\n## Reference files\n\nIn the skill's folder, read when a step "
                           "needs them:\n\n" + "\n".join(listed))
            draft.sources = (rel, *(r for r in references if r.endswith(".md")))
        return drafts

    def _rule(self, rel: str, body: str, first: int, stem: str, folder: str = "") -> Draft:
        kind = markdown.guess_type(body, default="rule")
        if not body.strip():
            self.note(rel, first, "no text after the frontmatter")
        name = markdown.slug(stem) or "rule"
        if folder:  # a nested rules folder's memories carry its folder in their ids
            name = f"{_prefix('', folder)}-{name}"
        return Draft(name=name, type=kind, body=body.strip("\n"), source=rel, line=first,
                     tags=markdown.guess_tags(stem, folder.rsplit("/", 1)[-1]), sources=(rel,))


def strip_managed(text: str) -> str:
    """The text without engram's own managed section (it is generated from `.engram/`)."""

    start = text.find(MANAGED_BEGIN)
    end = text.find(MANAGED_END, start + 1) if start >= 0 else -1
    if start < 0 or end < 0:
        return text
    return text[:start] + text[end + len(MANAGED_END):].lstrip("\n")


def _scope_folder(rel: str) -> str:
    folder = posixpath.dirname(rel)
    for suffix in (".github", ".clinerules"):
        if folder == suffix:
            return ""
        if folder.endswith("/" + suffix):
            return folder[: -len(suffix) - 1]
    return folder


def _doc_kind(rel: str) -> str:
    name = posixpath.basename(rel)
    if name in DOC_NAMES:
        return DOC_NAMES[name]
    if name in LEGACY_NAMES:
        return LEGACY_NAMES[name]
    if name == "copilot-instructions.md":
        return "copilot"
    if "/.clinerules/" in "/" + rel:
        return "cline-" + markdown.slug(Path(name).stem)
    return markdown.slug(Path(name).stem) or "doc"


def _prefix(kind: str, folder: str) -> str:
    return markdown.slug(folder.replace("/", "-")) if folder else kind


def _stem(rel: str) -> str:
    name = posixpath.basename(rel)
    return name.split(".", 1)[0] if not name.startswith(".") else name.lstrip(".")


def _text(value: object) -> str | None:
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())
    return None


def _short(value: object) -> str:
    shown = value if isinstance(value, str) else repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


ReaderFn = Callable[[Reader, str], list[Draft]]
