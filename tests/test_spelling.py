"""Typed shorthand and typing slips read as the words the memories hold, end to end: the
prompts a hurried developer types, and the project nouns that must stay as they are."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import dry, load, mem, ok, printed_ids, put


def pack_ids(project: Path, query: str) -> list[str]:
    return printed_ids(ok(load(project, query)))


def clinic(root: Path) -> None:
    put(root, "migrations.md", mem("rails-migrations", "rule", tags=["migrations", "rails"],
                                   summary="Writing a Rails migration.",
                                   body="One migration per change; add columns nullable first."))
    put(root, "updates.md", mem("dependency-updates", "rule", tags=["dependencies"],
                                summary="Updating gem and npm dependencies.",
                                body="Update one dependency group per pull request."))
    put(root, "go.md", mem("go-concurrency", "rule", tags=["go"],
                           summary="Goroutines and channels in the dispatch service.",
                           body="Every goroutine has an owner that cancels it."))
    put(root, "kotlin.md", mem("kotlin-style", "rule", tags=["kotlin", "android", "threads"],
                               summary="Kotlin style for the scanner app: the main thread.",
                               body="Keep the main thread free: move work off it."))
    put(root, "copy.md", mem("ui-copy", "rule", tags=["copy", "text"],
                             summary="Interface copy: short, plain words.",
                             body="Buttons say what they do."))
    put(root, "debug.md", mem("debugging", "skill", tags=["debugging", "exceptions"],
                              summary="Finding the cause of a crash or an exception.",
                              body="Read the whole stack trace; a null pointer exception names "
                                   "the line that dereferenced nothing."))


def test_a_typing_slip_is_read_as_the_word_the_memories_hold(workspace: Path) -> None:
    clinic(workspace / ".engram")
    assert pack_ids(workspace, "migraton for the copay col") == ["rails-migrations"]
    assert pack_ids(workspace, "write the migraiton for copay")[:1] == ["rails-migrations"]
    text, _ = dry(workspace, "migraton for the copay col")
    assert "anchors: migrat, copay, col" in text


def test_a_slip_is_read_in_the_word_as_typed_not_in_its_stem(workspace: Path) -> None:
    # "exceptoins" stems to "exceptoin", and "dependecies" to "dependeci", neither eight
    # letters: read as typed, each is one slip from the word the memories hold.
    clinic(workspace / ".engram")
    assert pack_ids(workspace, "the crash shows exceptoins in the log")[:1] == ["debugging"]
    assert pack_ids(workspace, "update the dependecies for the worker")[:1] == [
        "dependency-updates"]


def test_a_short_slip_names_nothing_new(workspace: Path) -> None:
    # "keybord" is typed too short to be read as "keyboard" (too many short words are a slip
    # from another), but it is no new topic either: the pack the prompt's other words make
    # stays, where the zero-match rule used to empty it.
    root = workspace / ".engram"
    clinic(root)
    put(root, "a11y.md", mem("web-accessibility", "rule", tags=["accessibility"],
                             summary="Accessibility of every page.",
                             body="Every control is usable with the keyboard; date pickers "
                                  "too."))
    assert pack_ids(workspace, "make the date picker usable with the keyboard")[:1] == [
        "web-accessibility"]
    assert pack_ids(workspace, "make the date picker usable with the keybord")[:1] == [
        "web-accessibility"]
    # A word of its own that is no slip still keeps a prompt about nothing here empty.
    assert pack_ids(workspace, "write a haiku about autumn leaves") == []


def test_a_short_word_with_a_letter_doubled_undoubled_or_a_vowel_dropped_is_read(
        workspace: Path) -> None:
    # "comit mesage" and "feture flagg" are the commit and flag rules' own words typed in a
    # hurry: read as them, the prompt is no longer about nothing here. A real word another
    # letter away stays itself: "stale" is not "stable", "lawyer" not "layer", "brake" not
    # "break".
    root = workspace / ".engram"
    clinic(root)
    put(root, "commits.md", mem("commit-message-format", "rule", tags=["commit", "message"],
                                summary="How a commit message is written.",
                                body="Subject in the imperative, body says why."))
    put(root, "flags.md", mem("feature-flag-registration", "rule", tags=["feature", "flag"],
                              summary="Registering a feature flag before using it.",
                              body="Every flag is registered with an owner and a default."))
    put(root, "layers.md", mem("stable-layers", "rule", tags=["stable", "layer"],
                               summary="Each layer only imports the stable layer below it.",
                               body="Domain code never imports from the web layer."))
    assert pack_ids(workspace, "write a comit mesage for the alert digest fix")[:1] == [
        "commit-message-format"]
    assert pack_ids(workspace, "add a feture flagg for the new release health charts")[:1] == [
        "feature-flag-registration"]
    put(root, "breaking.md", mem("breaking-changes", "rule", tags=["breaking", "api"],
                                 summary="Announcing a breaking change to the API.",
                                 body="A breaking change waits a release behind a warning."))
    assert pack_ids(workspace, "what should I tell my lawyer about the stale invoice?") == []
    # "breake" stems to "break", but "brake" is inflected as typed: no slip for it.
    assert pack_ids(workspace, "my bike's rear brake squeaks") == []


def test_a_short_word_with_two_neighbouring_letters_swapped_is_read(workspace: Path) -> None:
    # The commonest slip: "wirte" (the second letter moved) and "comimt" are "write" and
    # "commit". The first letter stays: "trial" is never read as another word's "rtial".
    root = workspace / ".engram"
    clinic(root)
    put(root, "commits.md", mem("commit-message-format", "rule", tags=["commit", "message"],
                                summary="How a commit message is written.",
                                body="Subject in the imperative, body says why."))
    assert pack_ids(workspace, "squash and comimt the alert digest fix")[:1] == [
        "commit-message-format"]
    assert pack_ids(workspace, "my grandmother's favourite lemon cake recpie") == []


def test_shorthand_is_read_as_the_words_it_stands_for(workspace: Path) -> None:
    clinic(workspace / ".engram")
    assert pack_ids(workspace, "bump deps, whatever is safe") == ["dependency-updates"]
    assert "debugging" in pack_ids(workspace, "npe in the slot renderer, stack trace below")


def test_shorthand_the_memories_use_stays_as_written(workspace: Path) -> None:
    root = workspace / ".engram"
    clinic(root)
    put(root, "lockfile.md", mem("lockfile", "rule", tags=["deps"],
                                 summary="The lockfile lists deps exactly.",
                                 body="Never edit the lockfile by hand."))
    text, _ = dry(workspace, "bump deps, whatever is safe")
    assert "anchors: bump, dep," in text
    assert pack_ids(workspace, "bump deps, whatever is safe")[:1] == ["lockfile"]


def test_project_nouns_and_other_words_are_not_slips(workspace: Path) -> None:
    # "copay" is one letter from "copy" and "coroutine" from "goroutine": a short word, or one
    # whose first letters differ, is a word of its own.
    clinic(workspace / ".engram")
    assert "ui-copy" not in pack_ids(workspace, "show the copay on the visit summary")
    pack = pack_ids(workspace, "ScanActivity does the lookup on the main thread, move it into "
                               "a viewmodel + coroutine")
    assert "go-concurrency" not in pack and "kotlin-style" in pack, pack
    assert "go-concurrency" not in pack_ids(workspace, "the sync coroutine leaks when cancelled")


def storefront(root: Path) -> None:
    put(root, "perf.md", mem("web-performance", "skill", tags=["performance"],
                             summary="Making the storefront pages load fast.",
                             body="Serve images in modern formats at the size they are shown; "
                                  "lazy-load anything below the fold."))
    put(root, "tdd.md", mem("tdd-workflow", "skill", tags=["tdd"],
                            summary="Test-driven development: red, green, refactor.",
                            body="Write the failing test before the code that makes it pass."))
    put(root, "a11y.md", mem("web-accessibility", "rule", tags=["accessibility"],
                             summary="Accessibility of every storefront page.",
                             body="Every control is reachable by keyboard and has a label."))
    put(root, "ops.md", mem("deploy-checklist", "rule", tags=["deploy"],
                            summary="Deploying the storefront.",
                            body="Watch the error rate and the monitoring alerts for ten "
                                 "minutes after a deploy."))
    put(root, "money.md", mem("money-handling", "rule", tags=["money"],
                              summary="Prices and totals.",
                              body="Keep amounts as integer minor units; never floats."))


def test_a_word_for_a_concept_finds_the_memory_that_names_the_concept(workspace: Path) -> None:
    # None of these prompts holds a word of the memory it needs: they name the concept the way
    # people type it (a metric, a practice, who is affected).
    storefront(workspace / ".engram")
    assert pack_ids(workspace, "Lighthouse says LCP is 4.1s on the shop landing page, mostly "
                               "the big hero photo")[:1] == ["web-performance"]
    assert pack_ids(workspace, "let's do the tip splitting calculation test-first this time, "
                               "Wren wants to pair")[:1] == ["tdd-workflow"]
    assert pack_ids(workspace, "screen reader users can't tell which drop window is "
                               "selected")[:1] == ["web-accessibility"]
    text, _ = dry(workspace, "Lighthouse says LCP is 4.1s")
    assert "anchors: perform," in text


def test_a_new_laptop_is_about_setting_up(workspace: Path) -> None:
    # "new laptop" names no memory's word; it is the setup skill's concept, as "new hire" is.
    root = workspace / ".engram"
    storefront(root)
    put(root, "setup.md", mem("dev-environment", "skill", tags=["setup", "devenv"],
                              summary="Bootstrapping the local dev environment.",
                              body="Install the toolchain with `make bootstrap`, then start "
                                   "the services."))
    assert pack_ids(workspace, "I just cloned the repo on a new laptop, get me to where I can "
                               "run the storefront")[:1] == ["dev-environment"]


def test_a_concept_word_the_memories_hold_stays_as_written(workspace: Path) -> None:
    root = workspace / ".engram"
    storefront(root)
    put(root, "vitals.md", mem("lcp-budget", "rule", tags=["lcp"],
                               summary="The LCP budget of the landing page is 2.5 s.",
                               body="Measure it on a throttled phone profile."))
    text, _ = dry(workspace, "LCP is 4.1s on the landing page")
    assert "anchors: lcp," in text
    assert pack_ids(workspace, "LCP is 4.1s on the landing page")[:1] == ["lcp-budget"]


def test_a_product_name_is_no_concept_word(workspace: Path) -> None:
    # A team without a memory for its monitoring stack gets nothing for its dashboards, not the
    # deploy checklist that mentions monitoring.
    storefront(workspace / ".engram")
    assert pack_ids(workspace, "writing Prometheus alerting rules and Grafana dashboards") == []
