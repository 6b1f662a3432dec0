"""The second benchmark corpus: templated rule collections, generated independently of
perf.py's own corpus and with other statistics.

Modelled on the shape of public collections of coding-agent rules (per-framework "expert in X"
rule files, the kind Cursor rule directories and agent skill folders hold; see
bench/PROVENANCE.md): a few dozen templates filled in per stack, so many files differ by a
stack name or a bullet or two. What makes it hard, compared with perf.py's corpus:

- heavy near-duplication: families of up to a few hundred variants of one filled template,
  many of them 90%+ alike, some exact copies under another id;
- near-identical titles and ids (`nextjs-typescript-rules-00412`);
- dense shared tags (4-7 of 32) and triggers (2-4 of 40 phrases);
- deep `depends_on`: each variant depends on the previous one of its family, and each family
  on its stack's foundation rule, so chains run hundreds deep;
- three flat folders (`rules/`, `skills/`, `knowledge/`), thousands of files each;
- a few `load: always` memories, as collections mark their always-apply rules.
"""

from __future__ import annotations

import random
from pathlib import Path

VERSION = "1"  # bump with any change to what is generated
STACKS = (
    ("nextjs", "typescript", "**/*.tsx"), ("react", "typescript", "src/**/*.tsx"),
    ("vue", "typescript", "src/**/*.vue"), ("svelte", "typescript", "src/**/*.svelte"),
    ("angular", "typescript", "src/app/**/*.ts"), ("django", "python", "**/*.py"),
    ("fastapi", "python", "app/**/*.py"), ("flask", "python", "**/*.py"),
    ("rails", "ruby", "app/**/*.rb"), ("laravel", "php", "app/**/*.php"),
    ("spring", "java", "src/main/**/*.java"), ("express", "javascript", "src/**/*.js"),
    ("nestjs", "typescript", "src/**/*.ts"), ("flutter", "dart", "lib/**/*.dart"),
    ("swiftui", "swift", "**/*.swift"), ("android", "kotlin", "app/src/**/*.kt"),
    ("gin", "go", "**/*.go"), ("axum", "rust", "src/**/*.rs"),
    ("tailwind", "css", "**/*.{css,tsx}"), ("prisma", "typescript", "prisma/**"),
    ("supabase", "sql", "supabase/**/*.sql"), ("terraform", "hcl", "infra/**/*.tf"),
    ("kubernetes", "yaml", "deploy/**/*.yaml"), ("docker", "dockerfile", "**/Dockerfile"),
)
TOOLS = ("vitest", "jest", "pytest", "playwright", "eslint", "prettier", "ruff", "mypy",
         "zod", "redux", "zustand", "tanstack query", "sqlalchemy", "celery", "redis",
         "postgres", "graphql", "trpc", "storybook", "cypress", "github actions", "sentry")
TOPICS = ("rules", "best-practices", "conventions", "guidelines", "style", "testing",
          "performance", "security", "architecture", "api-design", "error-handling",
          "state-management", "accessibility", "deployment", "migrations", "logging")
TAGS = ("frontend", "backend", "testing", "typescript", "python", "performance", "security",
        "style", "api", "database", "ci", "deploy", "accessibility", "state", "errors",
        "logging", "components", "hooks", "routing", "forms", "auth", "caching", "docs",
        "review", "mobile", "infra", "migrations", "naming", "types", "async", "config", "lint")
TRIGGERS = ("write a component", "add a test", "fix the build", "add an endpoint",
            "refactor this", "review my code", "add error handling", "speed up the page",
            "add a migration", "set up ci", "add logging", "handle the form", "add auth",
            "fix the types", "add caching", "deploy this", "write docs", "add a hook",
            "fix the lint errors", "add a route", "clean up the state", "optimise the query",
            "add validation", "add a config option", "make it accessible", "add retries",
            "split this module", "add pagination", "upgrade the dependency", "write a script",
            "add a feature flag", "add metrics", "fix the flaky test", "add a cli command",
            "handle timeouts", "add a background job", "add a webhook", "rename this",
            "add dark mode", "add i18n")
# Bullet templates: {s} stack, {l} language, {t} tool, {u} a second tool.
BULLETS = (
    "Write concise, technical {l} code with accurate examples.",
    "Use functional and declarative programming patterns; avoid classes in {s} code.",
    "Prefer iteration and modularization over code duplication.",
    "Use descriptive variable names with auxiliary verbs such as isLoading and hasError.",
    "Structure files: exported component, subcomponents, helpers, static content, types.",
    "Use lowercase with dashes for directories in a {s} project.",
    "Favour named exports for components and utilities.",
    "Use {l} for all code; prefer interfaces over types for object shapes.",
    "Avoid enums; use maps or literal unions instead.",
    "Handle errors and edge cases at the beginning of functions with early returns.",
    "Place the happy path last in the function for readability.",
    "Avoid unnecessary else statements; use if-return patterns instead.",
    "Use guard clauses to handle preconditions and invalid states early.",
    "Implement proper error logging and user-friendly error messages with {t}.",
    "Model expected errors as return values instead of throwing in {s} handlers.",
    "Use {t} for unit tests and {u} for end-to-end tests of {s} features.",
    "Keep tests next to the code they cover and name them after the behaviour.",
    "Mock only the network and the clock; never the module under test.",
    "Minimize client-side state; derive values instead of storing them.",
    "Use {t} for server state and keep local state in the component.",
    "Optimize images: use modern formats, include size data and lazy loading.",
    "Measure before optimizing; profile {s} rendering with the built-in tools.",
    "Cache expensive queries with {u} and invalidate on writes.",
    "Validate all input at the boundary with {t} schemas.",
    "Never log secrets, tokens or personal data; redact before logging.",
    "Use parameterized queries; never build SQL from strings in {l}.",
    "Keep configuration in environment variables and validate it at start-up.",
    "Run {t} and {u} in CI on every pull request before merging.",
    "Pin dependency versions and update them with a scheduled job.",
    "Document public functions with a one-line summary and an example.",
    "Follow the official {s} style guide and the team's {t} configuration.",
    "Use semantic HTML elements and label every form control.",
    "Support keyboard navigation and visible focus states in {s} components.",
    "Keep migrations small, reversible and separate from code changes.",
    "Deploy with zero downtime: migrate first, then roll out the new {s} code.",
    "Add structured logging with request ids through {t}.",
    "Use async functions for I/O-bound work and avoid blocking calls in {s}.",
    "Retry transient failures with exponential backoff and a deadline.",
    "Paginate list endpoints and cap the page size.",
    "Use feature flags for risky changes and remove them once rolled out.",
)
SECTIONS = ("Key principles", "Code style", "Naming conventions", "Error handling",
            "Testing", "Performance", "Security", "State management", "Deployment",
            "Accessibility", "Dependencies", "Documentation")
_INTRO = ("You are an expert in {l}, {s} and {t}.",
          "You are a senior {s} developer who writes clean, maintainable {l}.",
          "These are the team's conventions for {s} projects written in {l}.",
          "Follow these guidelines whenever you change {s} code.")


class Family:
    """One filled template: the stack, tools, sections and bullets its variants share."""

    def __init__(self, rng: random.Random, number: int) -> None:
        self.number = number
        self.stack, self.lang, self.glob = STACKS[rng.randrange(len(STACKS))]
        self.tool, self.tool2 = rng.sample(TOOLS, 2)
        self.topic = rng.choice(TOPICS)
        self.kind = rng.choices(("rule", "skill", "knowledge"), weights=(6, 2, 2))[0]
        self.intro = rng.randrange(len(_INTRO))
        self.sections = [(title, rng.sample(range(len(BULLETS)), rng.randint(4, 9)))
                         for title in rng.sample(SECTIONS, rng.randint(3, 6))]
        self.tags = rng.sample(TAGS, 5)
        self.triggers = rng.sample(TRIGGERS, 3)


def family_sizes(rng: random.Random, total: int) -> list[int]:
    """Heavy-tailed family sizes (many pairs and triples, a few families of hundreds)."""
    sizes: list[int] = []
    while sum(sizes) < total:
        sizes.append(min(int(rng.paretovariate(1.1)), 300, total - sum(sizes)))
    return sizes


def _fill(text: str, family: Family, stack: str, lang: str) -> str:
    return text.format(s=stack, l=lang, t=family.tool, u=family.tool2)


def variant(rng: random.Random, family: Family, mid: str, member: int,
            previous: str | None, foundation: str) -> str:
    """One member of a family: the shared text with a mutation or none (an exact copy)."""
    stack, lang = family.stack, family.lang
    sections = [(title, list(bullets)) for title, bullets in family.sections]
    mutation = rng.random()
    if mutation < 0.25:  # one bullet more or less
        title, bullets = rng.choice(sections)
        if rng.random() < 0.5 and len(bullets) > 2:
            bullets.pop(rng.randrange(len(bullets)))
        else:
            bullets.append(rng.randrange(len(BULLETS)))
    elif mutation < 0.35:  # the same rules for a neighbouring stack
        stack, lang, _ = STACKS[rng.randrange(len(STACKS))]
    elif mutation < 0.45:  # two sections swapped
        i, j = rng.sample(range(len(sections)), 2)
        sections[i], sections[j] = sections[j], sections[i]
    title = f"{stack.capitalize()} {family.topic.replace('-', ' ')}"
    tags = list(dict.fromkeys(family.tags[:rng.randint(3, 5)] + rng.sample(TAGS, 2)))
    triggers = family.triggers[:rng.randint(2, 3)] + rng.sample(TRIGGERS, 1)
    head = [f"id: {mid}", f"type: {family.kind}",
            f"summary: {title} for {lang} projects.",
            "tags: [" + ", ".join(tags) + "]",
            "triggers: [" + ", ".join(f'"{t}"' for t in dict.fromkeys(triggers)) + "]",
            f'applies_to: ["{family.glob}"]']
    if family.kind == "rule":
        head.append(f"directive: Follow the {title.lower()} in every {stack} change.")
    deps = [previous] if previous is not None else []
    if member == 0 and foundation != mid:
        deps.append(foundation)
    if deps:
        head.append("depends_on: [" + ", ".join(deps) + "]")
    if member == 0 and family.number % 50 == 0:
        head.append("load: always")
    body = [f"# {title}", "", _fill(_INTRO[family.intro], family, stack, lang), ""]
    for section, bullets in sections:
        body += [f"## {section}", ""]
        body += ["- " + _fill(BULLETS[b], family, stack, lang) for b in bullets]
        body.append("")
    return "---\n" + "\n".join(head) + "\n---\n" + "\n".join(body).rstrip() + "\n"


def generate(root: Path, size: int, seed: int) -> tuple[list[str], list[str]]:
    """Write `size` memories under root (three flat folders); (every rel path, sorted, and
    the rel paths of the largest family's first and middle members, the costliest to edit)."""
    rng = random.Random(f"rulesets:{seed}")
    files: list[str] = []
    foundations: dict[str, str] = {}
    biggest: tuple[int, list[str]] = (0, [])
    for number, count in enumerate(family_sizes(rng, size)):
        family = Family(rng, number)
        foundation = foundations.setdefault(family.stack,
                                            f"{family.stack}-{family.topic}-{number:05d}-0")
        previous: str | None = None
        rels: list[str] = []
        for member in range(count):
            mid = f"{family.stack}-{family.topic}-{number:05d}-{member}"
            rel = f"{family.kind}s/{mid}.md" if family.kind != "knowledge" else \
                f"knowledge/{mid}.md"
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(variant(rng, family, mid, member, previous, foundation),
                            encoding="utf-8")
            rels.append(rel)
            previous = mid
        files += rels
        if count > biggest[0]:
            biggest = (count, [rels[0], rels[count // 2]])
    return sorted(files), biggest[1]
