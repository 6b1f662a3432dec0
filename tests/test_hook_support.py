"""Shared helpers for the hook tests: a small realistic workspace and fixture payload loading.

Imported by the test_hosts_* and test_hook_* modules; the one test here checks the fixtures load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import write_memory

from engram.hook import HookResult, run_hook

FIXTURES = Path(__file__).parent / "fixtures" / "hosts"
RECORDED_ROOT = "/home/u/repo"

MEMORIES = {
    "rules/release-foundation.md": """---
id: release-foundation
type: rule
directive: Releases follow semantic versioning.
level: foundation
tags: [release]
---
Every release follows semver: breaking changes bump the major version.
""",
    "rules/release-checklist.md": """---
id: release-checklist
type: rule
directive: Run the release checklist before tagging a version.
tags: [release, versioning, tag]
triggers: ["cut a release"]
depends_on: [release-foundation]
---
1. Update CHANGELOG.md.
2. Run the full test suite.
3. Tag the commit as vX.Y.Z.
""",
    "rules/api-errors.md": """---
id: api-errors
type: rule
directive: API handlers raise problem+json errors, never return None.
tags: [api, errors]
applies_to: ["src/api/**"]
---
Raise `NotFound` or `BadRequest` from handlers in src/api; the middleware turns them into
RFC 7807 problem+json responses.
""",
    "rules/api-tests.md": """---
id: api-tests
type: rule
directive: Every API handler has a test in tests/api using the client fixture.
tags: [api, testing]
applies_to: ["src/api/**", "tests/api/**"]
---
Write one test per handler in tests/api with the `client` fixture; never call handlers directly.
""",
    "knowledge/db-migrations.md": """---
id: db-migrations
type: knowledge
summary: Migrations run before the deploy step.
tags: [database, migrations, deploy]
---
Alembic migrations run in CI before the deploy job starts.
""",
    "skills/deploy.md": """---
id: deploy-service
type: skill
directive: Deploy with scripts/deploy.sh, never by hand.
tags: [deploy]
---
Run `scripts/deploy.sh staging`, check the dashboard, then `scripts/deploy.sh production`.
""",
    "rules/team-style.md": """---
id: team-style
type: rule
directive: Answer in short paragraphs and name the files you touch.
load: always
---
Keep answers short and always name the files you changed.
""",
}


def make_workspace(root: Path) -> Path:
    """Write the sample memories into `<root>/.engram`, plus the source files they talk about."""
    for rel, text in MEMORIES.items():
        write_memory(root / ".engram", rel, text)
    (root / "src" / "api").mkdir(parents=True, exist_ok=True)
    (root / "src" / "api" / "user.py").write_text("def get_user(user_id):\n    return None\n")
    return root


def payload_text(host: str, name: str, root: Path) -> str:
    """A recorded payload with its project path pointed at `root`."""
    text = (FIXTURES / host / f"{name}.json").read_text(encoding="utf-8")
    return text.replace(RECORDED_ROOT, str(root))


def payload(host: str, name: str, root: Path, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(payload_text(host, name, root))
    data.update(changes)
    return data


def fire(host: str, data: dict[str, Any] | str) -> HookResult:
    text = data if isinstance(data, str) else json.dumps(data)
    return run_hook(host, text)


def context_of(result: HookResult, event: str | None = None) -> str:
    """The additionalContext of a hookSpecificOutput answer (asserting its event name)."""
    out = json.loads(result.stdout)
    specific = out["hookSpecificOutput"]
    if event is not None:
        assert specific["hookEventName"] == event
    return str(specific["additionalContext"])


def test_every_fixture_is_a_json_object() -> None:
    files = [p for p in FIXTURES.rglob("*.json") if "schemas" not in p.parts]
    assert len(files) >= 30
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict) and data.get("hook_event_name"), path
