"""`safety: {allow: [...]}` is never silent (proof line, `hooks log`, `check`), and the user's own
config can refuse it for workspace memories, which a workspace config cannot undo."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import body_ids, load, ok, run
from conftest import write_memory

from engram.hook import run_hook

ALLOWED = ("---\nid: aws-notes\ntype: rule\ntags: [deploy]\nsafety: {allow: [secret]}\n---\n"
           "Deploy with key AKIA2KBGO4U0L1RTZ6NQ for the staging bucket.\n")
PLAIN = "---\nid: deploy-steps\ntype: rule\ntags: [deploy]\n---\nDeploy with the release script.\n"


def prompt(workspace: Path) -> str:
    return json.dumps({"session_id": "s-1", "transcript_path": "/t", "cwd": str(workspace),
                       "hook_event_name": "UserPromptSubmit", "prompt": "how do we deploy this"})


def test_the_proof_line_and_the_hook_log_name_the_override(workspace: Path,
                                                           isolated_home: Path) -> None:
    write_memory(workspace / ".engram", "rules/aws.md", ALLOWED)
    write_memory(workspace / ".engram", "rules/plain.md", PLAIN)
    result = run_hook("claude", prompt(workspace))
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.splitlines()[0] == ("engram: loaded 2 new (deploy-steps, aws-notes);"
                                       " safety.allow in force: aws-notes (secret)")
    log = ok(run(["hooks", "log"], workspace))
    assert "delivered=deploy-steps,aws-notes safety-allow=aws-notes:secret" in log


def test_check_warns_about_every_override(workspace: Path, isolated_home: Path) -> None:
    write_memory(workspace / ".engram", "rules/aws.md", ALLOWED)
    out = ok(run(["check"], workspace))
    assert (".engram/rules/aws.md:5: safety: allow: secret: the safety scan lets this memory"
            " through whatever secret it finds (warning)") in out


def test_the_user_config_can_refuse_workspace_overrides(workspace: Path,
                                                        isolated_home: Path) -> None:
    write_memory(workspace / ".engram", "rules/aws.md", ALLOWED)
    write_memory(workspace / ".engram", "rules/plain.md", PLAIN)
    (isolated_home / "config.yaml").write_text("safety:\n  workspace_overrides: refuse\n")
    result = load(workspace, "deploy")
    assert body_ids(ok(result)) == ["deploy-steps"]
    assert "engram: withheld aws-notes: secret (line 7)" in result.stderr
    assert "refused by your config" in ok(run(["check"], workspace))
    hook = run_hook("claude", prompt(workspace))
    assert "AKIA" not in hook.stdout and "safety.allow in force" not in hook.stdout


def test_a_global_memory_keeps_its_override_when_workspace_ones_are_refused(
        workspace: Path, isolated_home: Path) -> None:
    write_memory(isolated_home, "rules/aws.md", ALLOWED)
    (isolated_home / "config.yaml").write_text("safety:\n  workspace_overrides: refuse\n")
    assert body_ids(ok(load(workspace, "deploy"))) == ["aws-notes"]


def test_a_workspace_config_cannot_set_the_user_only_key(workspace: Path,
                                                         isolated_home: Path) -> None:
    write_memory(workspace / ".engram", "rules/aws.md", ALLOWED)
    (isolated_home / "config.yaml").write_text("safety:\n  workspace_overrides: refuse\n")
    (workspace / ".engram" / "config.yaml").write_text("safety:\n  workspace_overrides: allow\n")
    result = load(workspace, "deploy")
    assert result.exit_code == 1
    assert result.stderr == (
        f"engram: {workspace / '.engram' / 'config.yaml'}: safety.workspace_overrides: only your"
        f" own config ({isolated_home / 'config.yaml'}) can set this; a workspace cannot decide"
        " how its own memories are checked\n")


def test_a_hook_keeps_the_users_refusal_when_a_workspace_config_tries_to_lift_it(
        workspace: Path, isolated_home: Path) -> None:
    # Hooks read config leniently (a bad key never silences them): the workspace's attempt is
    # set aside with a warning, and the user's refusal stands.
    write_memory(workspace / ".engram", "rules/aws.md", ALLOWED)
    write_memory(workspace / ".engram", "rules/plain.md", PLAIN)
    (isolated_home / "config.yaml").write_text("safety:\n  workspace_overrides: refuse\n")
    (workspace / ".engram" / "config.yaml").write_text("safety:\n  workspace_overrides: allow\n")
    result = run_hook("claude", prompt(workspace))
    assert "deploy-steps" in result.stdout and "AKIA" not in result.stdout
    assert "engram: withheld aws-notes: secret (line 7)" in result.stderr
