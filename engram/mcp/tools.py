"""What the MCP tools and resources answer, without the SDK: the same library calls as the CLI.

`Service.call` returns the text `engram load`, `load --id`, `search` or `load --dry-run` prints
on stdout for the same request (and what they print on stderr, as notes), so the two can be
compared byte for byte. Successive `load` calls of one session leave out what it already has,
as the hooks do.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from engram import pipeline, report
from engram.errors import EngramError
from engram.hook import omissions, record_delivery
from engram.index import collector_paused
from engram.mcp.watch import IndexPool
from engram.model import GLOBAL, PackItem
from engram.render import RenderedParts, body_block, card_line, count_line, render_pack
from engram.scopes import Context, Request, resolve
from engram.state import SessionState, locked_session

if TYPE_CHECKING:
    from typing import Any

    from engram.model import Pack
    from engram.render import Rendered

URI_PREFIX = "engram://memory/"
# Claude Code passes its session id to the stdio servers it starts; its hooks get the same id.
CLAUDE_SESSION_ENV = "CLAUDE_CODE_SESSION_ID"
RESOURCE_PAGE = 500  # resources per resources/list page


class ToolError(EngramError):
    """A request the server cannot answer; its message goes back to the client as the error."""


class Tool(NamedTuple):
    """One tool as tools/list offers it."""

    name: str
    title: str
    description: str
    input_schema: Mapping[str, Any]


class Answer(NamedTuple):
    """A tool's result: `text` is what the CLI prints on stdout, `notes` its stderr lines."""

    text: str
    notes: tuple[str, ...] = ()


class MemoryResource(NamedTuple):
    uri: str
    name: str
    description: str


_TASK = {"type": "string", "description": "What you are about to do, in plain words (the user's "
         "request or your next step), e.g. \"add a database migration for the orders table\"."}
_PATHS = {"type": "array", "items": {"type": "string"},
          "description": "Files the task touches, relative to the project or absolute: memories "
          "whose applies_to globs match them are loaded too."}

TOOLS: tuple[Tool, ...] = (
    Tool("load", "Load project memory for a task",
         "The project's memory for a task: the team's rules, skills and knowledge that apply, "
         "ranked, prerequisites first, the best as full text and the rest as one-line cards, "
         "under a size budget. Call it before starting a task or when the task changes. Within "
         "one session a memory's text is sent once; later calls list it as already loaded. "
         "Cards name ids: get their text with the fetch tool.",
         {"type": "object", "properties": {"task": _TASK, "paths": _PATHS},
          "required": ["task"], "additionalProperties": False}),
    Tool("fetch", "Fetch memories by id",
         "The full text of project memories by id: the ids on a pack's `fetch:` line, its "
         "cards, or a search result. Always returns the text, even if sent before.",
         {"type": "object", "properties": {"ids": {
             "type": "array", "items": {"type": "string"}, "minItems": 1,
             "description": "Memory ids, e.g. [\"release-checklist\", \"changelog\"]."}},
          "required": ["ids"], "additionalProperties": False}),
    Tool("search", "Search project memory",
         "Every project memory matching a query, best first, one card per line with its score "
         "(no size limit and no relevance gate). Use it to browse or to find an id; load is "
         "the better call for a task.",
         {"type": "object", "properties": {"query": {
             "type": "string", "description": "Words to match, e.g. \"release changelog\"."}},
          "required": ["query"], "additionalProperties": False}),
    Tool("explain", "Explain memory routing",
         "Why each memory was or was not loaded for a task: the dry-run table of anchors, "
         "scores, multipliers, matched fields and exclusions. No memory text. For debugging "
         "routing, not for doing the task.",
         {"type": "object", "properties": {"task": _TASK, "paths": _PATHS},
          "required": ["task"], "additionalProperties": False}),
)


class Session:
    """What one client connection has been given. Under Claude Code it is the host session's
    own hook state (read and written under the hooks' lock), so hook and tool never send a body
    twice; elsewhere the connection keeps its own, in memory."""

    def __init__(self, host: str | None = None, session_id: str | None = None) -> None:
        self.host = host
        self.session_id = session_id
        self._own = SessionState()

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Session:
        session_id = env.get(CLAUDE_SESSION_ENV)
        return cls("claude", session_id) if session_id else cls()

    @contextlib.contextmanager
    def state(self, ctx: Context) -> Iterator[SessionState]:
        if self.host is None or self.session_id is None or ctx.state_dir is None:
            yield self._own
            return
        with locked_session(ctx.state_dir, self.host, self.session_id) as state:
            yield state


class Service:
    """The tools and resources of one server process, its indexes kept open between calls."""

    def __init__(self, cwd: str | None = None, env: Mapping[str, str] | None = None) -> None:
        self.cwd = cwd or os.getcwd()
        self.session = Session.from_env(os.environ if env is None else env)
        self.pool = IndexPool()

    def close(self) -> None:
        self.pool.close()

    # -- tools -----------------------------------------------------------------------------
    def call(self, name: str, arguments: Mapping[str, Any] | None) -> Answer:
        """Run one tool; a ToolError (or any EngramError) says what was wrong with the call."""
        tool = next((t for t in TOOLS if t.name == name), None)
        if tool is None:
            raise ToolError(f"unknown tool {name!r}; tools: {', '.join(t.name for t in TOOLS)}")
        args = _arguments(tool, arguments)
        # A call makes no reference cycles worth collecting; the collector would walk every
        # posting and record the open indexes keep (engram/entry.py does the same per command).
        with collector_paused():
            if name == "load":
                return self._load(args)
            if name == "fetch":
                return self._fetch(args)
            if name == "search":
                return self._search(args)
            return self._explain(args)

    def _context(self, request: Request) -> Context:
        ctx = resolve(request)
        if ctx.engram_dir is None and (
                ctx.global_dir is None or not self.pool.fresh(ctx.global_dir, GLOBAL).doc_count()):
            raise ToolError(f"{ctx.cwd}: no .engram/ folder here or above, and no global "
                            "memories: run engram init in the project")
        return ctx._replace(indexes=self.pool)

    def _task_request(self, tool: str, args: Mapping[str, Any], **extra: Any) -> Request:
        task = _text(tool, args, "task")
        paths = _strings(tool, args, "paths")
        if not task.strip() and not paths:
            raise ToolError(f"{tool}: task: empty; describe the task or give paths")
        return Request(query=task, paths=paths, cwd=self.cwd, **extra)

    def _load(self, args: Mapping[str, Any]) -> Answer:

        request = self._task_request("load", args)
        ctx = self._context(request)
        pack, rendered = pipeline.load(request, ctx)
        budget = request.budget_tokens or ctx.config.load_budget_tokens
        with self.session.state(ctx) as state:
            already, omit = omissions(state, pack)
            if omit:
                rendered = _render_delta(pack, budget, already, omit)
            if pack.items and all(i.memory.id in omit for i in pack.items):
                text = "engram: already loaded: " + ", ".join(already) + "\n" if already \
                    else count_line(0, pack.related_total) + "\n"
            else:
                text = report.load_output(pack, rendered)
                record_delivery(state, pack, rendered)
        return Answer(text, tuple(report.stderr_lines(pack)))

    def _fetch(self, args: Mapping[str, Any]) -> Answer:

        ids = _strings("fetch", args, "ids")
        if not ids:
            raise ToolError("fetch: ids: empty; give at least one memory id")
        request = Request(ids=ids, cwd=self.cwd)
        ctx = self._context(request)
        pack, rendered = pipeline.load(request, ctx)
        with self.session.state(ctx) as state:
            record_delivery(state, pack, rendered)
        return Answer(report.load_output(pack, rendered), tuple(report.stderr_lines(pack)))

    def _search(self, args: Mapping[str, Any]) -> Answer:

        query = _text("search", args, "query")
        request = Request(query=query, cwd=self.cwd)
        hits = pipeline.search(request, self._context(request))
        notes = () if hits else (f"engram: no memory matches {query!r}",)
        return Answer(report.search_text(hits), notes)

    def _explain(self, args: Mapping[str, Any]) -> Answer:

        request = self._task_request("explain", args, record_fetch=False, explain=True)
        text, notes = pipeline.load_answer(request, "dry-run", self._context(request))
        return Answer(text, tuple(notes))

    # -- resources -------------------------------------------------------------------------
    def resources(self, cursor: str | None = None) -> tuple[list[MemoryResource], str | None]:
        """One page of memories (every one routing could show), and the next page's cursor."""

        start = _cursor(cursor)
        request = Request(cwd=self.cwd)
        memories = pipeline.visible_memories(request, self._context(request))
        page = memories[start:start + RESOURCE_PAGE]
        out = [MemoryResource(URI_PREFIX + m.id, m.id,
                              card_line(PackItem(m, "card", 0.0)).removeprefix("- "))
               for m in page]
        more = start + RESOURCE_PAGE < len(memories)
        return out, str(start + RESOURCE_PAGE) if more else None

    def read(self, uri: str) -> str:
        """A memory's text as a pack shows it, after the hash check and the safety scan."""

        if not uri.startswith(URI_PREFIX) or not uri[len(URI_PREFIX):]:
            raise ToolError(f"{uri}: not an engram memory (expected {URI_PREFIX}<id>)")
        memory_id = uri[len(URI_PREFIX):]
        request = Request(ids=(memory_id,), cwd=self.cwd, record_fetch=False)
        pack = pipeline.build_pack(request, self._context(request))
        for item in pack.items:
            return body_block(item)
        findings = [f"{f.kind} (line {f.line})" for mid, f in pack.withheld if mid == memory_id]
        reason = ", ".join(findings) or dict(pack.excluded).get(memory_id, "not printable")
        raise ToolError(f"{memory_id}: withheld: {reason}")


def _render_delta(pack: Pack, budget: int | None, already: Sequence[str],
                  omit: set[str]) -> Rendered:
    """The pack without what the session has; the head says what was left out."""
    members = {i.memory.id for i in pack.items if i.disclosure != "related"}

    def head(parts: RenderedParts) -> str:
        shown = sum(1 for mid in (*parts.bodies, *parts.cards) if mid in members)
        line = count_line(shown, pack.related_total)
        return line + ("; already loaded: " + ", ".join(already) if already else "")

    return render_pack(pack, budget_tokens=budget, omit_ids=omit, head=head)


def _cursor(cursor: str | None) -> int:
    if cursor is None or cursor == "":
        return 0
    if not cursor.isdigit():
        raise ToolError(f"cursor: {cursor!r} is not one this server gave out")
    return int(cursor)


def _arguments(tool: Tool, arguments: Mapping[str, Any] | None) -> Mapping[str, Any]:
    args = {} if arguments is None else arguments
    if not isinstance(args, Mapping):
        raise ToolError(f"{tool.name}: arguments: expected an object")
    known = tool.input_schema["properties"]
    unknown = sorted(set(args) - set(known))
    if unknown:
        raise ToolError(f"{tool.name}: unknown argument {unknown[0]!r} "
                        f"(arguments: {', '.join(known)})")
    for name in tool.input_schema["required"]:
        if name not in args:
            raise ToolError(f"{tool.name}: {name}: missing")
    return args


def _text(tool: str, args: Mapping[str, Any], key: str) -> str:
    value = args.get(key, "")
    if not isinstance(value, str):
        raise ToolError(f"{tool}: {key}: expected a string, got {_kind(value)}")
    return value


def _strings(tool: str, args: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = args.get(key, [])
    if isinstance(value, str):
        raise ToolError(f"{tool}: {key}: expected an array of strings, got a string")
    if not isinstance(value, list):
        raise ToolError(f"{tool}: {key}: expected an array of strings, got {_kind(value)}")
    for n, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise ToolError(f"{tool}: {key}[{n}]: expected a non-empty string, got "
                            f"{_kind(item)}")
    return tuple(value)


def _kind(value: object) -> str:
    return {type(None): "null", bool: "a boolean", int: "a number", float: "a number",
            str: "a string", list: "an array", dict: "an object"}.get(type(value), "a value")
