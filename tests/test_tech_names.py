"""Technology names spelled differently in a prompt and in a memory: "Next.js" against an id
`nextjs-...`, "C#" against `csharp`, "Vue" against `vue3`. Real memories in tmp_path, the real
CLI; a memory about something else stands beside each one, so a pack is never right by luck."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import body_ids, dry, load, mem, ok, printed_ids, put

from engram.tokenize import tokens, words


def project(workspace: Path) -> Path:
    root = workspace / ".engram"
    put(root, "nextjs.md", mem(
        "nextjs-app-router", tags=["nextjs", "app-router"],
        body="Put pages under app/, fetch in server components, keep client components small."))
    put(root, "node.md", mem(
        "es-module-nodejs", tags=["nodejs", "esm"],
        body="Write ES modules only: import and export, never require()."))
    put(root, "csharp.md", mem(
        "unity-csharp", tags=["unity", "csharp"],
        body="MonoBehaviours stay thin; game state lives in plain classes."))
    put(root, "dotnet.md", mem(
        "aspnet-minimal-apis", tags=["aspnet", "dotnet"],
        body="Map endpoints in one file per feature and return typed results."))
    put(root, "vue.md", mem(
        "vue3-composition", tags=["vue3"],
        body="Use script setup and composables; no mixins."))
    put(root, "pages.md", mem(
        "static-pages", tags=["html", "pages"],
        body="Plain HTML pages: one stylesheet, no frameworks, nothing in the app shell."))
    put(root, "deploy.md", mem(
        "deploy-checklist", tags=["deploy"],
        body="Before you ship the app: run the migrations, then the smoke tests."))
    return workspace


@pytest.mark.parametrize(("prompt", "expected"), [
    ("add a settings page to the Next.js app", "nextjs-app-router"),
    ("add a settings page to the next.js app", "nextjs-app-router"),
    ("convert the Node.js scripts to modules", "es-module-nodejs"),
    ("spawn enemies from a C# script", "unity-csharp"),
    ("add a health endpoint to the ASP.NET service", "aspnet-minimal-apis"),
    ("upgrade the .NET service", "aspnet-minimal-apis"),
    ("write a Vue component for the profile card", "vue3-composition"),
])
def test_a_dotted_or_hashed_name_meets_the_joined_spelling(
        workspace: Path, prompt: str, expected: str) -> None:
    proj = project(workspace)
    ids = printed_ids(ok(load(proj, prompt)))
    assert ids[0] == expected
    assert body_ids(ok(load(proj, prompt)))[0] == expected
    _, rows = dry(proj, prompt)
    assert rows[expected]["status"] == "body"
    # The id or a tag is what met: strong evidence, not a word in passing.
    assert "id:" in rows[expected]["matched"] or "tags:" in rows[expected]["matched"]


def test_a_joined_name_in_the_prompt_meets_the_dotted_spelling_in_a_body(
        workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "server.md", mem("server-runtime", tags=["runtime"],
                               body="The API runs on Node.js 20 behind the load balancer."))
    put(root, "python.md", mem("python-runtime", tags=["runtime"],
                               body="Workers run on Python 3.12 behind the queue."))
    assert printed_ids(ok(load(workspace, "which nodejs version"))) == [
        "server-runtime"]
    assert printed_ids(ok(load(workspace, "which csharp version"))) == []


def test_the_split_words_of_a_dotted_name_still_count(workspace: Path) -> None:
    # "js" alone (a file kind, a tag) is still met by "Next.js": the joined word is added, the
    # parts are not replaced.
    root = workspace / ".engram"
    put(root, "js.md", mem("js-style", tags=["js"], body="Semicolons, two-space indent."))
    put(root, "py.md", mem("py-style", tags=["python"], body="Black, 100 columns."))
    assert printed_ids(ok(load(workspace, "lint the Next.js code"))) == ["js-style"]


def test_a_prompt_holding_a_whole_id_puts_that_memory_before_its_family(
        workspace: Path) -> None:
    # Every `nextjs-*` id shares "nextjs" with the prompt; the one whose whole id it holds
    # is the one asked for, though a sibling holds more of the prompt's words in its body.
    root = workspace / ".engram"
    put(root, "a.md", mem("nextjs-supabase-auth", tags=["nextjs", "supabase"],
                          body="Use the Supabase server client in route handlers."))
    put(root, "b.md", mem("nextjs-react-tailwind", tags=["nextjs", "tailwind"],
                          body="Next.js pages with React components and Tailwind classes; "
                               "data comes from Supabase."))
    put(root, "c.md", mem("nextjs-seo", tags=["nextjs", "seo"],
                          body="Every Next.js page exports metadata."))
    query = "Next.js and Supabase auth for the React dashboard"
    assert printed_ids(ok(load(workspace, query)))[0] == "nextjs-supabase-auth"
    _, rows = dry(workspace, query)
    assert "whole-id" in rows["nextjs-supabase-auth"]["multipliers"]
    assert "whole-id" not in rows["nextjs-react-tailwind"]["multipliers"]


def test_dry_run_shows_the_joined_word_among_the_anchors(workspace: Path) -> None:
    text, _ = dry(project(workspace), "add a settings page to the Next.js app")
    anchors = next(line for line in text.splitlines() if line.startswith("anchors:"))
    assert anchors.split(": ", 1)[1].split(", ") == [
        "add", "set", "page", "next", "js", "nextj", "app"]


def test_file_names_and_domains_are_not_joined_technology_names() -> None:
    # A dot inside a word that is not ".js" or a leading ".NET" stays a separator.
    assert words("see example.net and settings.py") == [
        "see", "example", "net", "and", "settings", "py"]
    # The end of an identifier is no library name; a name in brackets or quotes still is.
    assert "scriptjs" not in words("edit content_script.js")
    assert words('("C#", .NET)') == ["csharp", "net", "dotnet"]
    assert tokens("Next.js") == [*tokens("next js"), *tokens("nextjs")]
