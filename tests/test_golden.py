"""Golden rendered packs for a small, realistic workspace: text, dry-run and JSON.

The files in tests/golden/ change only on purpose: `pytest tests/test_golden.py --update-golden`
rewrites them, and the diff is then reviewed like code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import mem, ok, put, run

GOLDEN = Path(__file__).parent / "golden"

WORKSPACE_MEMORIES = {
    "rules/release-foundation.md": mem(
        "release-foundation", level="foundation", tags=["release", "ci"],
        directive="Release only from a green main branch.",
        body="Every release starts from `main` with a passing CI run.\n\n"
             "Never tag a commit that CI has not built."),
    "knowledge/release-versioning.md": mem(
        "release-versioning", "knowledge", tags=["versioning", "semver"],
        depends_on=["release-foundation"], confidence="high",
        summary="Versions follow semver; the API major version is in the URL.",
        body="- Patch: bug fixes only.\n- Minor: additive API changes.\n"
             "- Major: a new `/v{n}/` URL prefix, old one kept for 6 months."),
    "skills/release-checklist.md": mem(
        "release-checklist", "skill", tags=["release"], depends_on=["release-versioning"],
        triggers=["cut a release", "tag a version"],
        summary="Steps that gate every release tag of the web service.",
        body="1. Run `make check` on a clean checkout of `main`.\n"
             "2. Apply pending migrations on staging (see db-migrations).\n"
             "3. Update CHANGELOG.md and bump the version.\n"
             "4. Tag `vX.Y.Z` and push the tag; CI deploys it.\n\n"
             "## Context\nA release in March shipped without migrations; the API was down.\n\n"
             "## Example\n`git tag v2.4.0 && git push origin v2.4.0`\n\n"
             "## Origin\nPostmortem PM-12."),
    "knowledge/db-migrations.md": mem(
        "db-migrations", "knowledge", tags=["database", "migrations"],
        sources=["db/schema.sql"],
        summary="Migrations run before the deploy step, never after.",
        body="Migrations live in `db/migrations/` and run with `make migrate`.\n"
             "They must be backward compatible with the previous release."),
    "rules/api-style.md": mem(
        "api-style", tags=["api", "errors"], applies_to=["src/api/**"], confidence="high",
        directive="Return errors as problem+json with a stable `type` URI.",
        body="Handlers in `src/api/` return `application/problem+json` on every 4xx and 5xx.\n"
             "Never leak stack traces in `detail`."),
    "rules/changelog-style.md": mem(
        "changelog-style", tags=["release", "changelog"], applies_to=["CHANGELOG.md"],
        review_after="2026-06-01",
        directive="Write changelog entries in the imperative mood.",
        body="One line per change, imperative (`Add`, `Fix`), newest release first."),
    "knowledge/staging-hosts.md": mem(
        "staging-hosts", "knowledge", tags=["staging", "deploy"], confidence="low",
        summary="Staging runs on two hosts behind the internal load balancer.",
        body="Hosts: `stg-web-1`, `stg-web-2`. Deploys roll one host at a time."),
    "rules/prod-access.md": mem(
        "prod-access", tags=["deploy", "production"], roles=["sre"],
        directive="Production deploys need a second SRE on the call.",
        body="Open the deploy bridge and announce the change before starting."),
    "rules/legacy-deploy.md": mem(
        "legacy-deploy", tags=["deploy", "release"], lifecycle="archived",
        directive="Deploy with the old fabric script.", body="Archived: replaced by CI deploys."),
    "skills/hotfix.md": mem(
        "hotfix", "skill", tags=["release", "hotfix"], depends_on=["release-foundation"],
        summary="Branch hotfixes from the last release tag.",
        body="1. `git switch -c hotfix/x vX.Y.Z`.\n2. Fix, test, tag `vX.Y.Z+1`.\n"
             "3. Merge the hotfix back into `main`."),
    "rules/commit-style.md": mem(
        "commit-style", tags=["git", "commits", "release"],
        directive="Reference the ticket id in every commit subject.",
        body="`WEB-123: Fix session expiry` (workspace convention)."),
    "rules/broken.md": "---\nid: broken\ntype: rule\ntags: 7\n---\nBroken on purpose.\n",
    "drafts/wip.md": mem("wip-idea", tags=["release"], body="Not ready to share."),
    ".engramignore": "drafts/\n",
}

GLOBAL_MEMORIES = {
    "rules/commit-style.md": mem(
        "commit-style", tags=["git", "commits"],
        directive="Write commit subjects in the imperative.",
        body="Personal default: imperative subjects under 72 characters."),
    "rules/python-style.md": mem(
        "python-style", tags=["python"], directive="Type every public function.",
        body="Run `ruff` and `mypy --strict` before pushing."),
}

CASES: dict[str, list[str]] = {
    "release.txt": ["cut a release with database migrations"],
    "release-dry-run.txt": ["--dry-run", "cut a release with database migrations"],
    "release-json.txt": ["--json", "cut a release with database migrations"],
    "api-path.txt": ["--path", "src/api/users.py", "fix error responses"],
    "api-path-dry-run.txt": ["--dry-run", "--path", "src/api/users.py", "fix error responses"],
    "hotfix-procedural-dry-run.txt": ["--dry-run", "how to ship a hotfix release"],
    "deploy-sre-dry-run.txt": ["--dry-run", "--role", "sre", "deploy to staging and production"],
    "release-budget.txt": ["--budget-tokens", "120", "cut a release with database migrations"],
    "release-full.txt": ["--full", "--limit", "4", "cut a release"],
    "fetch-ids.txt": ["--id", "db-migrations,release-checklist"],
    "empty.txt": ["please help with the rules"],
}


@pytest.fixture
def service(tmp_path: Path, isolated_home: Path) -> Path:
    project = tmp_path / "web-service"
    for rel, text in WORKSPACE_MEMORIES.items():
        put(project / ".engram", rel, text)
    for rel, text in GLOBAL_MEMORIES.items():
        put(isolated_home, rel, text)
    schema = project / "db" / "schema.sql"
    put(project, "db/schema.sql", "create table users (id bigint primary key);\n")
    ok(run(["verify", "db-migrations"], project))
    schema.write_text("create table users (id bigint primary key, email text);\n",
                      encoding="utf-8")  # now db-migrations is stale
    return project


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(service: Path, name: str, update_golden: bool) -> None:
    result = run(["load", *CASES[name]], service)
    assert result.exit_code == 0, result.stderr
    golden = GOLDEN / name
    if update_golden:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(result.stdout, encoding="utf-8", newline="\n")
    assert golden.exists(), f"{golden} missing: run pytest --update-golden"
    assert result.stdout == golden.read_text(encoding="utf-8"), (
        f"{name} differs from its golden file; if the change is intended, rerun with "
        "--update-golden and review the diff")


def test_golden_load_reports_the_invalid_file_on_stderr(service: Path) -> None:
    result = run(["load", "cut a release"], service)
    assert result.stderr == ".engram/rules/broken.md:4: tags: expected a list of strings, got 7\n"


def test_every_golden_file_belongs_to_a_case() -> None:
    assert sorted(p.name for p in GOLDEN.glob("*.txt")) == sorted(CASES)
