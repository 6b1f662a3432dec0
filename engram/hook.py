"""The hook runtime: one host payload in, that host's exact stdout out, and never a failure.

`run_hook` returns what to print instead of printing, so the CLI stays thin and tests stay direct.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from engram.errors import EngramError, UnknownHostError, WorkspaceError
from engram.hooklog import LogEntry, now_iso
from engram.hooklog import append as append_log
from engram.hosts import get_host
from engram.hosts.base import (
    FILE,
    IGNORED,
    INSTRUCTIONS_LOADED,
    PRE_COMPACT,
    PROMPT,
    SESSION_START,
    SUBAGENT_START,
    WRITE,
    HookEvent,
    Host,
)
from engram.state import (
    SessionState,
    StateLocked,
    locked_session,
    memory_key,
    read_state,
    session_file,
)

if TYPE_CHECKING:  # the pipeline is imported on first use: error paths stay import-cheap
    from typing import Any

    from engram.config import Config
    from engram.index import Head
    from engram.model import Pack
    from engram.render import Rendered, RenderedParts
    from engram.scopes import Context, Request

# A prompt made only of these words is an acknowledgement: nothing in it to route on.
ACK_WORDS = frozenset("""
    hi hello hey yo thanks thank you thx ty cheers ok okay k kk yes y yep yeah yup sure no nope
    continue go on ahead proceed next done great cool nice perfect good fine lgtm sounds looks
    please pls do it keep going again retry right correct agreed exactly awesome wow
""".split())
_WORD = re.compile(r"[^\W_]+")
_SLASH_COMMAND = re.compile(r"^/[A-Za-z][\w:.-]*(?:\s|$)")
# Attempts at fitting a host's own measure (escaping, byte-based token counts) under its cap.
_FIT_ATTEMPTS = 6


class HookResult(NamedTuple):
    """What the CLI prints: `stdout` verbatim (already complete, never partial), `stderr` lines."""

    stdout: str
    stderr: tuple[str, ...] = ()


class _Outcome(NamedTuple):
    """What one hook call prints, logs and records."""

    text: str = ""  # what to inject; "" = the host's no-op
    entry: Mapping[str, Any] = MappingProxyType({})  # extra log fields (read-only default)
    log: bool = True
    stderr: tuple[str, ...] = ()  # e.g. withheld memories: the user must see what was held back
    deny: bool = False  # refuse the tool call with `text` as the reason, where the host can


def run_hook(host_name: str, stdin: str | bytes,
             env: Mapping[str, str] | None = None) -> HookResult:
    """Handle one hook call for `host_name` with the raw stdin payload.

    Never raises (unless ENGRAM_HOOK_STRICT=1): every failure becomes the host's no-op on stdout
    and one `engram: ...` line on stderr; the caller always exits 0.
    """
    env = os.environ if env is None else env
    strict = env.get("ENGRAM_HOOK_STRICT") == "1"
    try:
        host = get_host(host_name)
    except UnknownHostError as exc:
        if strict:
            raise
        return HookResult("", (f"engram: {exc}",))
    event_name: str | None = None
    disabled = env.get("ENGRAM_DISABLE") == "1"
    try:
        payload = decode_payload(stdin)
        raw_name = payload.get("hook_event_name")
        event_name = raw_name if isinstance(raw_name, str) else None
        if disabled:
            return HookResult(host.noop(event_name))
        event = host.parse(payload)
        outcome, log = _dispatch(host, event)
        stdout = ""
        if outcome.text:
            denied = host.deny(event, outcome.text) if outcome.deny else ""
            stdout = denied or host.render(event, outcome.text)
        noop = host.noop(event.name)
        # Logged after rendering, so the size is what the host was given (0 for a no-op).
        log(0 if stdout in ("", noop) else len(outcome.text))
        return HookResult(stdout or noop, outcome.stderr)
    except Exception as exc:
        if strict:
            raise
        if disabled:  # the kill switch is silent, even about a payload it could not read
            return HookResult(host.noop(event_name))
        return HookResult(host.noop(event_name), (f"engram: {describe_error(exc)}",))


def decode_payload(stdin: str | bytes) -> dict[str, Any]:
    """The payload object; anything else (empty, `null`, a list, cut-off JSON) is an EngramError."""
    if isinstance(stdin, bytes):
        try:
            stdin = stdin.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EngramError(f"payload: not UTF-8 (byte {exc.start})") from None
    if not stdin.strip():
        raise EngramError("payload: empty stdin, expected a JSON object")
    try:
        data = json.loads(stdin)
    except ValueError as exc:
        raise EngramError(f"payload: invalid JSON ({exc})") from None
    if not isinstance(data, dict):
        kind = "null" if data is None else type(data).__name__
        raise EngramError(f"payload: expected a JSON object, got {kind}")
    return data


def describe_error(exc: BaseException) -> str:
    """One stderr line: the message of an EngramError, else the internal error named."""
    text = str(exc) if isinstance(exc, EngramError) else (
        f"internal error: {type(exc).__name__}: {exc}")
    return " ".join(text.split()) or type(exc).__name__


def skip_reason(prompt: str, min_chars: int) -> str | None:
    """Why a prompt is not worth routing (short, acknowledgement, slash command), else None."""
    text = prompt.strip()
    if _SLASH_COMMAND.match(text):
        return "slash command"
    if len(text) < min_chars:
        return "short prompt"
    words = _WORD.findall(text.lower())
    if all(word in ACK_WORDS for word in words):
        return "acknowledgement"
    return None


# ---- dispatch ----------------------------------------------------------------------------------


def _dispatch(host: Host, event: HookEvent) -> tuple[_Outcome, Callable[[int], None]]:
    """Run the event's handler; returns its outcome and a function that logs it with a size."""
    from engram.scopes import Request, resolve

    if not os.path.isdir(event.cwd):
        raise WorkspaceError(f"{event.cwd}: cwd: no such directory")
    # A config mistake must not switch injection off unseen: bad keys keep their defaults, and
    # the warning goes to the log (hooks log), stderr and hooks status.
    base = Request(cwd=event.cwd, role=event.role, lenient_config=True)
    ctx = resolve(base)  # once per call: every handler passes it on to the pipeline
    if not ctx.config.hooks_enabled:
        return _Outcome(log=False), _no_log
    state_dir = ctx.state_dir
    handler = _HANDLERS.get(event.kind, _ignored)
    run = _Run(host, event, base, ctx)
    try:
        outcome = handler(run)
    except StateLocked as exc:
        # Fail open by printing nothing: what is not delivered now is not recorded either, so a
        # later event still brings it, whereas delivering unrecorded would send it twice.
        outcome = _Outcome(entry={"note": str(exc)}, stderr=(f"engram: {exc}",))
    warnings = ctx.config.warnings
    if warnings:
        outcome = outcome._replace(stderr=(
            *outcome.stderr, *(f"engram: warning: {w}" for w in warnings)))

    def log(chars: int) -> None:
        if not outcome.log or state_dir is None:
            return
        session = event.session_id if event.agent_id is None else (
            f"{event.session_id}/{event.agent_id}")
        entry = LogEntry(time=now_iso(), host=host.name, event=event.name, session=session,
                         chars=chars, warnings=warnings, **outcome.entry)
        with contextlib.suppress(OSError):  # a full disk must not take the injection with it
            append_log(state_dir, entry)

    return outcome, log


def _no_log(chars: int) -> None:
    return None


class _Run(NamedTuple):
    """One hook call: the host, its event, the request it maps to and the resolved context."""

    host: Host
    event: HookEvent
    base: Request
    ctx: Context  # resolve(base): where the workspace, config and state are

    @property
    def config(self) -> Config:
        return self.ctx.config

    @property
    def state_dir(self) -> Path | None:
        return self.ctx.state_dir

    @property
    def project(self) -> Path | None:
        return self.ctx.workspace_dir

    @contextlib.contextmanager
    def session(self) -> Iterator[SessionState]:
        """This event's session state, locked; in-memory only when no state dir is writable.

        Inside a subagent (`agent_id` set) it is the subagent's own state, not the parent's.
        """
        if self.state_dir is None:
            yield SessionState()
            return
        with locked_session(self.state_dir, self.host.name, self.event.session_id,
                            self.event.agent_id) as state:
            yield state

    def request(self, **changes: Any) -> Request:
        return self.base._replace(**changes)


def _ignored(run: _Run) -> _Outcome:
    return _Outcome(entry={"note": "ignored event"})


def _session_start(run: _Run) -> _Outcome:
    from engram.pipeline import session_start

    pack, visible = session_start(run.base, run.ctx)
    native = _managed_keys(run)
    # The delivered set mirrors the model's context: a new session, /clear and a compaction
    # start it over; a resume that restored the transcript (hook text included) keeps it.
    kept = run.event.source in run.host.keeps_context_on
    index = None if kept else index_line(visible)  # a kept context has the index line already
    with run.session() as state:
        if not kept:
            state.reset()
            state.last_pack = []
        state.delivered.update(native)  # the host's own instruction file holds these
        keys = delivery_keys(pack)
        already = [i.memory.id for i in pack.items if keys[i.memory.id] in state.delivered]
        if all(i.memory.id in already for i in pack.items) and index is None:
            note = f"{run.event.source}: context kept" if kept else "no memories"
            return _Outcome(entry={"note": note, "already": tuple(already)})

        def head(parts: RenderedParts) -> str:
            lines = ([proof_line(run.host, parts, already, overrides(pack))]
                     if parts.bodies or parts.cards else [])
            return "\n".join([*lines, *([index] if index else [])])

        rendered = fit(run.host, pack, omit_ids=already, head=head)
        record_delivery(state, pack, rendered)
    outcome = _from_rendered(rendered)
    return outcome._replace(entry={**outcome.entry, "overrides": _shown_overrides(
        pack, rendered)}, stderr=withheld_lines(pack))


# A pasted log or file can make a prompt megabytes long; routing reads its start and its end
# (where the question usually is), so the hook's cost does not grow with the paste.
PROMPT_HEAD, PROMPT_TAIL = 6000, 2000


def routed_text(prompt: str) -> str:
    if len(prompt) <= PROMPT_HEAD + PROMPT_TAIL:
        return prompt
    return prompt[:PROMPT_HEAD] + "\n" + prompt[-PROMPT_TAIL:]


def _managed_keys(run: _Run) -> set[str]:
    """The memories the host's own instruction file holds (the managed section `engram hooks
    sync` writes): the host loads that file itself, so they count as delivered; sending them
    too would put each body in the context twice."""
    from engram.managed import keys_in  # session starts only

    return keys_in(run.project, run.host.name) if run.project is not None else set()


def _prompt(run: _Run) -> _Outcome:
    from engram.pipeline import build_pack

    prompt = routed_text(run.event.prompt)
    reason = skip_reason(prompt, run.config.hooks_min_prompt_chars)
    if reason is not None:
        return _Outcome(entry={"note": f"skipped: {reason}"})
    pack = build_pack(run.request(query=prompt), run.ctx)
    with run.session() as state:
        members = [i.memory.id for i in pack.items if i.disclosure != "related"]
        if members:
            state.last_pack = members
        return _deliver(run, state, pack)


def _file(run: _Run) -> _Outcome:
    from engram.pipeline import build_pack

    event = run.event
    if not event.paths:
        return _Outcome(entry={"note": "no file paths in payload"})
    pack = build_pack(run.request(paths=event.paths, path_only=True, disclosure="full"),
                      run.ctx)
    if run.config.hooks_path_rules == "native" and event.op in run.host.native_ops:
        return _native_rules(run, pack)
    # Context on a PreToolUse reaches Claude's model with the tool's result, after the file is
    # written; a refusal with the conventions as its reason comes first. It holds the write back
    # once: every matching body goes into that one reason (the cap still applies), so the
    # retried write has nothing new and passes.
    deny = event.op == WRITE and run.host.holds_writes and run.config.hooks_deny_first_write
    with run.session() as state:
        if not deny:
            pack = limit_bodies(pack, state, run.config.hooks_max_path_bodies)
        outcome = _deliver(run, state, pack)
    if deny and outcome.entry.get("delivered"):
        note = ("engram: this write was held back once so that the conventions below come "
                "first; apply them and make the write again.")
        outcome = outcome._replace(text=_after_first_line(outcome.text, note), deny=True)
    return outcome


def _after_first_line(text: str, line: str) -> str:
    head, _, rest = text.partition("\n")
    return "\n".join(part for part in (head, line, rest) if part)


def _native_rules(run: _Run, pack: Pack) -> _Outcome:
    """The host attaches the generated rule files itself: record the ones it loads for this
    path as delivered now. Claude does not await InstructionsLoaded, so a Read then an Edit in
    one turn would otherwise race it and send the same body a second time."""
    from engram.sync import rule_key

    note = f"native path rules ({run.event.op})"
    if run.project is None or run.host.native_rule_dir is None:
        return _Outcome(entry={"note": note})
    rule_dir = run.project / run.host.native_rule_dir
    keys = delivery_keys(pack)
    loaded = [i.memory.id for i in pack.items if rule_key(
        rule_dir / f"{i.memory.id}{run.host.native_rule_suffix}") == keys[i.memory.id]]
    if not loaded:
        return _Outcome(entry={"note": note})
    with run.session() as state:
        for memory_id in loaded:
            state.delivered.add(keys[memory_id])
            state.cards.discard(keys[memory_id])
    return _Outcome(entry={"delivered": tuple(loaded), "note": note})


def _subagent_start(run: _Run) -> _Outcome:
    from engram.pipeline import build_pack

    event = run.event
    parent = SessionState()
    if run.state_dir is not None:
        parent = read_state(session_file(run.state_dir, run.host.name, event.session_id))
    pack = None
    if parent.last_pack:
        pack = build_pack(run.request(ids=tuple(parent.last_pack), disclosure="full",
                                      record_fetch=False), run.ctx)
        # An id fetch skips routing; the subagent's role still decides what it may see.
        pack = pack._replace(items=tuple(
            i for i in pack.items if not i.memory.roles or event.role in i.memory.roles))
    with run.session() as state:
        state.reset()  # a subagent starts with an empty context of its own
        if pack is None:
            return _Outcome(entry={"note": "parent has no routed pack yet"})
        return _deliver(run, state, pack)


def _instructions_loaded(run: _Run) -> _Outcome:
    from engram.sync import rule_key

    if run.project is None or run.host.native_rule_dir is None:
        return _Outcome(log=False)
    loaded = Path(run.event.loaded_file)
    rule_dir = run.project / run.host.native_rule_dir
    try:
        inside = loaded.resolve().parent == rule_dir.resolve()
    except OSError:
        inside = False
    if not inside:
        return _Outcome(log=False)  # the user's own rule or CLAUDE.md: not engram's to track
    key = rule_key(loaded)
    if key is None:
        return _Outcome(entry={"note": f"{loaded.name}: no engram marker"})
    with run.session() as state:
        state.delivered.add(key)
        state.cards.discard(key)
    return _Outcome(entry={"delivered": (key.split("@", 1)[0],), "note": "native rule loaded"})


def _pre_compact(run: _Run) -> _Outcome:
    # A compaction request is not a compaction: Claude fires PreCompact for a /compact it then
    # refuses ("Not enough messages"), Gemini fires PreCompress before every model call. Only
    # the SessionStart that follows a real compaction (source `compact`) resets the set. Nothing
    # is printed: Claude shows PreCompact stdout in the transcript with the hook's command line.
    return _Outcome(entry={"note": "compaction requested: delivered set kept"})


_HANDLERS: dict[str, Callable[[_Run], _Outcome]] = {
    SESSION_START: _session_start,
    PROMPT: _prompt,
    FILE: _file,
    SUBAGENT_START: _subagent_start,
    INSTRUCTIONS_LOADED: _instructions_loaded,
    PRE_COMPACT: _pre_compact,
    IGNORED: _ignored,
}


# ---- delivery ----------------------------------------------------------------------------------


def _deliver(run: _Run, state: SessionState, pack: Pack) -> _Outcome:
    """Print only what this session has not been given: new bodies, and cards not shown yet."""
    already, omit = omissions(state, pack)
    if all(i.memory.id in omit for i in pack.items):
        # A prompt turn may say what it already has (hooks.proof); a file event, which fires on
        # every tool call, stays silent instead of repeating the same line.
        if already and run.config.hooks_proof and run.event.kind != FILE:
            return _Outcome(text="engram: already loaded: " + ", ".join(already),
                            entry={"already": tuple(already)}, stderr=withheld_lines(pack))
        return _Outcome(entry={"already": tuple(already), "note": "nothing new"},
                        stderr=withheld_lines(pack))

    head = None
    if run.config.hooks_proof:
        def head(parts: RenderedParts) -> str:
            return proof_line(run.host, parts, already, overrides(pack))

    rendered = fit(run.host, pack, omit_ids=omit, head=head)
    record_delivery(state, pack, rendered)
    outcome = _from_rendered(rendered)
    return outcome._replace(entry={**outcome.entry, "already": tuple(already),
                                           "overrides": _shown_overrides(pack, rendered)},
                           stderr=withheld_lines(pack))


def omissions(state: SessionState, pack: Pack) -> tuple[list[str], set[str]]:
    """The pack's memories this session already has as bodies (in pack order), and those plus
    the cards it has already been shown: what a delivery leaves out."""
    keys = delivery_keys(pack)
    already = [i.memory.id for i in pack.items if keys[i.memory.id] in state.delivered]
    seen_cards = [i.memory.id for i in pack.items if i.disclosure != "body"
                  and keys[i.memory.id] in state.cards]
    return already, set(already) | set(seen_cards)


def withheld_lines(pack: Pack) -> tuple[str, ...]:
    """`engram: withheld <id>: <kind> (line N)` for each memory the safety scan held back."""
    return tuple(f"engram: withheld {mid}: {f.kind} (line {f.line})" for mid, f in pack.withheld)


def delivery_keys(pack: Pack) -> dict[str, str]:
    return {i.memory.id: memory_key(i.memory.id, i.memory.sha256) for i in pack.items}


def record_delivery(state: SessionState, pack: Pack, rendered: Rendered) -> None:
    """Remember what `rendered` showed: bodies as delivered, cards as seen."""
    keys = delivery_keys(pack)
    for memory_id in rendered.bodies:
        state.delivered.add(keys[memory_id])
        state.cards.discard(keys[memory_id])
    for memory_id in rendered.cards:
        if keys[memory_id] not in state.delivered:
            state.cards.add(keys[memory_id])


def _from_rendered(rendered: Rendered) -> _Outcome:
    return _Outcome(text=rendered.text.rstrip("\n"), entry={
        "delivered": rendered.bodies, "cards": rendered.cards,
        "demoted": rendered.demoted, "dropped": rendered.dropped})


def limit_bodies(pack: Pack, state: SessionState, max_bodies: int) -> Pack:
    """At most `max_bodies` bodies not yet delivered, best first; the other matches as cards."""
    keys = delivery_keys(pack)
    budget = max_bodies
    items = []
    for item in pack.items:
        if item.disclosure == "body" and keys[item.memory.id] not in state.delivered:
            if budget > 0:
                budget -= 1
            else:
                item = item._replace(disclosure="card")
        items.append(item)
    return pack._replace(items=tuple(items))


def fit(host: Host, pack: Pack, *, omit_ids: Collection[str] = (),
        head: Callable[[RenderedParts], str] | None = None) -> Rendered:
    """Render under the host's cap as the host measures it (Gemini's escaping, Codex's bytes)."""
    from engram.render import render_pack

    def attempt(budget: int) -> Rendered:
        if host.cap_unit == "tokens":
            return render_pack(pack, budget_tokens=budget, omit_ids=omit_ids, head=head)
        return render_pack(pack, budget_chars=budget, omit_ids=omit_ids, head=head)

    budget = host.cap
    for _ in range(_FIT_ATTEMPTS):
        rendered = attempt(budget)
        over = host.measure(rendered.text.rstrip("\n")) - host.cap
        if over <= 0:
            return rendered
        budget = max(budget - over, 1)
    return attempt(1)  # the head line alone: never over by more than that line


def cap_label(host: Host) -> str:
    unit = "token" if host.cap_unit == "tokens" else "character"
    return f"{host.cap:,}-{unit} cap"


def proof_line(host: Host, parts: RenderedParts, already: Sequence[str] = (),
               overrides: Sequence[str] = ()) -> str:
    """`engram: loaded 2 new (a, b); already loaded: c; 1 shown as cards to fit the ... cap`,
    and `; safety.allow in force: b (secret)` for printed memories that override the scan."""
    line = f"engram: loaded {len(parts.bodies)} new"
    if parts.bodies:
        line += f" ({', '.join(parts.bodies)})"
    if already:
        line += f"; already loaded: {', '.join(already)}"
    if parts.demoted:
        line += f"; {len(parts.demoted)} shown as cards to fit the {cap_label(host)}"
    if parts.dropped:
        line += (f"; {len(parts.dropped)} left out to fit the {cap_label(host)}: "
                 + ", ".join(parts.dropped))
    shown = set(parts.bodies) | set(parts.cards)
    in_force = [o for o in overrides if o.split(":", 1)[0] in shown]
    if in_force:
        line += "; safety.allow in force: " + ", ".join(
            f"{o.split(':', 1)[0]} ({o.split(':', 1)[1].replace('+', ', ')})" for o in in_force)
    return line


def _shown_overrides(pack: Pack, rendered: Rendered) -> tuple[str, ...]:
    shown = set(rendered.bodies) | set(rendered.cards)
    return tuple(o for o in overrides(pack) if o.split(":", 1)[0] in shown)


def overrides(pack: Pack) -> tuple[str, ...]:
    """`id:kind+kind` for each pack memory whose `safety.allow` is in force."""
    return tuple(f"{i.memory.id}:{'+'.join(i.memory.safety_allow)}" for i in pack.items
                 if i.memory.safety_allow)


def index_line(memories: Sequence[Head]) -> str | None:
    """`engram: N memories available (rules R, skills S, knowledge K); routed per prompt`."""
    if not memories:
        return None
    counts = {kind: sum(1 for m in memories if m.type == kind)
              for kind in ("rule", "skill", "knowledge")}
    return (f"engram: {len(memories)} memories available (rules {counts['rule']}, "
            f"skills {counts['skill']}, knowledge {counts['knowledge']}); routed per prompt")


def run_process(host_name: str) -> int:
    """A hook process from end to end: stdin to stdout, always exit 0 (the contract: a hook
    must never break its host), unless ENGRAM_HOOK_STRICT=1 asks for the traceback."""
    try:
        result = run_hook(host_name, sys.stdin.buffer.read())
        if result.stdout:
            sys.stdout.write(result.stdout)
            sys.stdout.flush()
        for line in result.stderr:
            print(line, file=sys.stderr)
    except BaseException as exc:  # noqa: BLE001 - fail open is the contract
        if os.environ.get("ENGRAM_HOOK_STRICT") == "1":
            raise
        print(f"engram: hook failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 0
