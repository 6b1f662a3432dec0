"""The hook runtime across hosts: fail-open, gates, kill switches, caps, the call log, the real
process, and concurrent calls on one session (no delivery lost or made twice)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_hook_support import context_of, fire, make_workspace, payload

from engram.errors import UnknownHostError
from engram.hook import run_hook, skip_reason
from engram.hooklog import format_entries, read
from engram.hosts import claude

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def ws(workspace: Path) -> Path:
    return make_workspace(workspace)


# ---- fail open ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("stdin", "message"), [
    ("", "engram: payload: empty stdin, expected a JSON object"),
    ("null", "engram: payload: expected a JSON object, got null"),
    ("[1, 2]", "engram: payload: expected a JSON object, got list"),
    ('"text"', "engram: payload: expected a JSON object, got str"),
    ('{"session_id": "s", "cwd": "/', "engram: payload: invalid JSON"),
    (b"\xff\xfe{}", "engram: payload: not UTF-8 (byte 0)"),
    ("{}", "engram: payload: hook_event_name: missing"),
    ('{"hook_event_name": "UserPromptSubmit", "cwd": "/tmp"}', "engram: payload: session_id"),
    ('{"hook_event_name": 3}', "engram: payload: hook_event_name: expected a string, got int"),
])
@pytest.mark.parametrize(("host", "noop"), [("claude", ""), ("codex", ""), ("gemini", "{}\n"),
                                            ("cursor", "{}\n")])
def test_bad_payloads_give_the_noop_and_one_line(stdin: str | bytes, message: str, host: str,
                                                 noop: str) -> None:
    result = run_hook(host, stdin)
    assert result.stdout == noop
    assert len(result.stderr) == 1 and result.stderr[0].startswith(message)


def test_missing_fields_and_workspace(ws: Path, tmp_path: Path) -> None:
    data = payload("claude", "pre_tool_use_read", ws, tool_input={})
    assert fire("claude", data).stderr == ("engram: payload: file_path: missing",)
    gone = payload("claude", "user_prompt_submit", ws, cwd=str(tmp_path / "nowhere"))
    result = fire("claude", gone)
    assert result.stdout == "" and result.stderr[0].endswith("cwd: no such directory")


def test_unreadable_memory_fails_open(ws: Path) -> None:
    path = ws / ".engram/rules/api-errors.md"
    path.write_bytes(b"---\nid: api-errors\ntype: rule\n---\n\xff\xfe broken")
    result = fire("claude", payload("claude", "user_prompt_submit", ws))
    assert result.stdout == "" or json.loads(result.stdout)  # whole JSON, or nothing at all


@pytest.mark.parametrize("config", ["hooks:\n  proof: maybe\n", "hookz:\n  enabled: no\n",
                                    "hooks: [unclosed\n", "hooks:\n  enabled: false\n  limit: 3\n"])
def test_invalid_config_keeps_injecting_and_says_so(ws: Path, config: str) -> None:
    """A bad key keeps its default; the call still injects, and the warning is on stderr and in
    the log (`hooks log`). Only a valid `enabled: false` switches the hooks off."""
    path = ws / ".engram/config.yaml"
    path.write_text(config)
    result = fire("gemini", payload("gemini", "before_agent", ws))
    warned = [line for line in result.stderr if line.startswith(f"engram: warning: {path}")]
    if "enabled: false" in config:
        assert (result.stdout, result.stderr) == ("{}\n", ())
        return
    assert context_of(result).startswith("engram: loaded 2 new (api-tests, api-errors)")
    assert len(warned) == 1 and warned[0].endswith(("the default applies)", "defaults apply)"))
    entry = read(ws / ".engram/.state")[-1]
    assert entry.warnings == (warned[0].removeprefix("engram: warning: "),)
    assert f"  warning: {path}" in format_entries([entry])


def test_internal_error_fails_open_and_strict_reraises(ws: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import engram.pipeline

    def boom(request: object, context: object = None) -> None:
        raise RuntimeError("kaput")

    monkeypatch.setattr(engram.pipeline, "build_pack", boom)
    data = json.dumps(payload("claude", "user_prompt_submit", ws))
    assert run_hook("claude", data).stderr == ("engram: internal error: RuntimeError: kaput",)
    monkeypatch.setenv("ENGRAM_HOOK_STRICT", "1")
    with pytest.raises(RuntimeError):
        run_hook("claude", data)


def test_unknown_host_lists_known_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_hook("typo", "{}")
    assert result.stdout == ""
    assert result.stderr == ("engram: unknown host 'typo'; known hosts: claude, codex, gemini, "
                             "cursor",)
    monkeypatch.setenv("ENGRAM_HOOK_STRICT", "1")
    with pytest.raises(UnknownHostError):
        run_hook("typo", "{}")


def test_kill_switches_are_silent(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = payload("gemini", "before_agent", ws)
    (ws / ".engram/config.yaml").write_text("hooks:\n  enabled: false\n")
    assert (fire("gemini", data).stdout, fire("gemini", data).stderr) == ("{}\n", ())
    (ws / ".engram/config.yaml").unlink()
    monkeypatch.setenv("ENGRAM_DISABLE", "1")
    assert (fire("gemini", data).stdout, fire("gemini", data).stderr) == ("{}\n", ())
    assert run_hook("claude", "not json").stderr == ()  # disabled before anything is parsed


# ---- gates -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("prompt", "reason"), [
    ("hi", "short prompt"), ("  ok  ", "short prompt"), ("thanks!", "short prompt"),
    ("yes please continue", "acknowledgement"), ("Thank you, looks good", "acknowledgement"),
    ("/compact keep the api notes", "slash command"), ("/review", "slash command"),
    ("fix the api errors", None), ("/src/api/user.py is broken", None),
    ("no, use the release checklist", None),
])
def test_cheap_gates(prompt: str, reason: str | None) -> None:
    assert skip_reason(prompt, 8) == reason


def test_gated_prompts_print_nothing_and_record_nothing(ws: Path) -> None:
    for prompt in ("ok", "continue", "/clear", "thanks a lot"):
        result = fire("claude", payload("claude", "user_prompt_submit", ws, prompt=prompt))
        assert (result.stdout, result.stderr) == ("", ())
    text = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert text.startswith("engram: loaded 2 new")


def test_min_prompt_chars_is_configurable(ws: Path) -> None:
    (ws / ".engram/config.yaml").write_text("hooks:\n  min_prompt_chars: 60\n")
    assert fire("claude", payload("claude", "user_prompt_submit", ws)).stdout == ""


def test_proof_off_prints_nothing_when_nothing_is_new(ws: Path) -> None:
    (ws / ".engram/config.yaml").write_text("hooks:\n  proof: false\n")
    first = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert first.startswith("engram: loaded 2 memory files")  # the renderer's own count line
    assert fire("claude", payload("claude", "user_prompt_submit", ws)).stdout == ""


# ---- caps and path bodies ----------------------------------------------------------------------


def big_rules(ws: Path, count: int, size: int, tag: str = "caching") -> None:
    for n in range(count):
        body = " ".join(f"word{n}x{i}" for i in range(size // 9))
        (ws / f".engram/rules/{tag}-{n}.md").write_text(
            f"---\nid: {tag}-{n}\ntype: rule\ntags: [{tag}]\napplies_to: [\"lib/**\"]\n---\n"
            f"{body}\n")


def test_claude_cap_demotes_bodies_and_says_so(ws: Path) -> None:
    big_rules(ws, 3, 4_000)
    text = context_of(fire("claude", payload("claude", "user_prompt_submit", ws,
                                             prompt="how does our caching work")))
    assert claude.HOST.measure(text) <= claude.CAP_CHARS
    head = text.splitlines()[0]
    assert head.startswith("engram: loaded 2 new (caching-")
    assert head.endswith("; 1 shown as cards to fit the 9,500-character cap")
    assert "fetch: engram load --id caching-" in text
    entry = read(ws / ".engram/.state")[-1]
    assert len(entry.demoted) == 1 and entry.chars == len(text)


def test_file_events_inject_at_most_max_path_bodies(ws: Path) -> None:
    (ws / ".engram/config.yaml").write_text("hooks:\n  deny_first_write: false\n")
    big_rules(ws, 5, 200, tag="lib")
    data = payload("claude", "pre_tool_use_write", ws,
                   tool_input={"file_path": str(ws / "lib/x.py"), "content": ""})
    text = context_of(fire("claude", data))
    assert text.startswith("engram: loaded 3 new (")
    assert text.count("\n### ") + text.startswith("### ") == 3
    # The next write delivers the matches not given yet, again at most three.
    text = context_of(fire("claude", data))
    assert text.startswith("engram: loaded 2 new (") and "already loaded: " in text


def test_first_write_is_denied_once_with_every_matching_body(ws: Path) -> None:
    big_rules(ws, 5, 200, tag="lib")
    data = payload("claude", "pre_tool_use_write", ws,
                   tool_input={"file_path": str(ws / "lib/x.py"), "content": ""})
    out = json.loads(fire("claude", data).stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    reason = out["permissionDecisionReason"]
    assert reason.startswith("engram: loaded 5 new (")
    assert reason.splitlines()[1].startswith("engram: this write was held back once")
    assert reason.count("\n### ") == 5
    # The retried write has nothing new: it passes, silently.
    assert fire("claude", data).stdout == ""


def test_hosts_that_cannot_hold_a_write_back_keep_the_per_event_limit(ws: Path) -> None:
    big_rules(ws, 5, 200, tag="lib")
    patch = "*** Begin Patch\n*** Add File: lib/x.py\n+x = 1\n*** End Patch"
    data = payload("codex", "pre_tool_use_apply_patch", ws, tool_input={"command": patch})
    text = context_of(fire("codex", data), "PreToolUse")
    assert text.startswith("engram: loaded 3 new (")


# ---- log ---------------------------------------------------------------------------------------


def test_log_has_one_line_per_call_and_never_the_prompt(ws: Path) -> None:
    secret = "fix the failing test in src/api/user.py"
    fire("claude", payload("claude", "session_start", ws))
    fire("claude", payload("claude", "user_prompt_submit", ws))
    fire("claude", payload("claude", "user_prompt_submit", ws, prompt="ok"))
    state_dir = ws / ".engram/.state"
    raw = (state_dir / "log.jsonl").read_text()
    assert secret not in raw and "failing" not in raw
    for path in state_dir.iterdir():
        if path.is_file():
            assert "failing" not in path.read_text(errors="replace")
    entries = read(state_dir)
    assert [e.event for e in entries] == ["SessionStart", "UserPromptSubmit", "UserPromptSubmit"]
    assert entries[1].delivered == ("api-tests", "api-errors")
    assert entries[2].note == "skipped: short prompt"
    assert read(state_dir, session="1f6c2e0a", limit=1) == entries[-1:]
    assert read(state_dir, session="other") == []
    line = format_entries(entries[1:2])
    assert line.startswith(entries[1].time + " claude UserPromptSubmit 1f6c2e0a-8d4")
    assert "delivered=api-tests,api-errors" in line


# ---- the real process --------------------------------------------------------------------------


def run_process(host: str, stdin: str, env: dict[str, str] | None = None
                ) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run([sys.executable, "-m", "engram", "hook", host], input=stdin,
                          capture_output=True, text=True, env=full_env, timeout=60, check=False)


def test_end_to_end_process(ws: Path) -> None:
    proc = run_process("claude", json.dumps(payload("claude", "user_prompt_submit", ws)))
    assert proc.returncode == 0 and proc.stderr == ""
    out = json.loads(proc.stdout)
    assert out["hookSpecificOutput"]["additionalContext"].startswith("engram: loaded 2 new")
    bad = run_process("claude", "{oops")
    assert (bad.returncode, bad.stdout) == (0, "")
    assert bad.stderr.startswith("engram: payload: invalid JSON")
    typo = run_process("typo", "{}")
    assert typo.returncode == 0 and "known hosts: claude, codex, gemini, cursor" in typo.stderr


def test_concurrent_calls_deliver_each_memory_exactly_once(ws: Path) -> None:
    stdin = json.dumps(payload("codex", "user_prompt_submit", ws))
    full_env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-m", "engram", "hook", "codex"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=full_env)
             for _ in range(16)]
    outputs = [p.communicate(stdin, timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert all(err == "" for _, err in outputs)
    texts = [json.loads(out)["hookSpecificOutput"]["additionalContext"] for out, _ in outputs]
    loaded = [t for t in texts if t.startswith("engram: loaded 2 new (api-tests, api-errors)")]
    assert len(loaded) == 1
    assert texts.count("engram: already loaded: api-tests, api-errors") == 15
    entries = read(ws / ".engram/.state", limit=None)
    assert len(entries) == 16
    assert sum(len(e.delivered) for e in entries) == 2


def test_entries_for_reads_the_workspace_log(ws: Path) -> None:
    from engram.hooklog import entries_for

    fire("claude", payload("claude", "user_prompt_submit", ws))
    assert [e.event for e in entries_for(str(ws / "src"))] == ["UserPromptSubmit"]
