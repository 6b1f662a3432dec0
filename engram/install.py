"""`engram hooks install|uninstall|status`: engram's entries in each host's hook config file.

Merges surgically: a user's own hooks and keys are never touched, and running twice changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from engram.errors import EngramError
from engram.fsutil import atomic_write
from engram.hosts import HOSTS, get_host
from engram.hosts.base import Host
from engram.jsonedit import JsonStyle, rewrite
from engram.scopes import Request, resolve

PROJECT = "project"
GLOBAL = "global"
CODEX_TRUST_NOTE = ("Codex runs new or changed hooks only once trusted: a project's hooks need "
                    "the project trusted and each hook trusted; open /hooks in Codex and trust "
                    "engram's entries (codex exec needs --dangerously-bypass-hook-trust)")
CODEX_TRUST_HOW = "open /hooks in Codex and trust engram's entries"
CURSOR_DOUBLE_NOTE = ("Cursor also runs Claude Code hooks when third-party configs are enabled: "
                      "with both installed, engram may inject twice in Cursor")


class InstallResult(NamedTuple):
    host: str
    scope: str  # PROJECT | GLOBAL
    path: Path
    action: str  # "installed" | "updated" | "unchanged" | "removed" | "absent"
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return self.action in ("installed", "updated", "removed")


class HostStatus(NamedTuple):
    host: str
    scope: str
    path: Path
    installed: bool
    events: tuple[str, ...] = ()  # events engram is registered for in that file
    problems: tuple[str, ...] = ()


# ---- the command and the entries -----------------------------------------------------------------


def hook_command(host: str, executable: str | None = None) -> str:
    """A POSIX `sh -c` wrapper that runs `engram hook <host>` when engram is on PATH and prints
    the host's no-op, exit 0, otherwise (or when engram itself cannot start).

    Configs are committed and shared: an absolute path works for one person only, and a bare
    `engram` that is missing exits 127, which Gemini turns into dropping the prompt.
    """
    program = _quote(executable or "engram")
    noop = get_host(host).noop(None).strip()
    # The no-ops (`{}`) hold nothing sh or printf would expand inside double quotes.
    fallback = f'printf "{noop}\\n"' if noop else "exit 0"
    script = f"command -v {program} >/dev/null 2>&1 && {program} hook {host} && exit; {fallback}"
    return "sh -c " + _quote(script)


def _quote(part: str) -> str:
    return shlex.quote(part)


def is_engram_handler(handler: Any) -> bool:
    """engram's ownership marker is its command: `[sh -c '...] <...engram> hook <host>` (or
    `python -m engram hook <host>`), so entries written by older versions are recognised too."""
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return False
    words = _split(handler["command"])
    if len(words) == 3 and Path(words[0]).name == "sh" and words[1] == "-c":
        words = _split(words[2])
    for i in range(len(words) - 2):
        if words[i + 1] == "hook" and words[i + 2].rstrip(";") in HOSTS:
            program = Path(words[i].replace("\\", "/")).name.lower()
            for suffix in (".exe", ".cmd", ".bat"):
                program = program.removesuffix(suffix)
            if program == "engram":  # also `python -m engram hook <host>`
                return True
    return False


def _split(command: str) -> list[str]:
    posix = os.name != "nt"
    try:
        words = shlex.split(command, posix=posix)
    except ValueError:
        words = command.split()
    return words if posix else [w.strip('"') for w in words]


def desired_entries(host: Host, command: str) -> dict[str, Any]:
    """event -> the one group (grouped configs) or handler (flat configs) engram registers."""
    entries: dict[str, Any] = {}
    for reg in host.registrations():
        handler: dict[str, Any] = {}
        if reg.name is not None:
            handler["name"] = reg.name
        if host.config_shape == "grouped":
            handler["type"] = "command"
        handler["command"] = command
        if reg.timeout is not None:
            handler["timeout"] = reg.timeout
        if host.config_shape == "flat":
            entries[reg.event] = handler
            continue
        group: dict[str, Any] = {} if reg.matcher is None else {"matcher": reg.matcher}
        group["hooks"] = [handler]
        entries[reg.event] = group
    return entries


def registration_config(host_name: str, command: str | None = None) -> dict[str, Any]:
    """A complete config holding only engram's entries (the static files in hooks/)."""
    host = get_host(host_name)
    command = command or hook_command(host_name)
    merged = _merge({}, host, desired_entries(host, command))
    return merged


# ---- merging -------------------------------------------------------------------------------------


def _strip_ours(entries: list[Any], grouped: bool) -> tuple[list[Any], int | None]:
    """The list without engram's handlers, and where the first one was (to re-insert in place)."""
    kept: list[Any] = []
    first: int | None = None
    for entry in entries:
        if grouped and isinstance(entry, dict) and isinstance(entry.get("hooks"), list):
            handlers = [h for h in entry["hooks"] if not is_engram_handler(h)]
            if len(handlers) != len(entry["hooks"]):
                first = len(kept) if first is None else first
                if not handlers:
                    continue  # a group that held only engram's handler was engram's
                entry = {**entry, "hooks": handlers}
        elif not grouped and is_engram_handler(entry):
            first = len(kept) if first is None else first
            continue
        kept.append(entry)
    return kept, first


def _merge(config: dict[str, Any], host: Host, desired: dict[str, Any]) -> dict[str, Any]:
    """`config` with engram's entries replaced by `desired` (empty: removed), all else kept."""
    grouped = host.config_shape == "grouped"
    hooks = config.get("hooks", {})
    if not isinstance(hooks, dict):
        raise EngramError("hooks: expected an object of event names")
    new_hooks: dict[str, Any] = {}
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            new_hooks[event] = entries  # not a shape engram writes: not engram's to touch
            continue
        kept, first = _strip_ours(entries, grouped)
        if event in desired:
            kept.insert(len(kept) if first is None else first, desired[event])
        if kept or first is None:
            new_hooks[event] = kept
    for event, entry in desired.items():
        if event not in new_hooks:
            new_hooks[event] = [entry]
    out: dict[str, Any] = {}
    if not grouped and "version" not in config and new_hooks:
        out["version"] = 1  # Cursor's hooks.json format version
    for key, value in config.items():
        if key == "hooks":
            if new_hooks or not hooks:
                out[key] = new_hooks
        else:
            out[key] = value
    if "hooks" not in config and new_hooks:
        out["hooks"] = new_hooks
    return out


def config_path(host_name: str, *, project_dir: Path, global_: bool = False,
                home: Path | None = None) -> Path:
    host = get_host(host_name)
    if global_ and host_name == "codex":
        return codex_home(home) / "hooks.json"
    base = (home if home is not None else Path.home()) if global_ else project_dir
    return base / host.config_file


def codex_home(home: Path | None = None) -> Path:
    """Where Codex keeps its user config: `$CODEX_HOME` when set (Codex's own rule), else
    `~/.codex`."""
    value = os.environ.get("CODEX_HOME")
    if value:
        return Path(value).expanduser()
    return (home if home is not None else Path.home()) / ".codex"


def _read_config(path: Path) -> dict[str, Any] | None:
    """The parsed file, None when missing; an unparsable file is an error, never clobbered."""
    return _load_config(path)[0]


def _load_config(path: Path) -> tuple[dict[str, Any] | None, _Source]:
    """The parsed file with its text and layout, for a rewrite that changes only engram's part."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, _Source("", JsonStyle())
    except OSError as exc:
        raise EngramError(f"{path}: cannot be read: {exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EngramError(f"{path}: cannot be read: {exc}") from None
    if not text.strip():
        return {}, _Source("", JsonStyle())
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise EngramError(f"{path}: not plain JSON ({exc}); engram will not rewrite it: add the "
                          f"entries from engram's hooks/ folder by hand") from None
    if not isinstance(data, dict):
        raise EngramError(f"{path}: expected a JSON object")
    return data, _Source(text, JsonStyle.of(text, bom=raw.startswith(b"\xef\xbb\xbf")))


class _Source(NamedTuple):
    text: str  # without a BOM; "" when there was no file or an empty one
    style: JsonStyle


def _write_config(path: Path, old: dict[str, Any] | None, new: dict[str, Any],
                  source: _Source) -> None:
    if old is not None and source.text:
        text = rewrite(source.text, old, new, source.style)
    else:
        text = source.style.dumps(new)
    atomic_write(path, text, shared=True)


def _apply(host_name: str, path: Path, desired: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    host = get_host(host_name)
    current, source = _load_config(path)
    try:
        merged = _merge(current or {}, host, desired)
    except EngramError as exc:
        raise EngramError(f"{path}: {exc}") from None
    if current is not None and merged == current:
        return ("unchanged" if desired or _has_ours(current, host) else "absent"), current
    if current is None and not desired:
        return "absent", {}
    if not desired and (merged == {} or (host.config_shape == "flat" and merged == {"version": 1})):
        path.unlink()  # engram created this file: leave no empty shell behind
        return "removed", {}
    _write_config(path, current, merged, source)
    if not desired:
        return "removed", merged
    return ("updated" if current is not None and _has_ours(current, host) else "installed"), merged


def install(host_name: str, *, project_dir: Path, global_: bool = False,
            home: Path | None = None, executable: str | None = None,
            sync: bool = True) -> InstallResult:
    """Write engram's hook entries for one host into its project (or user) config."""
    host = get_host(host_name)
    path = config_path(host_name, project_dir=project_dir, global_=global_, home=home)
    command = hook_command(host_name, executable)
    action, _ = _apply(host_name, path, desired_entries(host, command))
    scope = GLOBAL if global_ else PROJECT
    notes: list[str] = []
    if host_name == "codex":
        notes.append(CODEX_TRUST_NOTE)
    if host_name == "gemini":
        notes.append("Gemini runs project hooks only in trusted folders and asks once about new "
                     "or changed hooks")
    if host_name in ("cursor", "claude") and _claude_and_cursor(project_dir, home):
        notes.append(CURSOR_DOUBLE_NOTE)
    if sync and not global_ and host.native_rule_dir is not None:
        notes.extend(_sync_note(project_dir, host_name))
    return InstallResult(host_name, scope, path, action, tuple(notes))


def _sync_note(project_dir: Path, host_name: str) -> list[str]:
    # sync imports this module: at the top this would be an import cycle
    from engram.sync import sync_rules

    try:
        report = sync_rules(str(project_dir), hosts=(host_name,), sections=False)
    except EngramError as exc:
        return [f"native rule files not written: {exc}"]
    if report.written or report.removed:
        return [f"native rule files: {len(report.written)} written, {len(report.removed)} "
                "removed (engram hooks sync keeps them current)"]
    return []


def uninstall(host_name: str, *, project_dir: Path, global_: bool = False,
              home: Path | None = None) -> InstallResult:
    """Remove engram's entries (and only them) from one host's project (or user) config, and
    for a project, the native rule files engram generated for that host."""
    path = config_path(host_name, project_dir=project_dir, global_=global_, home=home)
    action, _ = _apply(host_name, path, {})
    notes: list[str] = []
    if not global_:
        removed = remove_rule_files(project_dir, host_name)
        if removed:
            notes.append(f"native rule files removed: {len(removed)} "
                         f"({get_host(host_name).native_rule_dir}/)")
            if action == "absent":
                action = "removed"
    return InstallResult(host_name, GLOBAL if global_ else PROJECT, path, action, tuple(notes))


def remove_rule_files(project_dir: Path, host_name: str) -> list[Path]:
    """Delete the host's rule files that carry engram's marker (a user's own files stay), then
    the folder if that leaves it empty: it is engram's own (`.../rules/engram/`)."""
    # sync imports this module: at the top this would be an import cycle
    from engram.sync import rule_key

    host = get_host(host_name)
    if host.native_rule_dir is None:
        return []
    folder = project_dir / host.native_rule_dir
    try:
        candidates = sorted(folder.iterdir())
    except OSError:
        return []
    removed = []
    for path in candidates:
        if path.suffix == host.native_rule_suffix and path.is_file() and rule_key(path):
            path.unlink()
            removed.append(path)
    with contextlib.suppress(OSError):
        folder.rmdir()  # refuses when anything else is left in it
    return removed


# ---- status --------------------------------------------------------------------------------------


def _has_ours(config: dict[str, Any], host: Host) -> bool:
    return bool(_our_events(config, host))


def _our_events(config: dict[str, Any], host: Host) -> list[str]:
    hooks = config.get("hooks")
    if not isinstance(hooks, dict):
        return []
    grouped = host.config_shape == "grouped"
    found = []
    for event, entries in hooks.items():
        if isinstance(entries, list) and _strip_ours(entries, grouped)[1] is not None:
            found.append(event)
    return found


def _installed_at(host_name: str, path: Path) -> bool:
    try:
        config = _read_config(path)
    except EngramError:
        return False
    return config is not None and _has_ours(config, get_host(host_name))


def _claude_and_cursor(project_dir: Path, home: Path | None) -> bool:
    def anywhere(name: str) -> bool:
        return any(_installed_at(name, config_path(name, project_dir=project_dir, global_=g,
                                                   home=home)) for g in (False, True))

    return anywhere("claude") and anywhere("cursor")


def status(*, project_dir: Path, home: Path | None = None,
           hosts: Sequence[str] | None = None) -> list[HostStatus]:
    """Per host and scope: installed or not, for which events, and what stands in the way."""
    out: list[HostStatus] = []
    for name in hosts or list(HOSTS):
        host = get_host(name)
        for global_ in (False, True):
            path = config_path(name, project_dir=project_dir, global_=global_, home=home)
            scope = GLOBAL if global_ else PROJECT
            problems: list[str] = []
            try:
                config = _read_config(path)
            except EngramError as exc:
                out.append(HostStatus(name, scope, path, False, (), (str(exc),)))
                continue
            events = _our_events(config or {}, host)
            if events:
                problems.extend(_problems(name, host, path, config or {}, project_dir, home,
                                          global_))
            out.append(HostStatus(name, scope, path, bool(events), tuple(events), tuple(problems)))
    return out


def _problems(name: str, host: Host, path: Path, config: dict[str, Any], project_dir: Path,
              home: Path | None, global_: bool) -> list[str]:
    problems: list[str] = []
    hooks = config.get("hooks", {})
    commands = sorted({h["command"] for entries in hooks.values() if isinstance(entries, list)
                       for h in _handlers(entries) if is_engram_handler(h)})
    for command in commands:
        program = shlex.split(command)[0] if os.name != "nt" else command.split()[0].strip('"')
        if os.path.isabs(program) and not os.access(program, os.X_OK):
            problems.append(f"command not found: {program} (run engram hooks install {name})")
        elif command == hook_command(name) and shutil.which("engram") is None:
            problems.append("engram is not on PATH: these hooks print the host's no-op until it "
                            "is (install engram where the host's PATH finds it, e.g. pipx)")
    expected = desired_entries(host, hook_command(name))
    current = {event: [e for e in hooks.get(event, []) if _owns(e, host)] for event in expected}
    if any(current[event] != [entry] for event, entry in expected.items()):
        problems.append(f"entries differ from what this engram writes "
                        f"(run engram hooks install {name}{' --global' if global_ else ''})")
    if name == "codex":
        problems.extend(_codex_trust(path, hooks, project_dir, home, global_))
    if name == "cursor" and _claude_and_cursor(project_dir, home):
        problems.append(CURSOR_DOUBLE_NOTE)
    if not global_ and host.native_rule_dir is not None:
        problems.extend(_native_problems(project_dir, name))
    return problems


def _handlers(entries: list[Any]) -> list[Any]:
    out: list[Any] = []
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("hooks"), list):
            out.extend(entry["hooks"])
        else:
            out.append(entry)
    return out


def _owns(entry: Any, host: Host) -> bool:
    if host.config_shape == "flat":
        return is_engram_handler(entry)
    return isinstance(entry, dict) and any(is_engram_handler(h) for h in entry.get("hooks", []))


# Codex's hook trust keys: `<hooks.json path>:<event in snake case>:<group>:<handler>`.
_CODEX_EVENT_KEYS = {"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit",
                     "PreToolUse": "pre_tool_use", "SubagentStart": "subagent_start",
                     "PreCompact": "pre_compact"}


def _codex_trust(path: Path, hooks: dict[str, Any], project_dir: Path, home: Path | None,
                 global_: bool) -> list[str]:
    """What Codex still needs before it runs engram's hooks from `path`, read from
    `$CODEX_HOME/config.toml`: the project trusted (project hooks only) and every hook trusted.

    Codex checks a recorded hook's hash against the current entry; the hash is Codex's own, so a
    recorded trust is taken as given (re-installing the same command keeps it valid)."""

    toml_path = codex_home(home) / "config.toml"
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        data = {}
    missing: list[str] = []
    if not global_ and not _codex_project_trusted(data, project_dir):
        missing.append(f'the project is not trusted (no [projects."{project_dir}"] '
                       'trust_level = "trusted")')
    hooks_table = data.get("hooks")
    state = hooks_table.get("state") if isinstance(hooks_table, dict) else None
    state = state if isinstance(state, dict) else {}
    keys = _codex_hook_keys(path, hooks)
    untrusted = [event for event, key in keys if not _trusted_key(state, key)]
    if untrusted:
        missing.append(f"no hook trust recorded for {len(untrusted)} of {len(keys)} hooks "
                       f"({', '.join(untrusted)}; [hooks.state.\"<key>\"] trusted_hash)")
    if not missing:
        return []
    return [f"not trusted yet: Codex skips these hooks: {'; and '.join(missing)} in "
            f"{toml_path}: {CODEX_TRUST_HOW}"]


def _codex_project_trusted(data: dict[str, Any], project_dir: Path) -> bool:
    projects = data.get("projects")
    if not isinstance(projects, dict):
        return False
    candidates = {str(project_dir), str(project_dir.resolve())}
    root = next((d for d in (project_dir, *project_dir.parents) if (d / ".git").exists()), None)
    if root is not None:
        candidates.add(str(root))  # inside a git repository Codex trusts the repository root
    return any(isinstance(projects.get(c), dict) and projects[c].get("trust_level") == "trusted"
               for c in candidates)


def _codex_hook_keys(path: Path, hooks: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(event, the trust keys Codex may file it under) for each of engram's handlers."""
    out: list[tuple[str, list[str]]] = []
    for event, groups in hooks.items():
        if not isinstance(groups, list) or event not in _CODEX_EVENT_KEYS:
            continue
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if is_engram_handler(handler):
                    out.append((event, [f"{p}:{_CODEX_EVENT_KEYS[event]}:{g}:{h}"
                                        for p in dict.fromkeys((str(path), str(path.resolve())))]))
    return out


def _trusted_key(state: dict[str, Any], keys: list[str]) -> bool:
    return any(isinstance(state.get(k), dict) and isinstance(state[k].get("trusted_hash"), str)
               and state[k]["trusted_hash"] for k in keys)


def _native_problems(project_dir: Path, name: str) -> list[str]:
    # sync imports this module: at the top this would be an import cycle
    from engram.sync import sync_rules

    try:
        report = sync_rules(str(project_dir), check=True, hosts=(name,), sections=False)
    except EngramError:
        return []  # no workspace here: no native rules to keep in step
    if report.ok:
        return []
    return [f"native rule files need attention ({len(report.problems)}): run engram hooks sync"]


def format_result(result: InstallResult) -> str:
    """`engram hooks install|uninstall` output: what happened where, then any notes."""
    lines = [f"{result.host}: {result.action} ({result.scope}) {result.path}"]
    lines.extend(f"  note: {note}" for note in result.notes)
    return "\n".join(lines) + "\n"


def config_warnings(project_dir: Path) -> tuple[str, ...]:
    """The config keys the hooks set aside for this project (they run on the defaults)."""

    return resolve(Request(cwd=str(project_dir), lenient_config=True)).config.warnings


def format_status(rows: Sequence[HostStatus], warnings: Sequence[str] = ()) -> str:
    """`engram hooks status` output: one line per host and scope, problems indented below, then
    any config warning the hooks run with."""
    lines = []
    for row in rows:
        state = f"installed ({', '.join(row.events)})" if row.installed else "not installed"
        lines.append(f"{row.host} {row.scope}: {state} {row.path}")
        lines.extend(f"  problem: {problem}" for problem in row.problems)
    lines.extend(f"warning: {warning}" for warning in warnings)
    return "\n".join(lines) + "\n"
