"""Routing behaviours end to end on real files: an author's own exclusion clauses, near-duplicate
groups, queries about topics no memory holds, brace globs, and the BM25 the ranking rests on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import body_ids, card_ids, dev_set, dry, load, mem, ok, printed_ids, put, run

from engram import pipeline, scopes
from engram.discover import expand_braces
from engram.index import FIELDS, field_texts
from engram.parse import negation_clauses, parse_memory
from engram.rank import reference_bm25

FIXTURE_MEMORIES = Path(__file__).parent / "fixtures" / "quality" / "memories"
EMPTY = "engram: loaded 0 memory files / 0 total related memories\n"
WEIGHTS = {"id": 3, "tags": 3, "directive": 3, "triggers": 2, "summary": 2, "body": 1}


def pack_ids(project: Path, query: str, *args: str) -> list[str]:
    return printed_ids(ok(load(project, query, *args)))


def fixture_project(tmp_path: Path) -> Path:
    """The quality fixture's twelve memories in a project of their own."""
    shutil.copytree(FIXTURE_MEMORIES, tmp_path / ".engram")
    return tmp_path


# -- negation ----------------------------------------------------------------------------------
PDF_BODY = "Render the analytics tables with the report template and write the PDF to out/."


@pytest.mark.parametrize("summary", [
    "Branded PDF reports. Do not use for spreadsheets or CSV exports.",
    "Branded PDF reports. DO NOT USE FOR: spreadsheets, CSV exports.",
    "Branded PDF reports of the analytics tables - not for spreadsheets or CSV exports.",
    "Branded PDF reports. Avoid using this skill for spreadsheets or CSV exports.",
    "Branded PDF reports. Should not be used for spreadsheets or CSV exports.",
])
def test_own_exclusion_clause_never_pulls_the_memory_in(workspace: Path, summary: str) -> None:
    put(workspace / ".engram", "pdf.md",
        mem("pdf-reports", "skill", body=PDF_BODY, tags=["pdf", "reports"], summary=summary))
    put(workspace / ".engram", "csv.md", mem("csv-exports", "skill", tags=["csv", "export"],
                                             summary="Export query results as CSV files."))
    assert pack_ids(workspace, "spreadsheets or CSV exports") == ["csv-exports"]
    _, rows = dry(workspace, "spreadsheets or CSV exports")
    assert rows["pdf-reports"]["status"] == "excluded: negated"
    # The memory still loads for what it is for.
    assert pack_ids(workspace, "render the monthly PDF report") == ["pdf-reports"]


ARTIFACTS = ("Builds multi-component HTML artifacts with React and Tailwind, for complex "
             "artifacts with routing or state - not for simple single-file HTML artifacts.")


def test_a_prompt_quoting_a_memory_with_its_clause_loads_that_memory(workspace: Path) -> None:
    # A memory's whole description pasted as the prompt holds its clause, marker and all: the
    # prompt names the memory and says "not for X" itself, so it does not ask for X. It was
    # excluded as describing its own exclusion.
    root = workspace / ".engram"
    put(root, "artifacts.md", mem("web-artifacts", "skill", tags=["artifacts"], summary=ARTIFACTS,
                                  body="Scaffold the app, bundle it to one file."))
    put(root, "html.md", mem("html-snippets", tags=["html"],
                             summary="Write small HTML snippets by hand."))
    assert pack_ids(workspace, ARTIFACTS)[0] == "web-artifacts"
    # The excluded task, asked for, still keeps it out.
    _, rows = dry(workspace, "simple single-file HTML artifacts")
    assert rows["web-artifacts"]["status"] == "excluded: negated"


def test_a_prompt_that_is_a_memory_s_exclusion_clause_does_not_load_it(workspace: Path) -> None:
    # The prompt is the skill's own clause, marker and all: it says what the skill is not for.
    # Pasted with the rest of the description, the same clause names the skill.
    root = workspace / ".engram"
    summary = ("Implements a new frontend feature end to end, from the component to its tests. "
               "Do NOT use for fixing existing UI bugs (use frontend-fix).")
    put(root, "feature.md", mem("frontend-feature", "skill", tags=["frontend", "feature"],
                                summary=summary,
                                body="Start from the design, then the component, then tests."))
    put(root, "fix.md", mem("frontend-fix", "skill", tags=["frontend", "fix"],
                            summary="Finds and fixes a UI bug in an existing screen."))
    clause = "Do NOT use for fixing existing UI bugs (use frontend-fix)"
    _, rows = dry(workspace, clause)
    assert rows["frontend-feature"]["status"] == "excluded: negated"
    assert "frontend-feature" not in pack_ids(workspace, clause)
    assert pack_ids(workspace, summary)[0] == "frontend-feature"


def test_a_prompt_repeating_a_body_exclusion_sentence_is_not_that_task(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "notes.md", mem(
        "release-notes", "skill", summary="Draft the release notes for a version.",
        body="Collect the merged pull requests.\n\nDo not use this skill when the release "
             "notes are already approved by legal."))
    put(root, "other.md", mem("changelog", tags=["changelog"], summary="Keep a changelog."))
    sentence = "Do not use this skill when the release notes are already approved by legal."
    assert pack_ids(workspace, sentence) == ["release-notes"]
    # Without the marker, the prompt asks for the excluded case.
    _, rows = dry(workspace, "release notes already approved by legal")
    assert rows["release-notes"]["status"] == "excluded: negated"


def test_an_exclusion_on_the_last_line_keeps_the_memory_out_of_that_task(
        workspace: Path) -> None:
    # The author's clause closes the body; before, it was not found there and its words
    # *boosted* the memory for exactly the task it rules out.
    root = workspace / ".engram"
    put(root, "commits.md", mem(
        "commit-messages", tags=["git", "commits"], triggers=["write a commit message"],
        body="Conventional Commits, imperative summary under 72 characters.\n\n"
             "Not for PR descriptions; those follow the pull request template.\n"))
    put(root, "prs.md", mem("pull-requests", tags=["pull-requests"],
                            triggers=["write the PR description"],
                            summary="Keep pull requests small and fill in the template."))
    put(root, "testing.md", mem("testing", tags=["testing"], body="Every change has a test.\n\n"
                                "Do not use this for commit messages or PR descriptions.\n"))
    query = "write the PR description for the refunds work"
    assert pack_ids(workspace, query) == ["pull-requests"]
    _, rows = dry(workspace, query)
    assert rows["commit-messages"]["status"] == "excluded: negated"
    assert pack_ids(workspace, "write a commit message for the fix") == ["commit-messages"]


def test_a_query_describing_the_clause_excludes_however_much_else_matches(
        workspace: Path) -> None:
    # "send", "appointment" and "reminder" are all over the email rule; "SMS reminders" is what
    # its author said it is not for.
    root = workspace / ".engram"
    put(root, "email.md", mem(
        "email-notifications", tags=["email", "notifications"],
        directive="Send appointment reminder emails through notifications.send().",
        body="Every appointment email has a plain-text part.\n\n"
             "Do not use this for SMS reminders; those go through the SMS module.\n"))
    put(root, "sms.md", mem("sms-reminders", tags=["sms", "twilio"],
                            summary="Text messages respect opt-outs and quiet hours."))
    query = "send an SMS reminder the day before the appointment"
    assert pack_ids(workspace, query) == ["sms-reminders"]
    _, rows = dry(workspace, query)
    assert rows["email-notifications"]["status"] == "excluded: negated"
    assert rows["email-notifications"]["multipliers"] == (
        "the query describes its exclusion: Do not use this for SMS reminders")
    assert "email-notifications" in pack_ids(workspace, "send the appointment reminder email")


def test_exclusion_clause_terms_are_negative_evidence_only(tmp_path: Path) -> None:
    raw = mem("pdf-reports", "skill", body=PDF_BODY,
              summary="Branded PDF reports. Do not use for spreadsheets.").encode()
    memory, problems = parse_memory(raw, display_path="pdf.md", scope="workspace",
                                    rel_path="pdf.md")
    assert memory is not None and not problems
    texts = field_texts(memory)
    assert "spreadsheet" in texts["negative"]
    assert all("spreadsheet" not in texts[f] for f in FIELDS if f != "negative")


def test_a_rule_about_x_is_not_an_exclusion_of_x(workspace: Path) -> None:
    # "do not use mocks for X" says something about X; it is positive evidence for X.
    assert negation_clauses("Do not use mocks for database tests.") == []
    put(workspace / ".engram", "t.md", mem("db-tests", body="Do not use mocks for database tests."))
    assert pack_ids(workspace, "database tests") == ["db-tests"]


def test_a_query_sharing_one_word_with_the_clause_still_loads(workspace: Path) -> None:
    put(workspace / ".engram", "a.md", mem(
        "web-artifacts", "skill", tags=["artifacts", "react"],
        summary="Multi-component React artifacts with state. Not for simple static HTML pages.",
        body="Scaffold the artifact, develop it in React, bundle it into one HTML file."))
    assert pack_ids(workspace, "build a react artifact with state management") == [
        "web-artifacts"]
    assert pack_ids(workspace, "a simple static HTML page") == []


def test_a_word_shared_with_a_clause_does_not_lose_the_memory_its_score(
        workspace: Path) -> None:
    # "develop" is in the Netlify rule's closing clause and in its body; the rule's id and tags
    # name the task. It used to be left out of the ranking (score 0) for touching a clause.
    root = workspace / ".engram"
    put(root, "netlify.md", mem(
        "netlify-official", tags=["netlify", "official"],
        body="Deploy functions with netlify dev while you develop.\n\n"
             "Do not use this when you need to develop an image pipeline.\n"))
    for n in range(6):
        put(root, f"other{n}.md", mem(f"other-{n}", body=f"Develop the integration {n} with "
                                      "the official SDK during development."))
    query = "Netlify development with the official integration"
    assert pack_ids(workspace, query, "--limit", "3")[0] == "netlify-official"
    _, rows = dry(workspace, query)
    assert rows["netlify-official"]["multipliers"].startswith("medium0.9 ws1.1 named1.25")


def test_a_clause_is_judged_on_what_it_excludes_not_on_why(workspace: Path) -> None:
    # ", which change freely" says why; "the internal admin endpoints" is what is excluded.
    root = workspace / ".engram"
    put(root, "versioning.md", mem(
        "api-versioning", tags=["api", "versioning"],
        directive="Never make a breaking change to /api/v1; add the new shape under /api/v2.",
        body="Deprecate old fields for a release before removing them.\n\n"
             "This rule is not for the internal admin endpoints under `/internal/`, which "
             "change freely.\n"))
    put(root, "endpoint.md", mem("drf-endpoint", "skill", tags=["endpoint", "drf"],
                                 triggers=["add an api endpoint"]))
    query = "add an endpoint under /internal/ for the support team, breaking the old response"
    assert pack_ids(workspace, query) == ["drf-endpoint"]
    _, rows = dry(workspace, query)
    assert rows["api-versioning"]["status"] == "excluded: negated"
    assert "api-versioning" in pack_ids(workspace, "add a breaking change to the v1 api")


# Exclusions listed under a heading or a lead-in, as skill collections write them.
QUEUE_BODY = ("Enqueue background work on the job queue with retries and a dead letter list.\n\n"
              "## When NOT to use\n\n"
              "- Replaying months of order history - the event log keeps it\n"
              "- Windows desktop installers\n\n"
              "## Retries\n\n"
              "- Back off exponentially between attempts\n")
QUEUE_LEAD_IN = ("Enqueue background work on the job queue with retries and a dead letter list.\n\n"
                 "Do NOT use this skill for:\n\n"
                 "- Replaying months of order history - the event log keeps it\n"
                 "- Windows desktop installers\n\n"
                 "Back off exponentially between attempts.\n")


def queue_workspace(root: Path, body: str) -> None:
    put(root, "queue.md", mem("job-queue", "skill", tags=["jobs", "queue"], body=body))
    put(root, "events.md", mem("event-log", tags=["events", "replay"],
                               summary="The append-only event log: consumers replay it."))


@pytest.mark.parametrize("body", [QUEUE_BODY, QUEUE_LEAD_IN])
def test_an_exclusion_list_keeps_the_memory_out_of_the_listed_task(workspace: Path,
                                                                   body: str) -> None:
    # Each item under "When NOT to use" (or after "Do NOT use this skill for:") is a clause of
    # its own; they were ordinary body words and pulled the queue skill into the very task.
    queue_workspace(workspace / ".engram", body)
    query = "replay the order history of the last months for the new consumer"
    assert pack_ids(workspace, query) == ["event-log"]
    _, rows = dry(workspace, query)
    assert rows["job-queue"]["status"] == "excluded: negated"
    assert pack_ids(workspace, "enqueue the work with retries") == ["job-queue"]


@pytest.mark.parametrize("body", [QUEUE_BODY, QUEUE_LEAD_IN])
def test_listed_exclusions_are_negative_evidence_only(tmp_path: Path, body: str) -> None:
    raw = mem("job-queue", "skill", body=body).encode()
    memory, problems = parse_memory(raw, display_path="q.md", scope="workspace", rel_path="q.md")
    assert memory is not None and not problems
    assert memory.negations == ("Replaying months of order history - the event log keeps it",
                                "Windows desktop installers")
    texts = field_texts(memory)
    assert "desktop" in texts["negative"]
    assert all("desktop" not in texts[f] for f in FIELDS if f != "negative")
    # The list after the exclusions is the memory's own advice again.
    assert "exponenti" in texts["body"]


def test_a_list_of_what_a_tool_is_not_for_is_a_rule_about_the_tool(workspace: Path) -> None:
    # "Never use flowcharts for:" lists what flowcharts are not for; the items are the rule's
    # advice, not tasks the memory excludes.
    body = ("Draw a flowchart only for decisions.\n\nNever use flowcharts for:\n"
            "- Reference material, which belongs in tables\n- Linear instructions\n")
    raw = mem("diagram-style", body=body).encode()
    memory, _ = parse_memory(raw, display_path="d.md", scope="workspace", rel_path="d.md")
    assert memory is not None and memory.negations == ()
    put(workspace / ".engram", "d.md", mem("diagram-style", tags=["diagrams"], body=body))
    assert pack_ids(workspace, "the reference material as a flowchart") == [
        "diagram-style"]


def test_a_colon_list_of_exclusions_excludes_every_item(workspace: Path) -> None:
    # "DO NOT USE FOR: a - use x; b - use y": only the first item used to count.
    root = workspace / ".engram"
    put(root, "pubsub.md", mem(
        "light-pubsub", "skill", tags=["pubsub"],
        summary="Lightweight publish/subscribe between services. DO NOT USE FOR: event "
                "sourcing - use the event log; fan-out by routing key - use the broker"))
    put(root, "broker.md", mem("broker", tags=["broker", "routing"],
                               summary="Exchanges and bindings route messages by key."))
    query = "fan-out by routing key to the regional consumers"
    _, rows = dry(workspace, query)
    assert rows["light-pubsub"]["status"] == "excluded: negated"
    assert pack_ids(workspace, query) == ["broker"]
    # A colon after more than the marker gives a reason; the semicolon ends the clause there.
    assert negation_clauses("Do not use this for production: it lacks auth; see the setup "
                            "guide.") == ["Do not use this for production: it lacks auth"]


def test_a_listed_sentence_pasted_whole_finds_its_memory(workspace: Path) -> None:
    # A list item long enough to be a sentence, pasted as the prompt, is the memory's own text:
    # it names that memory, as any body sentence would, instead of excluding it.
    root = workspace / ".engram"
    put(root, "extract.md", mem(
        "typed-extraction", "skill", tags=["extraction"],
        body="Ask the model for JSON that matches a schema and validate it.\n\n"
             "## When NOT to use\n\n"
             "- The user wants form validation in the browser with a schema library\n"))
    put(root, "forms.md", mem("web-forms", tags=["forms"], summary="Browser form handling."))
    sentence = "The user wants form validation in the browser with a schema library"
    assert pack_ids(workspace, sentence)[0] == "typed-extraction"
    # Asked for as a task, it is what the memory is not for.
    _, rows = dry(workspace, "add form validation in the browser")
    assert rows["typed-extraction"]["status"] == "excluded: negated"


def test_a_seven_word_listed_sentence_pasted_whole_finds_its_memory(workspace: Path) -> None:
    # Seven words, three of them content words: a body sentence all the same.
    root = workspace / ".engram"
    put(root, "refactor.md", mem(
        "module-refactors", "skill", tags=["refactors"],
        body="Move code between packages in small steps.\n\n## When NOT to use\n\n"
             "- the task is mainly about performance tuning\n"))
    put(root, "perf.md", mem("profiling", tags=["profiling"],
                             summary="Profile before tuning performance."))
    assert pack_ids(workspace, "the task is mainly about performance tuning")[0] == (
        "module-refactors")
    _, rows = dry(workspace, "performance tuning of the report page")
    assert rows["module-refactors"]["status"] == "excluded: negated"


def test_words_the_memory_states_outside_its_list_keep_it_for_its_task(workspace: Path) -> None:
    # The list repeats "merged" and "pull request"; the summary says they are what it is for.
    root = workspace / ".engram"
    put(root, "promote.md", mem(
        "promote", "skill", tags=["promote"],
        summary="Promote a merged pull request to production and watch the rollout.",
        body="Watch the pipeline run.\n\n## When NOT to use\n\n"
             "- Getting a pull request's checks green before it is merged\n"))
    put(root, "checks.md", mem("checks-loop", "skill", tags=["checks"],
                               summary="Fix failing checks until the branch is green."))
    assert pack_ids(workspace, "promote the merged pull request to production")[0] == "promote"
    _, rows = dry(workspace, "get the checks on my pull request green before it is merged")
    assert rows["promote"]["status"] == "excluded: negated"


def test_each_alternative_a_clause_lists_is_excluded(workspace: Path) -> None:
    # "Windows or macOS host administration": a task on a Windows machine is one of them,
    # though it holds one of the clause's four words.
    root = workspace / ".engram"
    put(root, "host.md", mem(
        "linux-hosting", "skill", tags=["linux", "hosting"],
        summary="Bring up a Linux server for hosting: firewall, reverse proxy, certificates.",
        body="Open only the ports the proxy needs.\n\n## When NOT to use\n\n"
             "- Windows or macOS host administration\n"))
    put(root, "agents.md", mem("build-agents", tags=["build", "agents"],
                               summary="CI build agents and their images."))
    query = "open the ports on the Windows build agent"
    _, rows = dry(workspace, query)
    assert rows["linux-hosting"]["status"] == "excluded: negated"
    assert pack_ids(workspace, query) == ["build-agents"]
    assert pack_ids(workspace, "put the app behind a reverse proxy on the linux server")[0] == (
        "linux-hosting")


def test_a_common_word_alone_in_a_clause_excludes_nothing(workspace: Path) -> None:
    # "tests" is in most memories: as one alternative of "tests or load scripts" it names no
    # task of its own, and a test task for the API keeps the API rule.
    root = workspace / ".engram"
    put(root, "api.md", mem("api-rules", tags=["api"], summary="Version the API and its tests.",
                            body="Keep old fields for a release.\n\n"
                                 "Not for tests or load scripts.\n"))
    for n in range(3):
        put(root, f"t{n}.md", mem(f"tests-{n}", tags=[f"area{n}"],
                                  summary=f"Write tests for area {n}."))
    _, rows = dry(workspace, "version the api tests")
    assert rows["api-rules"]["status"] != "excluded: negated"


def test_a_clause_that_qualifies_the_memory_s_own_topic_excludes_only_what_it_adds(
        workspace: Path) -> None:
    # "Decisions not yet made" keeps one word, "decision", which the skill's own description
    # is about: a task about a decision is its task. Its other clause still holds.
    root = workspace / ".engram"
    put(root, "adr.md", mem("adr-writer", "skill", tags=["adr"],
                            summary="Creates architecture decision records that document why "
                                    "a technical choice was made.",
                            body="Write the context, the decision and its consequences.\n\n"
                                 "Do NOT use for:\n\n"
                                 "- Decisions not yet made - use `rfc-writer` first\n"
                                 "- Meeting notes or minutes\n"))
    put(root, "rfc.md", mem("rfc-writer", "skill", tags=["rfc"],
                            summary="Proposes a change for discussion before it is decided."))
    assert "adr-writer" in body_ids(ok(load(workspace, "document this decision")))
    _, rows = dry(workspace, "take the meeting notes and minutes")
    assert rows["adr-writer"]["status"] == "excluded: negated"


def test_a_memory_for_other_file_types_stays_out_of_a_file_task(workspace: Path) -> None:
    # Editing a React test: the pytest rule's trigger "add a test" is in the prompt, but its
    # own globs say it is for Python files.
    root = workspace / ".engram"
    put(root, "pytest.md", mem("pytest-conventions", tags=["testing", "pytest"],
                               triggers=["add a test"], applies_to=["app/**/tests/**/*.py"],
                               directive="Backend tests use pytest with factories."))
    put(root, "vitest.md", mem("frontend-testing", tags=["vitest"],
                               applies_to=["frontend/src/**/*.test.{ts,tsx}"],
                               directive="Frontend tests use Vitest and Testing Library."))
    put(root, "state.md", mem("react-state", tags=["react"], body="Keep state local."))
    tsx = "frontend/src/Table/Table.test.tsx"
    assert pack_ids(workspace, "add a test for the empty state", "--path", tsx) == [
        "frontend-testing", "react-state"]
    _, rows = dry(workspace, "add a test for the empty state", "--path", tsx)
    assert rows["pytest-conventions"]["status"] == "excluded: other-files"
    # A Python file the globs do not cover is still Python: the rule stays.
    py = "app/billing/api.py"
    assert "pytest-conventions" in pack_ids(workspace, "add a test for the refund", "--path", py)
    assert "pytest-conventions" in pack_ids(workspace, "add a test for the empty state")


# -- near-duplicates ---------------------------------------------------------------------------
LOG_BODY = ("Log one event per line as JSON with a message, a level and the request id. Never log "
            "secrets, tokens or personal data, and keep messages short and stable.")


def test_a_pack_holds_one_of_a_near_duplicate_group(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "a.md", mem("logging-style", tags=["logging"], body=LOG_BODY))
    put(root, "b.md", mem("logging-handbook", tags=["logging", "handbook"],
                          body=LOG_BODY.replace("short and stable", "short and stable too")))
    put(root, "c.md", mem("logging-levels", tags=["logging"],
                          body="Use warning for recoverable trouble, error when a request fails."))
    loaded = pack_ids(workspace, "logging secrets and personal data", "--all")
    assert len({"logging-style", "logging-handbook"} & set(loaded)) == 1
    _, rows = dry(workspace, "logging secrets and personal data")
    statuses = {rows[m]["status"] for m in ("logging-style", "logging-handbook")}
    assert "excluded: duplicate" in statuses
    check = run(["check", "--no-global"], workspace).stdout
    assert "near-duplicate of logging-style" in check
    assert "logging-levels" not in check
    graph = ok(run(["graph", "--no-global"], workspace))
    assert "logging-handbook, logging-style" in graph


def test_the_kept_duplicate_is_the_best_ranked_one(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "a.md", mem("logging-style", body=LOG_BODY))
    put(root, "b.md", mem("request-logging", tags=["request", "logging"], body=LOG_BODY))
    assert pack_ids(workspace, "request logging") == ["request-logging"]


# -- topics no memory holds --------------------------------------------------------------------
AIRFLOW = ("Best practices for building robust, maintainable data pipelines with Apache Airflow "
           "DAGs in Python")
AUTH0 = ("Guidelines for secure, maintainable Auth0 login flows that prevent common identity "
         "attacks with modern authentication patterns")


def test_a_query_about_an_unknown_library_keeps_what_it_names(tmp_path: Path) -> None:
    # Airflow is in no memory; but "data pipelines" is a memory's id, side by side in the
    # prompt, and "Python" a tag only python-style has: those two are about the task.
    project = fixture_project(tmp_path)
    assert {"data-pipelines", "python-style"} <= set(pack_ids(project, AIRFLOW))
    # Auth0 is in no memory either, and nothing else in the query is specific evidence.
    assert ok(load(project, AUTH0)) == EMPTY
    _, rows = dry(project, AUTH0)
    assert rows and all(r["status"] == "excluded: off-topic" for r in rows.values()
                        if r["status"] != "excluded: gate")


@pytest.mark.parametrize(("query", "expected"), [
    ("Best practices for building robust, maintainable ETL jobs with Apache Airflow DAGs in "
     "Python and our csv-exports", "csv-exports"),
    # a trigger phrase among new nouns
    ("ship it to prod once the Kubernetes autoscaler and the Istio mesh rollout finish tonight",
     "deploy-production"),
])
def test_a_memory_the_query_names_is_never_withheld_as_zero_match(
        tmp_path: Path, query: str, expected: str) -> None:
    project = fixture_project(tmp_path)
    assert expected in pack_ids(project, query)


def test_new_nouns_around_a_trigger_phrase_keep_the_pack(workspace: Path) -> None:
    # "rename" and "dashboard" are in no memory: a prompt with a memory's trigger in it must not
    # come back empty (it did: the memories held under half the query's information).
    root = workspace / ".engram"
    put(root, "trpc.md", mem("trpc-procedures", "skill", triggers=["add a trpc procedure"],
                             summary="Adding a tRPC procedure to a router, with its input schema."))
    put(root, "auth.md", mem("permissions", tags=["permissions", "rbac"],
                             summary="Check a project-scoped permission before every write."))
    put(root, "ui.md", mem("ui-kit", tags=["components"], summary="Use the shared UI kit."))
    for n in range(6):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", summary=f"Release note {n}."))
    assert pack_ids(workspace, "add a tRPC procedure to rename a dashboard") == [
        "trpc-procedures"]
    assert "permissions" in pack_ids(
        workspace, "check that a user has the project:update permission before deleting a prompt")


def test_the_same_words_route_when_the_topic_is_known(tmp_path: Path) -> None:
    project = fixture_project(tmp_path)
    assert pack_ids(project, "build a robust data pipeline for the nightly events")[0] == \
        "data-pipelines"


def test_a_verb_that_frames_the_task_is_not_an_unknown_topic(workspace: Path) -> None:
    # "take", "look" and "figure" are in no memory; they name nothing, and the words that do are in
    # the database rule ("slow report queries", "missing index").
    root = workspace / ".engram"
    put(root, "db.md", mem("database-rules", tags=["database", "sql"],
                           summary="Constraints, transactions and connection pooling.",
                           body="Find slow report queries with the query plan.\n\n"
                                "Add the missing index on the join columns."))
    put(root, "queue.md", mem("job-queue", tags=["jobs"], summary="Background jobs retry."))
    assert pack_ids(workspace, "the report query is slow, take a look and figure out which "
                               "index is missing") == ["database-rules"]
    # A name no memory holds still is a topic of its own.
    assert ok(load(workspace, "the Cassandra report query is slow, figure out which index is "
                              "missing")) == EMPTY


def test_a_quantity_or_a_word_of_time_and_speed_is_not_an_unknown_topic(workspace: Path) -> None:
    # "3M", "hour" and "speed" are in no memory; the words that say what to speed up
    # ("iterrows", "rows", "report script") are in the data-frame rule's body.
    root = workspace / ".engram"
    put(root, "frames.md", mem("dataframe-rules", tags=["pandas"],
                               summary="Data frames in the nightly jobs.",
                               body="Never loop with iterrows: vectorise over the rows.\n\n"
                                    "The usage report script reads the events once."))
    put(root, "queue.md", mem("job-queue", tags=["jobs"], summary="Background jobs retry."))
    put(root, "ui.md", mem("ui-rules", tags=["frontend"], summary="Components and styling."))
    assert pack_ids(workspace, "the usage report script does iterrows over 3M rows and takes "
                               "an hour, speed it up") == ["dataframe-rules"]
    # A name no memory holds still is a topic of its own, with a digit in it too.
    assert ok(load(workspace, "the Spark usage report script does iterrows over 3M rows and "
                              "takes an hour, speed it up")) == EMPTY
    assert ok(load(workspace, "the usage report script does iterrows over the 2FA rows and "
                              "takes an hour, speed it up")) == EMPTY


def test_one_word_of_a_trigger_phrase_is_not_its_name(workspace: Path) -> None:
    # "node" of "writing backend services in node.js" is not the Elasticsearch nodes; a prompt
    # holding half of the phrase is the task it names, new nouns around it or not.
    root = workspace / ".engram"
    put(root, "node.md", mem("fastify-services", "skill", tags=["fastify"],
                             triggers=["writing backend services in node.js"],
                             body="Use Fastify and structured logging."))
    put(root, "queue.md", mem("job-queue", tags=["jobs"], summary="Background jobs retry."))
    assert ok(load(workspace, "tune the heap of the Elasticsearch nodes")) == EMPTY
    assert pack_ids(workspace, "writing backend services in Node for the Cassandra "
                               "importer") == ["fastify-services"]


def test_go_the_verb_is_not_the_go_language(workspace: Path) -> None:
    # "go over the diff" named the Go rule by its id and tag: a whole name, the strongest
    # evidence there is, for a review prompt.
    root = workspace / ".engram"
    put(root, "go.md", mem("go-services", tags=["go", "gin"],
                           summary="Go services: errors wrapped with %w, contexts passed first."))
    put(root, "review.md", mem("code-review", "skill", tags=["review"],
                               summary="Review a diff for correctness before it is merged."))
    for n, topic in enumerate(("billing", "auth", "search", "caching")):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", tags=[topic],
                                  summary=f"Conventions for {topic}."))
    for query in ("go over the diff on feat/export and tell me if it is safe to merge",
                  "let's go with the second option for billing", "go ahead and review the diff"):
        assert "go-services" not in pack_ids(workspace, query), query
    assert pack_ids(workspace, "wrap the errors of the Go billing service")[0] == "go-services"


def said_workspace(root: Path) -> None:
    # Modelled on a public "explain this code" skill whose trigger phrases are what people say.
    put(root, "explain.md", mem(
        "explain", "skill", tags=["explain"],
        triggers=["why does this exist", "turn this into a skill"],
        summary="Explain why a piece of code is built the way it is, from its history.",
        body="Read the blame and the commits that touched it before answering."))
    for n, topic in enumerate(("billing", "auth", "search", "caching", "email", "logging")):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", tags=[topic],
                                  summary=f"Conventions for {topic}.",
                                  body="Every setting must exist in the registry."))


def test_a_trigger_phrase_said_around_a_new_noun_names_its_memory(workspace: Path) -> None:
    # "why does this exist": every content word but "exist" is a function word, and "exist" is in
    # most memories, so the prompt met the skill by one common word and the gate dropped it.
    said_workspace(workspace / ".engram")
    assert pack_ids(workspace, "why does the PaymentRetryQueue class exist, it looks "
                               "unused") == ["explain"]
    assert pack_ids(workspace, "turn our release checklist into a skill") == ["explain"]


@pytest.mark.parametrize("query", [
    "does the PaymentRetryQueue class still exist anywhere, and why",  # not the phrase
    "why does the nightly import job that feeds the warehouse exist",  # five words in its place
])
def test_a_trigger_phrase_not_said_as_written_names_nothing(workspace: Path, query: str
                                                            ) -> None:
    said_workspace(workspace / ".engram")
    assert "explain" not in pack_ids(workspace, query)


@pytest.mark.parametrize(("query", "paths", "expected"), [
    ("edit this file", ["migrations/0042_add_index.sql"], "db-migrations"),
    ("add a small feature to this file", ["src/api/users.py"], "api-errors"),
    ("csv-exports", [], "csv-exports"),
    ("ship it to prod", [], "deploy-production"),
])
def test_paths_ids_and_trigger_phrases_are_never_judged_on_coverage(
        tmp_path: Path, query: str, paths: list[str], expected: str) -> None:
    project = fixture_project(tmp_path)
    args = [a for p in paths for a in ("--path", p)]
    assert expected in pack_ids(project, query, *args)


def test_a_path_match_survives_a_query_about_an_unknown_library(tmp_path: Path) -> None:
    project = fixture_project(tmp_path)
    assert ok(load(project, AUTH0)) == EMPTY
    assert pack_ids(project, AUTH0, "--path", "dags/etl.py") == ["python-style"]


def test_words_met_only_in_a_long_body_do_not_make_a_topic_known(workspace: Path) -> None:
    # "Ansible" is in no memory. The deployment guide's long body happens to say "role" and
    # "nginx": chance, not a topic, so the pack stays empty.
    root = workspace / ".engram"
    put(root, "deploy.md", mem(
        "deployment-guide", tags=["deploy"], summary="How the service is deployed.",
        body="Each server role runs behind nginx. Write the release notes, install the "
             "package, restart the workers and watch the dashboards for ten minutes."))
    for n, topic in enumerate(["billing", "search", "caching", "logging", "i18n", "pagination"]):
        put(root, f"m{n}.md", mem(f"{topic}-rules", tags=[topic],
                                  summary=f"How {topic} works in this version."))
    assert ok(load(workspace, "write an Ansible role to install nginx")) == EMPTY
    _, rows = dry(workspace, "write an Ansible role to install nginx")
    assert rows["deployment-guide"]["status"] == "excluded: off-topic"
    # Where the memory states the word, the topic is known ("deploy" is its tag).
    assert pack_ids(workspace, "write an Ansible role to deploy the service") == [
        "deployment-guide"]


def test_words_only_one_memory_holds_make_a_long_description_its_topic(
        workspace: Path) -> None:
    # A long description (strict: a word must be rare and stated) of a rule whose summary is
    # not there, and whose id ("a11y") shares no word with it: its body alone holds "WCAG" and
    # "ADA". It came back empty (off-topic), though no other memory holds either word.
    root = workspace / ".engram"
    put(root, "a11y.md", mem("a11y", body=(
        "Meet WCAG 2.2 AA. Under ADA Title II public sites must be usable by keyboard; every "
        "interactive element needs an accessible name.")))
    for n, topic in enumerate(["billing", "search", "caching", "logging", "i18n", "pagination"]):
        put(root, f"m{n}.md", mem(f"{topic}-rules", tags=[topic],
                                  summary=f"How {topic} works in modern web frameworks."))
    query = ("Comprehensive web accessibility standards based on WCAG 2.2 AA, with anti-patterns, "
             "legal enforcement context (ADA Title II) and fixes for modern web frameworks.")
    assert pack_ids(workspace, query)[0] == "a11y"
    # In a short task such words are chance: the deployment guide above, the one memory that
    # says "role" and "nginx", stays out of "write an Ansible role to install nginx".


def test_words_two_memories_hold_make_a_long_description_its_topic(workspace: Path) -> None:
    # The Supabase rule's body names getSession, getUser and RLS; one other memory names
    # getSession, another getUser. Three words held by two memories at most, all in one rule,
    # make the description that rule's: it came back empty (off-topic).
    root = workspace / ".engram"
    put(root, "supa.md", mem("nextjs-supabase", tags=["nextjs", "supabase"], body=(
        "Call getUser on the server, never trust getSession there. Every table has RLS "
        "policies enabled.")))
    put(root, "browser.md", mem("browser-client", tags=["browser"],
                                body="The browser reads the session with getSession."))
    put(root, "ios.md", mem("ios-accounts", tags=["ios"],
                            body="The profile screen calls getUser after sign-in."))
    for n, topic in enumerate(["billing", "search", "caching", "logging", "i18n", "pagination"]):
        put(root, f"m{n}.md", mem(f"{topic}-rules", tags=[topic],
                                  summary=f"How {topic} works in modern web frameworks."))
    query = ("Architecture rules that prevent hallucinated code: insecure auth (getSession vs "
             "getUser), deprecated imports, missing RLS and leaked keys, for coding agents.")
    assert pack_ids(workspace, query)[:1] == ["nextjs-supabase"]


def summary_workspace(root: Path) -> None:
    """Memories that state their topic in a summary, as most imported rules do."""
    put(root, "docker.md", mem(
        "docker-images", tags=["docker"],
        summary="Build small images: multi-stage builds, pin the base image version.",
        body="Use a slim base, copy the lockfile first, run as a non-root user."))
    put(root, "slots.md", mem(
        "appointment-scheduling", tags=["appointments"],
        summary="How bookable slots are generated.",
        body="Each practitioner has weekly working hours; slots come from them day by day."))
    for n, topic in enumerate(["billing", "search", "caching", "logging", "i18n", "pagination",
                               "emails", "uploads"]):
        put(root, f"m{n}.md", mem(f"{topic}-rules", "knowledge",
                                  summary=f"How {topic} works in this version."))


def test_one_word_a_summary_states_in_passing_does_not_make_a_topic_known(
        workspace: Path) -> None:
    # Terraform is in no memory. "pin" is in the Docker rule's summary ("pin the base image
    # version"), and nothing else specific to the query is in it ("version" is in most
    # memories): an aside, not a topic.
    summary_workspace(workspace / ".engram")
    query = "write Terraform modules with remote workspaces and provider version pinning"
    assert ok(load(workspace, query)) == EMPTY
    _, rows = dry(workspace, query)
    assert rows["docker-images"]["status"] == "excluded: off-topic"
    # With a second specific word of the task in the memory, the summary's word is its topic
    # ("slots" stated, "practitioners" and "day" in its body); Sydney is in no memory.
    assert pack_ids(workspace, "practitioners in Sydney see their Monday slots shifted by a "
                               "day, figure out why") == ["appointment-scheduling"]
    # A word in its names (its tag "docker") is enough on its own.
    assert pack_ids(workspace, "pin the Docker image that the Terraform runner uses") == [
        "docker-images"]


def test_a_memory_met_only_in_passing_beside_a_clear_match_is_a_card(workspace: Path) -> None:
    # The release skill's trigger is the task; the hotfix skill's summary mentions a release in
    # passing, and the deploy guide's body does. Both are related and listed; neither is what
    # a developer would open for it, so neither prints in full.
    root = workspace / ".engram"
    put(root, "release.md", mem(
        "release-process", "skill", tags=["release"], triggers=["cut a release"],
        summary="Cut a release: changelog, version bump, tag.",
        body="1. Update CHANGELOG.md.\n2. Bump the version.\n3. Tag and push."))
    put(root, "hotfix.md", mem(
        "hotfix-process", "skill", tags=["hotfix"],
        summary="Ship an urgent fix outside the release train.",
        body="Branch from the last tag, fix, and deploy the patch."))
    put(root, "deploy.md", mem(
        "deploy-guide", tags=["deploy"], summary="How the service is deployed.",
        body="Deploys go out after each release, one host at a time."))
    for n in range(16):  # enough memories for "release", in three, to be a specific word
        put(root, f"m{n}.md", mem(f"topic-{n}", "knowledge", summary=f"How part {n} works."))
    out = ok(load(workspace, "cut a release for tomorrow"))
    assert body_ids(out) == ["release-process"]
    assert set(card_ids(out)) == {"hotfix-process", "deploy-guide"}
    # The same memory, named by its tag, prints in full: a name is no passing mention.
    out = ok(load(workspace, "cut a release with a hotfix"))
    assert set(body_ids(out)) >= {"release-process", "hotfix-process"}


def test_a_hyphenated_compound_is_known_by_its_parts(workspace: Path) -> None:
    # "human-readable" is written nowhere as one word, but "human" and "readable" are: the
    # query is about what the memories discuss, not about something none of them knows.
    root = workspace / ".engram"
    put(root, "clean.md", mem("clean-code", tags=["clean", "code"],
                              body="Write names that are human and readable."))
    for n in range(8):
        put(root, f"c{n}.md", mem(f"code-style-{n}", tags=["code"],
                                  body=f"Write clean code in module {n}: keep it "
                                       "maintainable and human readable."))
    query = "Guidelines for writing clean, maintainable, and human-readable code"
    assert "clean-code" in pack_ids(workspace, query)


def test_a_query_holding_a_memory_name_whole_ranks_it_first(workspace: Path) -> None:
    # "react" and "query" are common here, so no single word of react-query's name is
    # specific; the prompt holds the whole name side by side, the surest sign of all.
    root = workspace / ".engram"
    put(root, "rq.md", mem("react-query", tags=["react", "query"],
                           body="Cache keys are arrays; invalidate after a mutation."))
    for n in range(5):
        put(root, f"r{n}.md", mem(
            f"react-stack-{n}", tags=["react"],
            body=f"React development {n}: query the API through the integration layer, "
                 "develop components, then query again in development."))
    query = "Cursor rules for React development with React Query integration."
    assert pack_ids(workspace, query, "--limit", "3")[0] == "react-query"
    _, rows = dry(workspace, query)
    assert "exact1.25" in rows["react-query"]["multipliers"]
    assert "exact1.25" not in rows["react-stack-0"]["multipliers"]


def test_a_camel_case_name_held_whole_is_the_memory_s_id(workspace: Path) -> None:
    # "GitHub" is also read as "git" and "hub"; those parts stood between "github" and
    # "actions", so the prompt did not hold `github-actions` side by side.
    root = workspace / ".engram"
    put(root, "gha.md", mem("github-actions", tags=["github", "actions"],
                            body="Pin third-party actions to a commit."))
    for n in range(4):
        put(root, f"g{n}.md", mem(f"github-team-{n}", tags=["github"],
                                  body=f"Team {n} keeps its actions and github settings here."))
    query = "Cache dependencies in the GitHub Actions workflows"
    _, rows = dry(workspace, query)
    assert "whole-id1.25" in rows["github-actions"]["multipliers"]
    assert pack_ids(workspace, query, "--limit", "2")[0] == "github-actions"


DESCRIPTION = ("Comprehensive guidelines for developing robust, scalable and maintainable {} "
               "applications, covering project structure, performance, security and testing.")


TEMPLATE = ("This rule provides comprehensive best practices and coding standards for {} "
            "projects, covering code organization, performance, security, testing, and common "
            "pitfalls.")


def test_a_templated_description_goes_to_the_memory_its_one_word_id_names(tmp_path: Path) -> None:
    # Public rule collections fill one template per library: the other libraries' summaries
    # share every word of the prompt but its name, and outscored the memory it names, whose own
    # summary is missing. A one-word id no other id shares, held by a long description, names
    # the memory as surely as a whole id of two words.
    root = tmp_path / ".engram"
    for lib in ("django", "flask", "rails", "laravel", "spring", "gin"):
        put(root, f"{lib}.md", mem(lib, tags=[lib], summary=TEMPLATE.format(lib.title()),
                                   body=f"Follow the {lib.title()} project layout."))
    put(root, "expo.md", mem("expo", tags=["expo"],
                             body="Code organization, performance, security and testing for "
                                  "Expo apps: keep the Expo config in app.json and test on a "
                                  "device with Expo Go."))
    for topic in ("release notes", "incident review", "database backups", "feature flags",
                  "api versioning", "logging format", "error budgets", "commit messages",
                  "pull requests", "translations", "caching", "rate limits", "email templates",
                  "payments", "invoices", "search indexing", "file uploads", "audit log",
                  "permissions", "design tokens", "analytics events", "cron jobs", "queues",
                  "migrations"):
        put(root, topic.replace(" ", "-") + ".md",
            mem(topic.replace(" ", "-"), tags=topic.split(), summary=f"How we handle {topic}.",
                body=f"Write down who owns {topic} and where the runbook lives."))
    prompt = TEMPLATE.format("Expo")
    assert pack_ids(tmp_path, prompt, "--limit", "3")[0] == "expo"
    _, rows = dry(tmp_path, prompt, "--limit", "3")
    assert "whole-id1.25" in rows["expo"]["multipliers"]


def test_a_long_description_names_the_memory_whose_one_word_id_it_holds(
        workspace: Path) -> None:
    # A rule's own description with its summary withheld: "FastAPI" is the rule's whole id, and
    # two other memories mention FastAPI in passing. It came back empty as off-topic.
    root = workspace / ".engram"
    put(root, "fastapi.md", mem("fastapi", body="Keep route handlers thin; use dependencies."))
    for n in range(2):
        put(root, f"m{n}.md", mem(f"service-{n}", tags=[f"service{n}"],
                                  body=f"Service {n} exposes a FastAPI app behind the proxy."))
    for n in range(6):
        put(root, f"p{n}.md", mem(f"python-{n}", body="Type hints everywhere."))
    assert pack_ids(workspace, DESCRIPTION.format("FastAPI"))[0] == "fastapi"
    # A word in many ids ("python") names none of them.
    assert ok(load(workspace, DESCRIPTION.format("Python"))) == EMPTY


def test_a_small_workspace_is_not_silenced_by_words_it_has_never_seen(workspace: Path) -> None:
    # Most of a chatty prompt is unknown to three memories: unknown words say little here.
    root = workspace / ".engram"
    put(root, "a.md", mem("api-tests", tags=["api", "testing"],
                          directive="Every API handler has a test in tests/api."))
    put(root, "b.md", mem("db-migrations", tags=["database", "migrations"],
                          summary="How schema migrations are written."))
    put(root, "c.md", mem("release", tags=["release"], summary="Steps to cut a release."))
    assert pack_ids(workspace, "fix the failing test in src/api/user.py") == ["api-tests"]
    assert pack_ids(workspace, "add a database migration for the users table") == [
        "db-migrations"]


OWN_SET = Path(__file__).parent.parent / "bench" / "routing" / "memories"


def own_project(tmp_path: Path) -> Path:
    """The project's own routing set (47 memories of a clinic-booking SaaS) in a project."""
    shutil.copytree(OWN_SET, tmp_path / ".engram")
    return tmp_path


@pytest.mark.parametrize("query", [
    # "set" stems like the settings memory's id and tag: a common word, no evidence of a topic
    "set up a Kubernetes horizontal pod autoscaler for the GraphQL gateway",
    "set up a Terraform workspace for the Hetzner load balancer",
])
def test_a_common_word_in_a_memory_name_keeps_an_unknown_topic_empty(tmp_path: Path,
                                                                     query: str) -> None:
    project = own_project(tmp_path)
    assert ok(load(project, query)) == EMPTY
    _, rows = dry(project, query)
    assert rows["settings-and-secrets"]["status"] == "excluded: off-topic"


def test_a_domain_word_in_a_memory_name_with_the_task_in_its_body_keeps_the_pack(
        tmp_path: Path) -> None:
    # "lawyer" is in no memory. "patient" is in a quarter of a clinic's memories, so it alone
    # says nothing; but it is the privacy rule's tag, and its body says what the task is
    # ("export or erasure of one patient's data"), while the report skill excludes itself.
    project = own_project(tmp_path)
    query = "export everything we hold on one patient for their lawyer"
    ids = pack_ids(project, query)
    assert ids[:1] == ["patient-data-privacy"]
    assert "reports-export" not in ids


@pytest.mark.parametrize("named", [3, 12])
def test_boilerplate_in_memory_names_is_no_topic(tmp_path: Path, named: int) -> None:
    # Kafka is in no memory. The same body word ("consumer"), beside the same name word, keeps
    # the pack while a quarter of the memories are named "best practices" (too many for the
    # word to be specific, few enough to be a topic), and not once every one is: a word in
    # every memory's name is the collection's boilerplate.
    root = tmp_path / ".engram"
    topics = ["queues", "tables", "forms", "charts", "dates", "icons", "fonts", "colors",
              "menus", "modals", "toasts", "tabs"]
    for n, topic in enumerate(topics):
        mid = topic + ("-best-practices" if n < named else "-conventions")
        body = ("Commit offsets after the consumer has processed the batch." if n == 0
                else f"Keep the {topic} code in one module and document it.")
        put(root, f"m{n}.md", mem(mid, summary=f"How we write {topic}.", body=body))
    query = "best practices for a consumer that survives Kafka rebalances and retries"
    ids = pack_ids(tmp_path, query)
    if named == 12:
        assert ids == []
    else:
        assert ids[:1] == ["queues-best-practices"]


def test_a_word_of_a_named_memory_s_id_prints_no_other_memory_in_full(tmp_path: Path) -> None:
    root = tmp_path / ".engram"
    put(root, "d.md", mem("deploy-production", "skill", summary="Deploying a release.",
                          triggers=["ship to production"], body="Tag, build, roll out."))
    put(root, "l.md", mem("log-retention", tags=["production-logs"],
                          directive="Keep logs for 30 days.", body="Rotate them nightly."))
    put(root, "c.md", mem("code-style", directive="Format with ruff.", body="Lines under 100."))
    # The trigger names the deploy skill; "production" is that skill's id word, and the log
    # rule's tag shares only it: related, a card.
    text = ok(load(tmp_path, "ship to production tonight"))
    assert body_ids(text) == ["deploy-production"]
    assert card_ids(text) == ["log-retention"]


def test_a_prefixed_verb_no_memory_holds_meets_its_base_word(tmp_path: Path) -> None:
    root = tmp_path / ".engram"
    put(root, "b.md", mem("booking-rules", summary="How bookings are made and cancelled.",
                          tags=["booking"], body="A booking holds one slot."))
    put(root, "v.md", mem("view-layer", summary="Where views live.", tags=["views"],
                          body="Views render templates."))
    put(root, "r.md", mem("code-review", summary="How we review code.", tags=["review"],
                          body="Review every pull request."))
    # "rebook" is in no memory: the task is about booking
    query = "let patients rebook from the confirmation page"
    assert pack_ids(tmp_path, query) == ["booking-rules"]
    text, _ = dry(tmp_path, query)
    assert "anchors: patient, book, confirm, page" in text
    # "review" is a memory's own word: it is never read as "view"
    assert pack_ids(tmp_path, "review the confirmation page") == ["code-review"]


def test_a_file_extension_no_memory_holds_meets_its_language(tmp_path: Path) -> None:
    root = tmp_path / ".engram"
    put(root, "s.md", mem("shell-scripts", summary="Shell scripts stay small and composable.",
                          tags=["shell"], body="One job per script; split long ones."))
    put(root, "p.md", mem("python-style", summary="How Python code is laid out.",
                          tags=["python"], body="Format with ruff."))
    put(root, "d.md", mem("deploy-docs", summary="Where deploy notes live.",
                          body="Write down each script a release runs."))
    # "sh" is in no memory: the file is a shell script
    query = "the deploy.sh script is 400 lines with 14 flags, break it up"
    assert pack_ids(tmp_path, query)[:1] == ["shell-scripts"]
    text, _ = dry(tmp_path, query)
    assert "anchors: deploy, shell, script, line, flag, break" in text
    assert pack_ids(tmp_path, "models.py grew past 2000 lines, split it")[:1] == ["python-style"]
    # a memory that holds the extension as a word keeps it as written
    put(root, "e.md", mem("sh-wrappers", summary="Every sh wrapper sets -eu.", tags=["sh"],
                          body="The sh wrappers live in bin/."))
    text, _ = dry(tmp_path, query)
    assert "anchors: deploy, sh, script, line, flag, break" in text


@pytest.mark.parametrize("query", [
    "let the front desk reschedule an appointment from the day view",
    "add an endpoint that lets a receptionist schedule an appointment in another room",
])
def test_a_word_of_an_id_the_prompt_holds_whole_prints_no_other_memory_in_full(
        tmp_path: Path, query: str) -> None:
    # The prompt names appointment-scheduling whole; the jobs skill shares only "schedule"
    # (its tag "scheduled-jobs", its trigger "schedule a nightly job"): related, a card.
    text = ok(load(own_project(tmp_path), query))
    assert "appointment-scheduling" in body_ids(text)
    assert "periodic-jobs" in card_ids(text)


@pytest.mark.parametrize(("query", "expected"), [
    # new nouns ("insurance_provider", "waitlist", "cancelled_reason") beside specific evidence:
    # "model" in the model rule's id and tags, "text" in the SMS rule's tags, "SMS" its id
    ("add an insurance_provider field to the Patient model", "model-conventions"),
    ("add a loyalty_tier field to the Clinic model", "model-conventions"),
    ("add a waitlist so patients get a text when a cancelled slot frees up", "sms-reminders"),
    ("add a cancelled_reason field to Appointment and send the patient an SMS", "sms-reminders"),
])
def test_new_nouns_beside_specific_evidence_keep_the_pack(tmp_path: Path, query: str,
                                                          expected: str) -> None:
    assert expected in pack_ids(own_project(tmp_path), query)


@pytest.mark.parametrize(("query", "body", "card"), [
    # "work" is in many memories: met in a summary or a body it relates a memory, no more
    ("also make it work in German", "i18n", "patient-search"),
    ("and make it work in French too", "i18n", "appointment-scheduling"),
    # the refunds are the PR's subject; the billing rule holds "refund" once, in its body
    ("write the PR description for the refunds work", "pull-requests", "billing-stripe"),
])
def test_common_words_relate_a_memory_but_never_print_it_in_full(
        tmp_path: Path, query: str, body: str, card: str) -> None:
    text = ok(load(own_project(tmp_path), query))
    assert body_ids(text) == [body]
    assert card in card_ids(text)


def test_the_best_match_prints_in_full_however_common_its_words(workspace: Path) -> None:
    # "review" and "ui" are in most of these memories; the best of them is still the answer.
    root = workspace / ".engram"
    put(root, "a.md", mem("design-check", "skill", summary="Review the UI against the guidelines.",
                          triggers=["review my ui"], body="Check spacing, contrast and focus."))
    for n in range(3):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", summary=f"Review notes {n}.",
                                  body="The UI review happens on Fridays."))
    text = ok(load(workspace, "review my UI"))
    assert body_ids(text)[:1] == ["design-check"]


@pytest.mark.parametrize("query", [
    "add an endpoint for the front desk team to merge two duplicate patient records into one",
    "add an endpoint that lets the support team merge duplicate invoices, the old response "
    "shape can break",
])
def test_a_memory_named_by_a_rare_word_outranks_many_chance_words(tmp_path: Path,
                                                                   query: str) -> None:
    # "endpoint" is the endpoint skill's id and tag, and in few memories; "merge" (the
    # migrations rule's "merged"), "team" and "old" meet other memories by chance. The skill
    # and its three prerequisites (a group of four) must make the pack of eight, in order.
    project = own_project(tmp_path)
    ids = pack_ids(project, query)
    assert "drf-endpoint" in ids
    for prerequisite in ("services-and-selectors", "django-app-layout", "permissions-rbac"):
        assert ids.index(prerequisite) < ids.index("drf-endpoint")
    _, rows = dry(project, query)
    assert "exact1.25" in rows["drf-endpoint"]["multipliers"]


@pytest.mark.parametrize("query", [
    "only admins should be able to void an invoice",
    "only admins should be allowed to archive old coupons",
])
def test_one_specific_word_in_a_trigger_passes_the_gate(tmp_path: Path, query: str) -> None:
    # "admin" is in few memories and in the permissions rule's trigger "restrict this to
    # admins": one such word says what the task is about, though the query has four anchors.
    project = own_project(tmp_path)
    assert "permissions-rbac" in pack_ids(project, query)


def test_one_common_word_in_a_trigger_does_not_pass_the_gate(tmp_path: Path) -> None:
    # "add" is in most memories, and in many triggers: it says nothing about the task.
    _, rows = dry(own_project(tmp_path), "add the invoice footer wording from legal")
    assert rows["pytest-conventions"]["status"] == "excluded: gate"


# -- path triggers with braces -----------------------------------------------------------------
def test_brace_globs_match_each_alternative(workspace: Path) -> None:
    put(workspace / ".engram", "r.md", mem("frontend", applies_to=["src/**/*.{ts,tsx}"]))
    for path in ("src/app/page.tsx", "src/lib/util.ts"):
        assert pack_ids(workspace, "edit this file", "--path", path) == ["frontend"]
    assert pack_ids(workspace, "edit this file", "--path", "src/app/page.js") == []


def test_expand_braces() -> None:
    assert expand_braces("**/*.{ts,tsx}") == ["**/*.ts", "**/*.tsx"]
    assert expand_braces("a{b,c{d,e}}f") == ["abf", "acdf", "acef"]
    assert expand_braces("{,src/}x.md") == ["x.md", "src/x.md"]
    assert expand_braces("lit{eral}") == ["lit{eral}"]  # no comma: a literal, as in bash


# -- BM25 --------------------------------------------------------------------------------------
CORPUS = [
    mem("release-checklist", tags=["release"], summary="Steps to cut a release.",
        body="Bump the version, tag the release and push the tag."),
    mem("db-migrations", "knowledge", tags=["database", "migrations"],
        summary="Migrations run before the deploy.", body="Never edit an applied migration."),
    mem("deploy-service", "skill", directive="Deploy with the script.",
        triggers=["ship the release"], body="Run the deploy script, then check the release."),
    mem("changelog-style", summary="Changelog entries for each release.",
        body="One imperative line per change."),
]


def weighted_document(text: str) -> list[str]:
    memory, _ = parse_memory(text.encode(), display_path="m.md", scope="workspace",
                             rel_path="m.md")
    assert memory is not None
    texts = field_texts(memory)
    return [t for name, weight in WEIGHTS.items() for t in texts[name] * weight]


def engram_bm25(project: Path, query: str) -> dict[str, float]:
    hits = pipeline.search(scopes.Request(query=query, cwd=str(project),
                                            workspace=str(project), use_global=False))
    return {h.memory.id: h.bm25 for h in hits}


@pytest.mark.parametrize("size", [2, 4])
@pytest.mark.parametrize("query", ["release", "deploy the release", "migrations changelog"])
def test_pure_python_bm25_agrees_with_rank_bm25(workspace: Path, size: int, query: str) -> None:
    texts = CORPUS[:size]
    for n, text in enumerate(texts):
        put(workspace / ".engram", f"m{n}.md", text)
    ours = engram_bm25(workspace, query)
    from engram.tokenize import anchors

    reference = reference_bm25([weighted_document(t) for t in texts], anchors(query))
    for text, expected in zip(texts, reference, strict=True):
        mid = text.split("\n")[1].removeprefix("id: ")
        assert ours.get(mid, 0.0) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_bm25_leaves_out_a_memory_that_lost_its_id(workspace: Path) -> None:
    # A second file with the same id loses to the lexically first path: it is not scored, and
    # it does not count in the corpus statistics either.
    from engram.tokenize import anchors

    texts = CORPUS[:4]
    for n, text in enumerate(texts):
        put(workspace / ".engram", f"m{n}.md", text)
    put(workspace / ".engram", "zz-twin.md",
        texts[0].replace("Bump the version", "Bump the version, tag and release the release"))
    query = "deploy the release"
    ours = engram_bm25(workspace, query)
    reference = reference_bm25([weighted_document(t) for t in texts], anchors(query))
    for text, expected in zip(texts, reference, strict=True):
        mid = text.split("\n")[1].removeprefix("id: ")
        assert ours.get(mid, 0.0) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@pytest.mark.slow  # the development set, whole
def test_pure_python_bm25_agrees_with_rank_bm25_on_the_dev_set(tmp_path: Path) -> None:
    # Every case query of the development set, over its 141 memories: the same score for every
    # memory as rank_bm25 gives the same weighted documents (exclusion clauses taken out).
    from engram.tokenize import anchors

    devset = dev_set()
    shutil.copytree(devset / "memories", tmp_path / ".engram")
    documents, ids = [], []
    for path in sorted((tmp_path / ".engram").rglob("*.md")):
        memory, _ = parse_memory(path.read_bytes(), display_path=path.name, scope="workspace",
                                 rel_path=path.name)
        assert memory is not None, path.name
        documents.append(weighted_document(path.read_text(encoding="utf-8")))
        ids.append(memory.id)
    cases = json.loads((devset / "cases.json").read_text(encoding="utf-8"))["cases"]
    compared = 0
    for case in cases:
        ours = engram_bm25(tmp_path, case["query"])
        reference = reference_bm25(documents, anchors(case["query"]))
        for mid, expected in zip(ids, reference, strict=True):
            assert ours.get(mid, 0.0) == pytest.approx(expected, rel=1e-9, abs=1e-12), \
                (case["id"], mid)
        compared += len(ours)
    assert len(cases) == 55 and compared > 5000


@pytest.mark.parametrize("size", [2, 4])
def test_a_matched_anchor_always_adds_a_positive_amount(workspace: Path, size: int) -> None:
    # "release" is in every memory of the 2-corpus and in 3 of 4: plain Okapi IDF is <= 0 there.
    for n, text in enumerate(CORPUS[:size]):
        put(workspace / ".engram", f"m{n}.md", text)
    alone = engram_bm25(workspace, "release")
    assert alone and all(score > 0 for score in alone.values())
    both = engram_bm25(workspace, "release tag")
    assert both["release-checklist"] > alone["release-checklist"]


# -- everyday words, denied words, conditions and redirects (the third external set) -----------
def reasoning_workspace(root: Path) -> None:
    put(root, "reasoning.md", mem(
        "structured-reasoning", "skill", tags=["reasoning"],
        triggers=["is this a good idea", "is that number right"],
        summary="Pick a reasoning frame: tradeoffs, decision matrix, root cause.",
        body="Name the frame, fill it before concluding, say what would flip it."))
    put(root, "queue.md", mem("job-queue", "skill", tags=["jobs", "queue"],
                              summary="Background jobs with retries and dead letters."))
    put(root, "pdf.md", mem("pdf-reports", tags=["pdf", "reports"],
                            summary="Branded PDF reports of the analytics tables."))


@pytest.mark.parametrize("query", [
    "what's a good recipe for sourdough bread",
    "what's the right number of eggs for a pancake batter",
])
def test_everyday_words_of_a_trigger_phrase_are_no_topic(workspace: Path, query: str) -> None:
    # "good" of "is this a good idea", "right" and "number" of "is that number right": few
    # memories hold them, so they looked specific, and the reasoning skill came back for recipes.
    reasoning_workspace(workspace / ".engram")
    assert ok(load(workspace, query)) == EMPTY
    # The phrase itself still finds the skill.
    assert pack_ids(workspace, "is this a good idea?") == ["structured-reasoning"]


def legacy_workspace(root: Path) -> None:
    put(root, "legacy.md", mem(
        "legacy-change-safety", "skill", tags=["legacy", "characterization"],
        summary="Safe bug fixes in old code with weak tests: characterize behaviour first.",
        body="Reproduce the current behaviour and pin it with a characterization test.\n\n"
             "Do not use this skill for cleanly tested new code or docs-only work."))
    put(root, "style.md", mem("code-style", tags=["style"],
                              summary="Pure functions, named exports, no classes."))
    put(root, "queue.md", mem("job-queue", "skill", tags=["jobs", "queue"],
                              summary="Background jobs with retries and dead letters."))


def test_a_word_the_prompt_denies_does_not_describe_an_exclusion(workspace: Path) -> None:
    # "it has no tests" is not "cleanly tested new code": the legacy skill was excluded as
    # describing its own exclusion for the very task it is for.
    legacy_workspace(workspace / ".engram")
    query = "fix the rounding bug in the old code, it has no tests at all"
    assert pack_ids(workspace, query)[0] == "legacy-change-safety"
    # Said plainly, the excluded task still keeps it out.
    _, rows = dry(workspace, "write cleanly tested new code for the export")
    assert rows["legacy-change-safety"]["status"] == "excluded: negated"


NATS_BODY = ("Subjects, queue groups and request-reply on NATS. JetStream keeps a short replay "
             "window of recent events.\n\n## When NOT to Use\n\n"
             "- Long-term event replay required\n- Exactly-once delivery needed\n")


def test_a_listed_condition_is_judged_on_what_it_names(workspace: Path) -> None:
    # "Long-term event replay required": "long-term" is one idea and "required" only makes the
    # item a condition, so "replay of six months of order events" meets two of its three, and
    # the NATS skill is no longer loaded for the task it excludes (it says "replay" and
    # "events" outside its list too, so the clause is not merely where the prompt met it).
    root = workspace / ".engram"
    put(root, "nats.md", mem("nats-messaging", "skill", tags=["nats", "messaging"],
                             summary="Lightweight pub/sub, queue groups and event fan-out "
                                     "over NATS.",
                             body=NATS_BODY))
    put(root, "store.md", mem("event-store", tags=["events", "store"],
                              summary="The append-only event store and its consumers."))
    query = "we need replay of six months of order events"
    _, rows = dry(workspace, query)
    assert rows["nats-messaging"]["status"] == "excluded: negated"
    assert "nats-messaging" not in pack_ids(workspace, query)
    assert pack_ids(workspace, "publish to a NATS subject with a queue group")[0] == (
        "nats-messaging")


REVIEW_BODY = ("Review the branch with local context and draft comments.\n\n"
               "## When NOT to use this skill\n\n"
               "For deep or high-stakes review (money flows, auth, production migrations), "
               "defer to the security review pipeline rather than this one. This skill is the "
               "quick local pass.\n")


def test_a_redirect_under_when_not_to_use_is_an_exclusion(workspace: Path) -> None:
    # A paragraph, not a list, under "When NOT to use": its sentence that sends the task
    # elsewhere excludes what it names and the examples in its parenthesis; the sentence that
    # says what the skill is stays its own.
    raw = mem("quick-review", "skill", body=REVIEW_BODY).encode()
    memory, _ = parse_memory(raw, display_path="r.md", scope="workspace", rel_path="r.md")
    assert memory is not None
    assert [n for n in memory.negations if "defer to" in n] and not [
        n for n in memory.negations if "quick local pass" in n]
    root = workspace / ".engram"
    put(root, "review.md", mem("quick-review", "skill", tags=["review"], body=REVIEW_BODY))
    put(root, "db.md", mem("db-migrations", tags=["migrations"],
                           summary="Write reversible schema migrations."))
    _, rows = dry(workspace, "review the payments changes before the production migration")
    assert rows["quick-review"]["status"] == "excluded: negated"
    assert pack_ids(workspace, "review my branch before I open the PR") == ["quick-review"]


def test_a_parenthesis_that_sends_the_task_elsewhere_names_no_example(workspace: Path) -> None:
    # "(English only, see release-changelog)" says why and where to go, not what else is
    # excluded: a prompt about hardcoded English text is the i18n rule's own task.
    root = workspace / ".engram"
    put(root, "i18n.md", mem("i18n-strings", tags=["i18n", "translations"],
                             triggers=["hardcoded text", "translate a string"],
                             summary="Every user-facing string goes through the i18n macro.",
                             body="Wrap strings with t`...`; run the extract script.\n\n"
                                  "Not for: the website release changelog (English only, see "
                                  "release-changelog)."))
    put(root, "changelog.md", mem("release-changelog", tags=["changelog"],
                                  summary="The website's release changelog entries."))
    query = "the empty state text on the board is hardcoded English, fix it"
    _, rows = dry(workspace, query)
    assert rows["i18n-strings"]["status"] != "excluded: negated", rows["i18n-strings"]
    assert pack_ids(workspace, query)[:1] == ["i18n-strings"]


def test_a_short_query_met_by_one_body_word_is_about_nothing_here(workspace: Path) -> None:
    # Two of three words no memory holds, the third once in a body: there is no match, where
    # one word of a summary still is one.
    root = workspace / ".engram"
    put(root, "incidents.md", mem(
        "incident-log", "skill", tags=["incidents"],
        summary="Record security incidents and rotate leaked keys.",
        body="Write one short paragraph per incident: what leaked, when, what was rotated."))
    put(root, "queue.md", mem("job-queue", "skill", tags=["jobs", "queue"],
                              summary="Background jobs with retries and dead letters."))
    assert ok(load(workspace, "translate this paragraph into French")) == EMPTY
    _, rows = dry(workspace, "translate this paragraph into French")
    assert rows["incident-log"]["status"] == "excluded: off-topic"
    assert pack_ids(workspace, "rotate the Stripe key") == ["incident-log"]


def test_a_prompt_saying_what_a_clause_denies_is_not_that_clause(workspace: Path) -> None:
    # "Not for: ... work with no continuation": a prompt about continuing the work is the
    # opposite of what the clause excludes, and the handoff skill was excluded for it.
    root = workspace / ".engram"
    put(root, "handoff.md", mem(
        "session-handoff", "skill", tags=["handoff"],
        summary="Write a resume pointer so a fresh session picks the work up.",
        body="Goal, files to read first, state, next action.\n\n"
             "Not for: quick one-off questions, or work with no continuation."))
    put(root, "queue.md", mem("job-queue", "skill", tags=["jobs", "queue"],
                              summary="Background jobs with retries and dead letters."))
    query = "continue this work tomorrow in a fresh session"
    assert pack_ids(workspace, query) == ["session-handoff"]
    _, rows = dry(workspace, "a quick one-off question about the API")
    assert rows["session-handoff"]["status"] == "excluded: negated"


def test_one_sentence_of_a_listed_exclusion_pasted_whole_finds_its_memory(
        workspace: Path) -> None:
    # The item has two sentences; the prompt pastes the first, the memory's own text, and the
    # memory was excluded for describing its exclusion.
    root = workspace / ".engram"
    put(root, "team.md", mem(
        "agent-teams", "skill", tags=["orchestration"],
        summary="Roles, task states and handoffs for a team of agents.",
        body="A builder and a reviewer, routed by an orchestrator.\n\n"
             "## When NOT to Use\n\n"
             "- One-off work delegation — spawn a session directly. This skill is for "
             "sustained workflows with many handoffs.\n"))
    put(root, "queue.md", mem("job-queue", "skill", tags=["jobs", "queue"],
                              summary="Background jobs with retries and dead letters."))
    assert pack_ids(workspace, "One-off work delegation — spawn a session directly.") == [
        "agent-teams"]
    _, rows = dry(workspace, "delegate this one-off work")
    assert rows["agent-teams"]["status"] == "excluded: negated"


# -- prompts of two requests -------------------------------------------------------------------
def two_request_workspace(root: Path) -> None:
    """Two React form memories that share most of the first request's words, and one release
    memory that only the second request's words meet, in its body."""
    put(root, "signup.md", mem("react-signup", tags=["react", "signup"],
                               summary="The React signup flow.",
                               body="The signup form validates the email field before submit "
                                    "and shows errors inline."))
    put(root, "forms.md", mem("react-forms", tags=["react", "forms"],
                              summary="Forms in the React app: validation and inline errors.",
                              body="Validate every form field on blur and show the error "
                                   "inline under the field."))
    put(root, "release.md", mem("release-notes", tags=["releases"],
                                summary="How a release is prepared and published.",
                                body="Before tagging, fill in the release form and update the "
                                     "changelog: entries grouped by version, newest first."))


def test_each_request_of_a_two_part_prompt_gets_its_best_memory(workspace: Path) -> None:
    # Ranked as one prompt, the second React memory outscores the release memory, and the
    # changelog request would get nothing at a pack size of two.
    two_request_workspace(workspace / ".engram")
    prompt = ("validate the react signup form fields and show errors inline; also, draft the "
              "changelog entries grouped by version")
    assert body_ids(ok(load(workspace, prompt, "--limit", "2"))) == ["react-signup",
                                                                   "release-notes"]
    _, rows = dry(workspace, prompt, "--limit", "2")
    assert rows["react-forms"]["status"] == "related (limit)"


def test_a_second_request_met_by_one_word_takes_no_place(workspace: Path) -> None:
    # The release memory is related (its body says "form" and "version"), but "version" alone
    # is chance, not the memory answering the second request.
    two_request_workspace(workspace / ".engram")
    prompt = ("validate the react signup form fields and show errors inline. Then "
              "double-check the version number, please")
    assert body_ids(ok(load(workspace, prompt, "--limit", "2"))) == ["react-signup",
                                                                   "react-forms"]


# -- found by a sixth blind set of public rules and typed prompts --------------------------------
APP_ROUTER_BODY = ("# App Router\n"
                   "**Purpose:** Server-first rendering and data fetching in Next.js.\n\n"
                   "**Applies when:** Layouts, server actions, data fetching, streaming.\n"
                   "**Do not use when:** Working in the Pages Router (`/pages`) or outside "
                   "Next.js.\n\n"
                   "## Rules\n"
                   "- Fetch in server components; add a client component only for a button or "
                   "other interactivity.\n"
                   "- Mutate through server actions and revalidate the page data after.\n")


def test_a_path_in_an_exclusion_s_parenthesis_is_not_an_example_of_it(workspace: Path) -> None:
    # "(`/pages`)" restates the Pages Router; "page" alone is in most web tasks. The clause
    # still excludes a task about the Pages Router itself.
    root = workspace / ".engram"
    put(root, "app.md", mem("nextjs-app-router", "skill", tags=["nextjs", "server"],
                            body=APP_ROUTER_BODY))
    put(root, "css.md", mem("css-modules", tags=["css"], body="One module per component."))
    query = ("add a 'mark as paid' button on the InvoiceDetail page. should go through a server "
             "action and refresh the page data after")
    assert pack_ids(workspace, query)[:1] == ["nextjs-app-router"]
    _, rows = dry(workspace, "move the pricing page off the pages router")
    assert rows["nextjs-app-router"]["status"] == "excluded: negated"


STRIPE_BODY = ("- Use the `@stripe/stripe-js` package for client-side Stripe integration.\n"
               "- Collect card details with Stripe Elements; never let raw card input reach "
               "your server.\n")


def test_a_rare_tag_said_in_a_long_task_is_never_withheld_as_zero_match(
        workspace: Path) -> None:
    # Thirteen content words make a long prompt, where one word of it is an aside in ranking;
    # "stripe" is still this rule's own name, and its text says it.
    root = workspace / ".engram"
    put(root, "stripe.md", mem("stripe-best-practices", tags=["stripe", "payments"],
                               body=STRIPE_BODY))
    put(root, "cache.md", mem("caching", tags=["caching", "performance"],
                              body="Cache reads in Redis with a TTL and an owner."))
    # The task's other words are in other memories too: no word but "stripe" is this rule's own.
    put(root, "forms.md", mem("form-fields", tags=["forms"],
                              body="Each input element validates on blur; a card number input "
                                   "masks its digits."))
    put(root, "ui.md", mem("ui-kit", tags=["components"],
                           body="Use the kit's Card and Input; never style a raw element."))
    for n in range(4):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", summary=f"Release note {n}."))
    task = ("hook up the billing settings form: plan picker, card input via stripe elements, and "
            "validate the VAT id")
    assert "stripe-best-practices" in pack_ids(workspace, task)
    # A tag the memory's text never says is a label, not its topic: a long description of
    # something else that says "performant" keeps the pack empty.
    assert ok(load(workspace, "Comprehensive best practices for using Polars DataFrames: lazy "
                              "evaluation, expressions, and performant joins in Python data "
                              "workflows.")) == EMPTY


def test_a_short_prompt_met_only_by_a_common_word_is_about_nothing_here(workspace: Path) -> None:
    # "name" is in half of these rules, where they state what they are for; "good" is in the
    # notes; "cat" in none: a question about a cat's name meets the memories by chance. A short
    # task with a word few of them hold still loads its rule.
    root = workspace / ".engram"
    for area in ["events", "flags", "logging", "components", "search", "models"]:
        put(root, f"{area}.md", mem(f"{area}-rule", tags=[area],
                                    directive=f"Name every {area} entry after what it does.",
                                    body=f"Keep {area} small and reviewed."))
    for n in range(6):
        put(root, f"note{n}.md", mem(f"note-{n}", "knowledge",
                                     summary=f"What made release {n} a good one."))
    put(root, "hooks.md", mem("webhooks", tags=["webhooks"],
                              body="Verify the signature of every incoming webhook first."))
    assert ok(load(workspace, "what's a good name for my cat")) == EMPTY
    assert pack_ids(workspace, "retry the failed webhook for Acme")[:1] == ["webhooks"]


def test_a_b_not_c_and_i_dont_mean_turn_the_other_memory_down(workspace: Path) -> None:
    # "unit tests, not integration tests against the database" asks for the unit-test rule;
    # the integration rule named by the denied words stays out. "I don't mean the auth guards"
    # no longer reads as a description of the CI rule's exclusion ("Not for auth guards").
    root = workspace / ".engram"
    put(root, "unit.md", mem("unit-testing", tags=["unit", "jest"],
                             summary="Unit tests with Jest next to the file under test.",
                             body="Mock the network; one behaviour per test."))
    put(root, "integration.md", mem("integration-tests", tags=["integration", "database"],
                                    summary="Integration tests run against a real database.",
                                    body="Reset the database before each integration test."))
    put(root, "actions.md", mem("actions-security", tags=["ci", "actions"],
                                summary="Hardening CI workflows: pin third-party actions.",
                                body="Pin every third-party action to a commit SHA.\n\n"
                                     "Not for auth guards in the app."))
    pack = pack_ids(workspace, "write plain unit tests for the date util, not integration tests "
                               "against the database")
    assert pack[:1] == ["unit-testing"] and "integration-tests" not in pack, pack
    assert pack_ids(workspace, "harden our CI workflows against compromised third-party "
                               "actions, I don't mean the app's auth guards")[:1] == [
        "actions-security"]


def test_a_prerequisite_the_prompt_turns_down_by_name_is_not_pulled_in(workspace: Path) -> None:
    # The settings-state rule depends on the GraphQL rule; a prompt that says no GraphQL is
    # involved gets the state rule without it, and the state rule's `requires:` line still names
    # what it was not given. Without the denial, the prerequisite comes first as usual.
    root = workspace / ".engram"
    put(root, "graphql.md", mem("graphql-operations", tags=["graphql", "apollo"],
                                summary="Queries and mutations through the generated hooks.",
                                body="Run codegen after editing a .graphql document."))
    put(root, "state.md", mem("ui-state", tags=["state", "atoms"],
                              depends_on=["graphql-operations"],
                              summary="Shared UI state in atoms, server data in the cache.",
                              body="Keep which tab or panel is open in an atom, not in the URL."))
    for n in range(4):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", summary=f"Release note {n}."))
    denied = ok(load(workspace, "keep which settings tab is open in shared UI state; it's not "
                                "server data so no graphql is involved"))
    assert printed_ids(denied) == ["ui-state"], denied
    assert "requires: graphql-operations" in denied
    assert printed_ids(ok(load(workspace, "keep which settings tab is open in shared UI state")
                          )) == ["graphql-operations", "ui-state"]


def test_what_the_person_says_they_are_not_shipping_is_turned_down(workspace: Path) -> None:
    # "I'm not shipping any schema change" names the migration rule's tag: the reset rule alone.
    # A bug report's "it's not updating the list" still asks about the list.
    root = workspace / ".engram"
    put(root, "reset.md", mem("database-reset", tags=["database", "reset", "seed"],
                              summary="Reset and seed the local database.",
                              body="Run the reset script; it drops and seeds the dev database."))
    put(root, "migrations.md", mem("schema-migrations", tags=["schema", "migrations", "database"],
                                   summary="Every schema change ships with a migration.",
                                   body="Generate the migration, review it, run it in CI."))
    put(root, "lists.md", mem("record-lists", tags=["list", "table"],
                              summary="Record lists refresh from the store.",
                              body="A list re-renders when its query result changes."))
    for n in range(4):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", summary=f"Release note {n}."))
    assert "schema-migrations" in pack_ids(workspace, "reset my local database before a schema "
                                                      "change")
    pack = pack_ids(workspace, "reset my local database; I'm not shipping any schema change")
    assert pack[:1] == ["database-reset"] and "schema-migrations" not in pack, pack
    assert "record-lists" in pack_ids(workspace, "the record list is not updating the table")


def test_a_denial_turns_down_the_memory_it_names_whole_not_its_neighbours(
        workspace: Path) -> None:
    # "not a security review" names the security review rule; the performance review rule
    # shares only its tag "review" and is the task. "no Python tests" turns down the Python
    # test rule, not the Jest one the prompt asks for. "no log lines", which no memory names
    # whole, still turns down the logging rule by its word. "don't open a PR yet" asks for no
    # opening: the commit rule's "Not for: opening the pull request" does not exclude it.
    root = workspace / ".engram"
    put(root, "sec.md", mem("security-review", "skill", tags=["security", "review"],
                            summary="Security review of an endpoint: access control, scoping.",
                            body="Check every query filters by the caller's organization."))
    put(root, "perf.md", mem("performance-review", "skill", tags=["performance", "review"],
                             summary="Finding N+1 queries and slow endpoints.",
                             body="Profile the endpoint; prefetch related rows in the list."))
    put(root, "pytests.md", mem("python-endpoint-tests", tags=["python", "tests"],
                                summary="Python tests for API endpoints.",
                                body="One test class per endpoint, with a member and an owner."))
    put(root, "jest.md", mem("jest-component-tests", tags=["jest", "frontend", "tests"],
                             summary="Jest tests for frontend components.",
                             body="Render the component and assert what the user sees. Not for: "
                                  "Python tests."))
    put(root, "logs.md", mem("structured-logging", tags=["logging", "log"],
                             summary="Structured log events with a stable name.",
                             body="Log an event name and its fields, never a formatted message."))
    put(root, "metrics.md", mem("metrics-counters", tags=["metrics", "counter"],
                                summary="Counters and their tag cardinality.",
                                body="A counter name says what happened; tags stay few."))
    put(root, "commit.md", mem("commit-messages", tags=["commit", "branch"],
                               summary="Committing work on a branch: the message format.",
                               body="Subject in the imperative.\n\nNot for: opening or "
                                    "describing the pull request."))
    put(root, "pr.md", mem("pull-requests", tags=["pr", "pull-request"],
                           summary="Opening a pull request as a draft, with a description.",
                           body="Open PRs as drafts until checks pass."))
    pack = pack_ids(workspace, "the uptime list endpoint is timing out, find the N+1s. This is "
                               "not a security review")
    assert pack[:1] == ["performance-review"] and "security-review" not in pack, pack
    pack = pack_ids(workspace, "write a jest spec for the new tooltip, frontend only, no Python "
                               "tests")
    assert pack[:1] == ["jest-component-tests"] and "python-endpoint-tests" not in pack, pack
    pack = pack_ids(workspace, "add a counter for how often the batcher skips an org, metric "
                               "only, no log lines")
    assert pack[:1] == ["metrics-counters"] and "structured-logging" not in pack, pack
    pack = pack_ids(workspace, "commit what I have on this branch, don't open a PR yet")
    assert pack[:1] == ["commit-messages"] and "pull-requests" not in pack, pack


def test_a_prompt_naming_an_identifier_of_code_is_never_about_nothing_here(
        workspace: Path) -> None:
    # "model" is in every memory of a Django team, so it names none of them, and the new class
    # is a word no memory holds: read as a topic, the prompt would be about nothing here. A
    # camelCase or snake_case identifier says it is about code, the team's: the model rule
    # loads. A question about cameras with the same common word stays empty.
    root = workspace / ".engram"
    put(root, "models.md", mem("django-model-design", "skill", tags=["django", "models"],
                               summary="Designing a new Django model: its fields and its app.",
                               body="Every model gets a created timestamp and an owner."))
    for area in ["api", "admin", "tasks", "signals", "search"]:
        put(root, f"{area}.md", mem(f"{area}-rule", tags=[area],
                                    summary=f"How {area} code is written here.",
                                    body=f"Keep {area} code next to the model it serves."))
    for n in range(4):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", summary=f"Release note {n}."))
    assert "django-model-design" in pack_ids(
        workspace, "need a new SpikeProtectionHistory model for org-level spike events")
    assert "django-model-design" in pack_ids(workspace, "add a muted_until field to the model")
    assert ok(load(workspace, "which camera model should a beginner buy for wildlife")) == EMPTY


def test_a_word_of_a_trigger_phrase_is_no_name_for_a_short_prompt(workspace: Path) -> None:
    # "write" of "write tests" and "leak" of "data leaking between tenants" are in the testing
    # and tenancy rules' triggers, not in their ids or tags: a limerick about cats and a leaking
    # sink meet them by chance. The phrase itself, or the rule's tag, still finds them.
    root = workspace / ".engram"
    put(root, "testing.md", mem("testing-conventions", tags=["jest", "testing"],
                                triggers=["write tests", "unit test"],
                                directive="Write unit tests next to the file they test.",
                                body="Mock the network, never the module under test."))
    put(root, "tenancy.md", mem("tenant-filter", tags=["tenancy"],
                                triggers=["data leaking between tenants", "tenant filter"],
                                directive="Every query filters by tenant id."))
    put(root, "changelog.md", mem("release-changelog", tags=["changelog", "release"],
                                  directive="Write the changelog entry for what ships today.",
                                  body="Entries say what users see, newest first."))
    for query in ["write a limerick about cats", "my kitchen sink is leaking, what should I do?",
                  "thanks, that's all for today!"]:
        assert ok(load(workspace, query)) == EMPTY, query
    assert pack_ids(workspace, "write tests for the price formatter")[:1] == [
        "testing-conventions"]
    assert pack_ids(workspace, "data leaking between tenants in the reports")[:1] == [
        "tenant-filter"]
    assert pack_ids(workspace, "update the changelog")[:1] == ["release-changelog"]


def test_an_important_note_is_not_about_imports(workspace: Path) -> None:
    # "IMPORTANT:" opens many rules; the stemmer made it "import", so every such rule matched a
    # task about imports. Accessibility is not access control either.
    root = workspace / ".engram"
    put(root, "deploy.md", mem("deploy-checklist", tags=["deploy"],
                               body="IMPORTANT: run the migrations before the smoke tests."))
    put(root, "modules.md", mem("module-layout", tags=["modules"],
                                body="Sort imports: standard library, third party, then ours."))
    put(root, "tokens.md", mem("access-tokens", tags=["auth"],
                               body="Access tokens expire after an hour; refresh them quietly."))
    put(root, "a11y.md", mem("a11y-checks", tags=["ui"],
                             body="Every control is reachable by keyboard; run the "
                                  "accessibility audit before merging."))
    assert pack_ids(workspace, "fix the imports") == ["module-layout"]
    assert pack_ids(workspace, "check a11y") == ["a11y-checks"]
    assert pack_ids(workspace, "review accessibility") == ["a11y-checks"]


def data_platform(root: Path) -> None:
    put(root, "airflow.md", mem("apache-airflow", "skill", tags=["airflow", "dags"],
                                summary="Writing and scheduling Airflow DAGs.",
                                body="Keep DAG files free of top-level work. Use the TaskFlow API."
                                     " Schedule refreshes with a DAG, one task per view."))
    put(root, "reporting.md", mem("reporting-views", "rule", tags=["reporting", "views"],
                                  summary="Materialized views for the reporting box.",
                                  body="Refresh each reporting view concurrently, at night."))
    put(root, "helm.md", mem("helm-charts", "rule", tags=["helm", "kubernetes"],
                             summary="Helm chart conventions for every service.",
                             body="Pin chart versions. Debug pods go through the chart too."))
    put(root, "k8s.md", mem("k8s-manifests", "rule", tags=["kubernetes", "manifests"],
                            summary="Plain Kubernetes manifests: labels, probes, limits.",
                            body="Every pod manifest sets resource limits."))


@pytest.mark.parametrize(("query", "refused"), [
    ("just need a plain cron entry on the reporting box to refresh the utilization view at "
     "3am. not an airflow dag", "apache-airflow"),
    ("quick one-off debug pod manifest for staging, not going through helm for this",
     "helm-charts"),
    ("write a debug pod manifest for staging, we are NOT moving to helm", "helm-charts"),
    ("write a debug pod manifest for staging, don't use helm", "helm-charts"),
])
def test_a_way_of_working_the_prompt_turns_down_is_not_loaded(workspace: Path, query: str,
                                                               refused: str) -> None:
    # "not an airflow dag": a memory that the turned-down word names (its id or a tag) is not
    # the task, however much else the prompt shares with it; the rest of the pack stands.
    data_platform(workspace / ".engram")
    pack = pack_ids(workspace, query)
    assert refused not in pack and pack, pack
    _, rows = dry(workspace, query)
    assert rows[refused]["status"] == "excluded: negated"


def team_workflow(root: Path) -> None:
    put(root, "commits.md", mem("commit-messages", "rule", tags=["git", "commit"],
                                summary="How we write commit messages.",
                                body="Imperative subject under 72 characters; say why in the "
                                     "body. Code changes and their tests go in one commit."))
    put(root, "prs.md", mem("pull-requests", "rule", tags=["pr", "review"],
                            summary="Opening a PR: template, reviewers, draft first.",
                            body="Link the ticket. Open it as a draft until CI passes."))
    put(root, "tdd.md", mem("test-first", "skill", tags=["tdd", "testing"],
                            summary="Red, green, refactor for every change to the importers.",
                            body="Write the failing test first. Keep the importer tests fast."))
    put(root, "devenv.md", mem("local-dev", "rule", tags=["docker", "compose", "setup"],
                               summary="Local development with docker compose.",
                               body="docker compose up starts postgres and the backend; the env "
                                    "vars live in .env.example."))
    put(root, "skipping.md", mem("flaky-tests", "rule", tags=["flaky", "tests"],
                                 summary="Quarantining a flaky test.",
                                 body="Mark it skipped with a ticket link; never delete it."))


@pytest.mark.parametrize(("query", "refused", "kept"), [
    ("commit the payslip fixes but don't open a PR yet", "pull-requests", "commit-messages"),
    ("skip TDD on this one, it's a throwaway spike of the importer", "test-first", None),
    ("run the backend against my own postgres - skip the docker compose setup, just tell me "
     "which env vars to set", "local-dev", None),
])
def test_a_step_the_prompt_says_to_leave_out_is_not_loaded(workspace: Path, query: str,
                                                           refused: str, kept: str | None) -> None:
    # "don't open a PR yet", "skip TDD": the memory the left-out step names is not the task.
    team_workflow(workspace / ".engram")
    pack = pack_ids(workspace, query)
    assert refused not in pack, pack
    assert kept is None or kept in pack, pack
    _, rows = dry(workspace, query)
    assert rows[refused]["status"] == "excluded: negated"


@pytest.mark.parametrize(("query", "refused", "kept"), [
    ("write the tests for the CSV importer - and no, we're not doing TDD on this one, the code "
     "is already written", "test-first", None),
    ("the backend container won't start - it isn't a docker compose thing, postgres refuses "
     "the env vars", "local-dev", None),
    ("commit the importer fix, leave the PR template alone", "pull-requests", "commit-messages"),
    ("the pull request is done and approved; commit the last fix to the importer",
     "pull-requests", "commit-messages"),
])
def test_steps_the_prompt_says_are_not_wanted_or_already_done_are_not_loaded(
        workspace: Path, query: str, refused: str, kept: str | None) -> None:
    # "not doing TDD", "it isn't a docker compose thing", "leave the PR template alone", "the
    # pull request is done": the memory those words name is not the task.
    team_workflow(workspace / ".engram")
    pack = pack_ids(workspace, query)
    assert refused not in pack, pack
    assert kept is None or kept in pack, pack


def test_a_step_still_to_be_done_is_not_turned_down(workspace: Path) -> None:
    # "make sure the PR is done" is the task, not a step behind it.
    team_workflow(workspace / ".engram")
    assert "pull-requests" in pack_ids(workspace, "make sure the PR is done today")


def test_a_rule_saying_how_a_step_is_done_does_not_turn_it_down(workspace: Path) -> None:
    # Rule text says how things are done; a prompt quoting it (a derived body-sentence case)
    # must still find the rule it quotes.
    root = workspace / ".engram"
    team_workflow(root)
    put(root, "migrations.md", mem("db-migrations", "rule", tags=["migrations"],
                                   summary="Schema migrations.",
                                   body="Each migration is done in its own transaction."))
    assert "db-migrations" in pack_ids(workspace, "Each migration is done in its own transaction.")


def test_a_memory_turned_down_by_name_keeps_the_prompt_on_topic(workspace: Path) -> None:
    # The prompt turns the Dockerfile rule down, and its other words are in no memory's name:
    # it is still a task about this workspace, so the pack is not withheld as off-topic.
    root = workspace / ".engram"
    put(root, "docker.md", mem("docker-conventions", "rule", tags=["docker", "dockerfile"],
                               summary="Dockerfiles: multi-stage builds, pinned bases.",
                               body="Every Dockerfile pins its base image by digest."))
    put(root, "ef.md", mem("efcore-rules", "rule", tags=["efcore", "migrations"],
                           summary="EF Core migrations and the database context.",
                           body="Apply migrations in order at deploy; scripts run before the "
                                "service starts."))
    put(root, "logs.md", mem("structured-logging", "rule", tags=["logging"],
                             body="Log as JSON with a request id on every line."))
    query = ("leave the bridge's Dockerfile alone, Docker isn't the problem - the EF migration "
             "scripts run in the wrong order during deploy")
    pack = pack_ids(workspace, query)
    assert "efcore-rules" in pack and "docker-conventions" not in pack, pack


def common_words_workspace(root: Path) -> None:
    """The team's workflow rules, a review skill tagged `code-review`, a secrets rule tagged
    `secrets`, and style rules that make "code" and "secrets" common words."""
    team_workflow(root)
    put(root, "comments.md", mem("address-pr-comments", "skill", tags=["code-review", "pr"],
                                 summary="Working through the review comments on your PR.",
                                 body="Answer every comment. If one is not actionable, say why "
                                      "and resolve it."))
    put(root, "vault.md", mem("config-store", "rule", tags=["secrets", "pulumi"],
                              summary="Stack configuration and secrets live in one store.",
                              body="Change a stack's secrets only through the config store."))
    put(root, "storage.md", mem("database-storage", "rule", tags=["rds", "pulumi"],
                                summary="Database sizing in the prod stack.",
                                body="Grow RDS storage in the prod stack in 20% steps."))
    for name in ("naming", "layout", "errors"):
        put(root, f"{name}.md", mem(f"{name}-rules", "rule", tags=[name],
                                    body=f"Code follows the {name} rules; no secrets in it."))


def test_a_common_word_turned_down_names_a_memory_only_as_a_whole_name(
        workspace: Path) -> None:
    # "skip the code change": "code", in half the memories, is only part of the review skill's
    # tag `code-review`, no reason to leave it out; "no secrets changes" says the whole tag
    # `secrets` of the config rule.
    common_words_workspace(workspace / ".engram")
    query = "for the comments that are not actionable, skip the code change and reply why"
    assert "address-pr-comments" in pack_ids(workspace, query)
    query = "bump the RDS storage in the prod stack; no secrets changes"
    pack = pack_ids(workspace, query)
    assert "config-store" not in pack and "database-storage" in pack, pack


def test_a_word_turned_down_is_evidence_for_no_memory(workspace: Path) -> None:
    # "don't open a PR yet" leaves out the PR rule, which is named "pr"; the skill for PR
    # descriptions, which only says "PR" in its text, gains nothing from the word either.
    root = workspace / ".engram"
    team_workflow(root)
    put(root, "describe.md", mem("pull-request-descriptions", "skill", tags=["github"],
                                 summary="Writing the description of a pull request.",
                                 body="Every PR description says what changed and why. Title "
                                      "the PR after the change; link the PR to the ticket."))
    query = "commit the copay migration but don't open the PR yet"
    pack = pack_ids(workspace, query)
    assert "commit-messages" in pack, pack
    assert "pull-requests" not in pack and "pull-request-descriptions" not in pack, pack
    _, rows = dry(workspace, query)
    assert rows["pull-request-descriptions"]["bm25"] == "0.00", rows


@pytest.mark.parametrize("query", [
    "skip the flaky checkout test for now, it blocks the release",
    "screen readers skip it entirely, the flaky banner needs a label",
])
def test_skipping_a_test_is_work_on_it(workspace: Path, query: str) -> None:
    # Marking a test skipped is what the quarantine rule is for; "skip it" denies nothing.
    team_workflow(workspace / ".engram")
    assert "flaky-tests" in pack_ids(workspace, query)


@pytest.mark.parametrize(("query", "wanted"), [
    ("the nightly airflow dag is not running since the upgrade", "apache-airflow"),
    ("helm upgrade fails: the debug pod was not found", "helm-charts"),
])
def test_a_bug_report_saying_not_turns_nothing_down(workspace: Path, query: str,
                                                    wanted: str) -> None:
    data_platform(workspace / ".engram")
    assert wanted in pack_ids(workspace, query)


def firmware(root: Path) -> None:
    # Thirty memories: three others read the boot log, capture it and name the site, so of the
    # coredump notes' words only the tag "crash" is its own.
    put(root, "coredump.md", mem("coredump-notes", "knowledge", tags=["coredump", "crash-dumps"],
                                 summary="Coredumps on the sensor nodes.",
                                 body="Capture the crash site to flash and read it out after the "
                                      "next boot; the fault handler stores the registers."))
    for n in range(3):
        put(root, f"gateway{n}.md", mem(f"gateway-{n}", tags=[f"gateway{n}"],
                                        summary=f"Gateway {n} of the apiary.",
                                        body="Read the boot log of the site gateway and capture "
                                             "it before a reboot."))
    for n in range(26):
        put(root, f"topic{n}.md", mem(f"topic-{n}", tags=[f"topic{n}"],
                                      summary=f"Conventions of area {n}.",
                                      body=f"Area {n} follows the shared conventions."))


def test_a_long_task_told_by_a_person_is_judged_as_a_task(workspace: Path) -> None:
    # Thirteen content words, most of them new: as a description it would need two specific
    # words in the memory's names or summary; told by someone ("I want", "we can") one tag and
    # the body's words are the task.
    firmware(workspace / ".engram")
    assert pack_ids(workspace, "field units reboot at random overnight; I want the crash site "
                               "captured and read out after the next boot so we can see what "
                               "happened")[:1] == ["coredump-notes"]


def test_a_long_description_still_needs_two_stated_words(workspace: Path) -> None:
    # The same words as the description of a rule file nobody here wrote: one tag is not enough.
    firmware(workspace / ".engram")
    assert ok(load(workspace, "Definitive guidelines for field units that reboot at random "
                              "overnight: crash reporting dashboards, alert routing and "
                              "on-call rotations for mobile operators")) == EMPTY


def test_a_prompt_about_another_stack_needs_more_than_one_shared_word(workspace: Path) -> None:
    # A Rust linter's workspace: "query" is half of the caching rule's trigger "cache this
    # query", "date" half of the schema rule's "schema out of date". A SQL report or a Swift
    # decoder names a technology no memory holds, so one such word is no match and the pack is
    # empty. The same stack word beside a word of a memory's id ("checkout") keeps the memory,
    # and without the foreign name half a trigger phrase still does.
    root = workspace / ".engram"
    put(root, "salsa.md", mem("salsa-caching", tags=["salsa", "incrementality"],
                              triggers=["cache this query", "salsa tracked"],
                              directive="Make expensive analysis functions tracked queries.",
                              body="A tracked function returns owned data; keep it small."))
    put(root, "schema.md", mem("generate-schema", tags=["codegen", "schema"],
                               triggers=["schema out of date", "regenerate the schema"],
                               directive="Regenerate the schema after changing options.",
                               body="Run the generator; commit schema.json with the change."))
    put(root, "repro.md", mem("repro-outside-checkout", tags=["reproduction", "checkout"],
                              triggers=["reproduce outside the repo"],
                              directive="Reproduce a report outside the checkout, in a temp dir.",
                              body="Build the linter in debug mode and run it on the project."))
    for n in range(5):
        put(root, f"r{n}.md", mem(f"lint-rule-{n}", tags=["lint", f"rule{n}"],
                                  directive=f"Lint rule {n} flags one pattern.",
                                  body="Every rule has fixtures and a snapshot."))
    for query in ["write a SQL query that returns the top customers by revenue last quarter",
                  "Swift: decode nested JSON with Codable and a custom date format"]:
        assert ok(load(workspace, query)) == EMPTY, query
    assert "repro-outside-checkout" in pack_ids(
        workspace, "how do I run my local build on a django checkout to see what changed")
    assert "salsa-caching" in pack_ids(
        workspace, "should I cache this query so the editor stays fast on big projects")


@pytest.mark.parametrize("query", [
    "bump the toolchain to 1.91 but leave the clippy cleanup for a separate PR",
    "bump the toolchain to 1.91; don't produce a clippy cleanup in the same PR",
    "bump the toolchain to 1.91 and skip fixing the clippy lints for now",
])
def test_a_step_left_for_later_or_not_to_be_produced_is_turned_down(workspace: Path,
                                                                    query: str) -> None:
    # "leave X for a separate PR", "don't produce X" and "skip fixing X": the toolchain rule
    # alone; asked for, the clippy rule loads beside it.
    root = workspace / ".engram"
    put(root, "toolchain.md", mem("upgrade-toolchain", tags=["toolchain", "rust"],
                                  summary="Bumping the Rust toolchain version.",
                                  body="Update rust-toolchain.toml and fix new warnings."))
    put(root, "clippy.md", mem("clippy-lints", tags=["clippy", "lints"],
                               summary="Clippy cleanup: expect over allow.",
                               body="Silence a clippy lint with expect and a reason."))
    for n in range(4):
        put(root, f"n{n}.md", mem(f"note-{n}", "knowledge", summary=f"Release note {n}."))
    assert "clippy-lints" in pack_ids(workspace, "bump the toolchain to 1.91 and do the clippy "
                                                 "cleanup")
    pack = pack_ids(workspace, query)
    assert pack[:1] == ["upgrade-toolchain"] and "clippy-lints" not in pack, pack
