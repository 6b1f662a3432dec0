"""engram in the real Codex when things go wrong, and around the edges of a session: a missing
engram, a corrupt memory, a corrupt state file, an invalid config and a held state lock never
block or drop a prompt; a subagent gets its parent's pack; trust as `hooks status` reports it is
what Codex does; uninstall gives the user's hooks.json back byte for byte."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engram.state import session_file

from .mock_openai import (
    BASE_MEMORIES,
    SUBAGENT_TASK,
    CodexWorld,
    Run,
    codex_world,
    developer_texts,
    hook_runs,
    inputs,
    item_text,
    position,
    turn,
    user_turns,
)

MEMORIES = BASE_MEMORIES
PROMPT = "Walk me through how to cut a release"


@pytest.fixture
def world(tmp_path: Path) -> Iterator[CodexWorld]:
    with codex_world(tmp_path, MEMORIES) as made:
        yield made


def assert_prompt_answered(run: Run, prompt: str = PROMPT) -> None:
    """Codex exited 0, the model got the prompt, and its answer came back."""
    assert run.returncode == 0, run.stderr
    assert run.requests and prompt in user_turns(run.requests[-1])
    assert run.answers[-1:] == ["ok"]


def bodies(run: Run) -> str:
    return "\n".join(developer_texts(run.requests[-1]))


def test_engram_missing_from_path_never_blocks_a_prompt(world: CodexWorld) -> None:
    # A teammate without engram, a removed venv: the installed command finds no engram.
    no_engram = os.pathsep.join(p for p in world.scratch.env["PATH"].split(os.pathsep)
                                if p != str(Path(sys.executable).parent))
    assert shutil.which("engram", path=no_engram) is None
    run = world.exec(PROMPT, env=world.env(PATH=no_engram))
    assert_prompt_answered(run)
    assert "engram: loaded" not in bodies(run) and "teamstylebody" not in bodies(run)


def test_a_corrupt_memory_never_blocks_the_others(world: CodexWorld) -> None:
    world.scratch.memory("rules/broken.md", "---\nid: [broken\ntype: rule\n---\nhalf a memory\n")
    run = world.exec(PROMPT)
    assert_prompt_answered(run)
    assert "teamstylebody" in bodies(run) and "releasebody" in bodies(run)


def test_a_corrupt_state_file_never_blocks_a_prompt(world: CodexWorld) -> None:
    assert_prompt_answered(world.exec(PROMPT))
    files = list(world.state_dir.glob("session-codex-*.json"))
    assert files
    for path in files:
        path.write_text('{"version": 1, "delivered": [', encoding="utf-8")
    again = "And after the release, what next?"
    assert_prompt_answered(world.exec(again, resume=True), again)


INVALID_CONFIGS = ["hooks: [not, a, mapping\n",  # not YAML
                   "hooks:\n  min_prompt_chars: lots\n  proof: maybe\n"]  # invalid values


@pytest.mark.parametrize("config", INVALID_CONFIGS)
def test_an_invalid_config_never_blocks_a_prompt(world: CodexWorld, config: str) -> None:
    (world.project / ".engram" / "config.yaml").write_text(config, encoding="utf-8")
    assert_prompt_answered(world.exec(PROMPT))


def test_an_invalid_config_key_falls_back_and_delivery_goes_on(world: CodexWorld) -> None:
    (world.project / ".engram" / "config.yaml").write_text(INVALID_CONFIGS[1], encoding="utf-8")
    run = world.exec(PROMPT)
    assert_prompt_answered(run)
    assert "teamstylebody" in bodies(run) and "releasebody" in bodies(run)


HOLD = """
import fcntl, sys
handle = open(sys.argv[1], "a+b")
fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def test_a_held_state_lock_does_not_stall_the_turn(world: CodexWorld) -> None:
    with world.app() as app:
        thread_id = app.request("thread/start", {"cwd": str(world.project)})["thread"]["id"]
        turn(app, thread_id, "Keep the changes small please")
        lock = session_file(world.state_dir, "codex", thread_id).with_suffix(".lock")
        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            before = len(world.mock.model_requests())
            held_turn = hook_runs(turn(app, thread_id, PROMPT))
            held_request = world.mock.model_requests()[before:][-1]
        finally:
            assert holder.stdin is not None and holder.stdout is not None
            holder.stdin.close()
            holder.wait(timeout=10)
            holder.stdout.close()
        before = len(world.mock.model_requests())
        turn(app, thread_id, PROMPT)
        freed_request = world.mock.model_requests()[before:][-1]
    (prompt_hook,) = [h for h in held_turn if h["eventName"] == "userPromptSubmit"]
    # Bounded at one second, where Codex's 15 s hook timeout used to be the bound.
    assert prompt_hook["status"] == "completed" and prompt_hook["durationMs"] < 5_000
    assert PROMPT in user_turns(held_request) and "releasebody" not in held_request.text()
    log = world.engram("hooks", "log", "-n", "5")
    assert "session state is locked" in log.stdout, log.stderr
    # Nothing was recorded for the held turn, so the next one brings the pack, once.
    assert freed_request.text().count("releasebody") == 1


def test_a_subagent_starts_with_its_parents_pack(tmp_path: Path) -> None:
    with codex_world(tmp_path, MEMORIES) as world:
        # A model Codex does not know gets the fallback tools, spawn_agent among them.
        run = world.exec("SPAWN a helper to cut a release", args=("-m", "engram-e2e-model"))
        assert run.returncode == 0, run.stderr
        assert run.answers[-1:] == ["ok"]  # the parent waited for its subagent's answer
        (child,) = [r for r in run.requests if SUBAGENT_TASK in user_turns(r)]
        # The subagent's context holds the parent's last prompt pack, before its task.
        assert [t for t in developer_texts(child) if t.startswith("engram:")] == [
            "engram: loaded 1 new (release-checklist)\n### release-checklist [rule, instruction]"
            "\nUpdate CHANGELOG.md, run the full suite, then tag vX.Y.Z. Marker: releasebody."]
        assert position(child, "releasebody") < position(child, SUBAGENT_TASK)


# The user's own hooks.json, as written by hand or by a formatter: one layout throughout
# (4-space indent), and the same hooks with short objects kept on one line, as Prettier keeps
# them.
USER_HOOKS = {
    "expanded": json.dumps({"hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true", "timeout": 5}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}, indent=4) + "\n",
    "inline objects": """{
    "hooks": {
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "true", "timeout": 5}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]
    }
}
""",
}


@pytest.mark.parametrize("layout", list(USER_HOOKS))
def test_uninstall_gives_back_the_users_hooks_json_byte_for_byte(tmp_path: Path,
                                                                  layout: str) -> None:
    with codex_world(tmp_path, MEMORIES, install=False) as world:
        config = world.project / ".codex" / "hooks.json"
        config.parent.mkdir()
        config.write_text(USER_HOOKS[layout], encoding="utf-8")
        assert world.engram("hooks", "install", "codex").returncode == 0
        world.trust_hooks()
        # Trust keys count groups: engram's UserPromptSubmit group is the second one here.
        status = world.engram("hooks", "status", "codex").stdout
        assert "problem:" not in status, status
        run = world.exec(PROMPT)
        assert_prompt_answered(run)
        assert "releasebody" in bodies(run)
        assert world.engram("hooks", "uninstall", "codex").returncode == 0
        assert config.read_bytes() == USER_HOOKS[layout].encode()
        assert [h["command"] for h in world.hooks_list()] == ["true", "true"]


def test_uninstall_removes_the_hooks_json_it_created(world: CodexWorld) -> None:
    assert world.engram("hooks", "uninstall", "codex").returncode == 0
    assert not (world.project / ".codex" / "hooks.json").exists()
    assert world.hooks_list() == []


def test_status_agrees_with_codex_about_trust(tmp_path: Path) -> None:
    with codex_world(tmp_path, MEMORIES, trusted=False) as world:
        # Project trusted, hooks not: Codex lists them untrusted; status names the hook trust.
        assert {h["trustStatus"] for h in world.hooks_list()} == {"untrusted"}
        status = world.engram("hooks", "status", "codex").stdout
        assert "no hook trust recorded for 5 of 5 hooks" in status
        assert "project is not trusted" not in status
        # Neither: Codex does not even list the project's hooks; status names both.
        world.write_config(trust_project=False)
        assert world.hooks_list() == []
        status = world.engram("hooks", "status", "codex").stdout
        assert "the project is not trusted" in status and "5 of 5 hooks" in status
        # Both recorded: every hook trusted in Codex, and no problem line.
        world.write_config()
        world.trust_hooks()
        assert {h["trustStatus"] for h in world.hooks_list()} == {"trusted"}
        assert "problem:" not in world.engram("hooks", "status", "codex").stdout


def test_global_install_goes_to_codex_home_and_runs(tmp_path: Path) -> None:
    with codex_world(tmp_path, MEMORIES, install=False) as world:
        done = world.engram("hooks", "install", "codex", "--global")
        assert done.returncode == 0, done.stderr
        assert (world.codex_home / "hooks.json").is_file()
        assert not (world.scratch.home / ".codex").exists()
        listed = world.hooks_list()
        assert {h["source"] for h in listed} == {"user"}
        assert {h["trustStatus"] for h in listed} == {"untrusted"}
        status = world.engram("hooks", "status", "codex").stdout
        assert "codex global: installed (" in status and "5 of 5 hooks" in status
        world.trust_hooks()
        assert "problem:" not in world.engram("hooks", "status", "codex").stdout
        run = world.exec(PROMPT)
        assert_prompt_answered(run)
        assert "teamstylebody" in bodies(run) and "releasebody" in bodies(run)


def test_codex_drops_hook_stderr(world: CodexWorld) -> None:
    # engram reports a withheld memory on stderr; Codex never shows it to the model.
    world.scratch.memory("rules/signing.md", """---
id: release-signing
type: rule
directive: Sign release tags.
triggers: ["cut a release"]
---
aws_access_key_id = AKIAQ7RZT2MXW4KJ9PLD
""")
    said = world.engram("load", PROMPT).stderr
    assert "engram: withheld release-signing: secret (line 7)" in said  # what the hook says too
    run = world.exec(PROMPT)
    assert_prompt_answered(run)
    assert "withheld" not in run.stdout
    assert all("withheld" not in r.text() and "AKIAQ7RZT2MXW4KJ9PLD" not in r.text()
               for r in run.requests)
    assert json.dumps(inputs(run.requests[-1])).count("releasebody") == 1
    assert not any("engram:" in item_text(i) and "withheld" in item_text(i)
                   for i in inputs(run.requests[-1]))
