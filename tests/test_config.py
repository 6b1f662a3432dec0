"""config.py on real files: layering, both key forms, and an error for every bad value."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engram.config import DEFAULT_FIELD_WEIGHTS, Config, load_config
from engram.errors import ConfigError


def write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def dirs(workspace: Path, isolated_home: Path) -> tuple[Path, Path]:
    return workspace / ".engram", isolated_home


def test_defaults_without_files(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    config = load_config(str(ws), str(home))
    assert config == Config()
    assert config.load_limit == 8
    assert config.load_expand_top == 3
    assert config.load_disclosure == "auto"
    assert config.load_budget_tokens is None
    assert config.load_field_weights == DEFAULT_FIELD_WEIGHTS
    assert dict(config.load_field_weights) == {"id": 3.0, "tags": 3.0, "directive": 3.0,
                                               "triggers": 2.0, "summary": 2.0, "body": 1.0}
    assert (config.hooks_enabled, config.hooks_path_rules, config.hooks_max_path_bodies,
            config.hooks_proof, config.hooks_min_prompt_chars) == (True, "native", 3, True, 8)
    assert load_config(None, str(home)) == Config()


def test_every_key_nested_form(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    write(ws, """\
load:
  limit: 5
  expand_top: 0
  disclosure: full
  budget_tokens: 1200
  field_weights: {id: 4, body: 0.5}
hooks:
  enabled: false
  path_rules: hook
  max_path_bodies: 1
  proof: off
  min_prompt_chars: 0
""")
    config = load_config(str(ws), str(home))
    assert config == Config(
        load_limit=5, load_expand_top=0, load_disclosure="full", load_budget_tokens=1200,
        load_field_weights=(("id", 4.0), ("tags", 3.0), ("directive", 3.0), ("triggers", 2.0),
                            ("summary", 2.0), ("body", 0.5)),
        hooks_enabled=False, hooks_path_rules="hook", hooks_max_path_bodies=1, hooks_proof=False,
        hooks_min_prompt_chars=0,
    )
    assert config.field_weight("body") == 0.5


def test_dotted_form_and_mixed_forms(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    write(ws, "load.limit: 3\nload.field_weights.tags: 6\nhooks:\n  proof: no\n"
              "load:\n  disclosure: FULL\n")
    config = load_config(str(ws), str(home))
    assert (config.load_limit, config.field_weight("tags"), config.hooks_proof,
            config.load_disclosure) == (3, 6.0, False, "full")


def test_workspace_over_global_over_defaults(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    write(home, "load:\n  limit: 4\n  expand_top: 1\n  field_weights: {id: 5, tags: 4}\n"
                "hooks.proof: off\n")
    write(ws, "load.limit: 6\nload.field_weights: {tags: 1}\n")
    config = load_config(str(ws), str(home))
    assert config.load_limit == 6  # workspace wins
    assert config.load_expand_top == 1  # global fills in
    assert config.hooks_proof is False
    assert config.load_disclosure == "auto"  # default remains
    assert dict(config.load_field_weights) == {"id": 5.0, "tags": 1.0, "directive": 3.0,
                                               "triggers": 2.0, "summary": 2.0, "body": 1.0}
    assert load_config(None, str(home)).load_limit == 4


def test_workspace_can_clear_a_global_budget(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    write(home, "load.budget_tokens: 900\n")
    assert load_config(str(ws), str(home)).load_budget_tokens == 900
    write(ws, "load.budget_tokens: null\n")
    assert load_config(str(ws), str(home)).load_budget_tokens is None


@pytest.mark.parametrize("text", ["", "# nothing set yet\n", "load: {}\n", "\ufeffload:\n"])
def test_empty_files_and_sections_are_fine(dirs: tuple[Path, Path], text: str) -> None:
    ws, home = dirs
    write(ws, text)
    assert load_config(str(ws), str(home)) == Config()


@pytest.mark.parametrize(("value", "expected"), [
    ("on", True), ("off", False), ("yes", True), ("no", False), ("true", True),
    ("false", False), ("'on'", True), ("'Off'", False), ("True", True),
])
def test_switch_spellings(dirs: tuple[Path, Path], value: str, expected: bool) -> None:
    ws, home = dirs
    write(ws, f"hooks:\n  proof: {value}\n  enabled: {value}\n")
    config = load_config(str(ws), str(home))
    assert (config.hooks_proof, config.hooks_enabled) == (expected, expected)


BAD_VALUES = [
    ("load:\n  limit: many\n", "load.limit: expected a positive integer, got 'many'"),
    ("load.limit: 0\n", "load.limit: expected a positive integer, got 0"),
    ("load.limit: true\n", "load.limit: expected a positive integer, got true"),
    ("load.limit: 2.5\n", "load.limit: expected a positive integer, got 2.5"),
    ("load.expand_top: -1\n", "load.expand_top: expected an integer of 0 or more, got -1"),
    ("load.disclosure: cards\n", "load.disclosure: expected auto or full, got 'cards'"),
    ("load.budget_tokens: 0\n", "load.budget_tokens: expected a positive integer or none, got 0"),
    ("load.budget_tokens: lots\n", "load.budget_tokens: expected a positive integer or none"),
    ("load.field_weights: [id]\n", "load.field_weights: expected a mapping"),
    ("load.field_weights: {id: 0}\n", "load.field_weights.id: expected a positive number, got 0"),
    ("load.field_weights: {id: -2}\n", "load.field_weights.id: expected a positive number"),
    ("load.field_weights: {id: high}\n", "load.field_weights.id: expected a positive number"),
    ("load.field_weights: {id: .nan}\n", "load.field_weights.id: expected a positive number"),
    ("load.field_weights: {title: 2}\n", "load.field_weights.title: unknown field; known fields"),
    ("load.field_weights.titel: 2\n", "load.field_weights.titel: unknown field"),
    ("hooks.enabled: maybe\n", "hooks.enabled: expected on or off (true or false), got 'maybe'"),
    ("hooks.proof: 2\n", "hooks.proof: expected on or off"),
    ("hooks.path_rules: both\n", "hooks.path_rules: expected native or hook, got 'both'"),
    ("hooks.max_path_bodies: -3\n", "hooks.max_path_bodies: expected an integer of 0 or more"),
    ("hooks.min_prompt_chars: short\n", "hooks.min_prompt_chars: expected an integer of 0 or more"),
    ("load:\n  limt: 3\n", "load.limt: unknown key; did you mean load.limit?"),
    ("limit: 3\n", "limit: unknown key; did you mean load.limit?"),
    ("colour: blue\n", "colour: unknown key"),
    ("hooks: true\n", "hooks: expected a mapping of settings, got true"),
    ("load: {limit: 3}\nload.limit: 4\n", "load.limit: set twice in this file"),
    ("- load\n", "expected a mapping of settings"),
    ("load: [\n", "invalid YAML"),
    ("load:\n\tlimit: 3\n", "invalid YAML"),
]


@pytest.mark.parametrize(("text", "message"), BAD_VALUES)
def test_bad_values_name_file_and_key(dirs: tuple[Path, Path], text: str, message: str) -> None:
    ws, home = dirs
    path = write(ws, text)
    with pytest.raises(ConfigError) as caught:
        load_config(str(ws), str(home))
    assert str(caught.value).startswith(f"{path}:")
    assert message in str(caught.value)


def test_example_error_message_exactly(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    path = write(ws, "load:\n  limit: many\n")
    with pytest.raises(ConfigError, match="^") as caught:
        load_config(str(ws), str(home))
    assert str(caught.value) == f"{path}: load.limit: expected a positive integer, got 'many'"


def test_yaml_error_has_a_line(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    path = write(ws, "load:\n  limit: 3\n  disclosure: [full\n")
    with pytest.raises(ConfigError) as caught:
        load_config(str(ws), str(home))
    assert str(caught.value).startswith(f"{path}:4: invalid YAML")


def test_error_in_global_file_names_the_global_file(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    path = write(home, "hooks.proof: sometimes\n")
    with pytest.raises(ConfigError, match=f"^{path}: hooks.proof"):
        load_config(str(ws), str(home))


def test_not_utf8(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    ws.mkdir(exist_ok=True)
    (ws / "config.yaml").write_bytes(b"load:\n  disclosure: \xff\n")
    with pytest.raises(ConfigError, match="not valid UTF-8"):
        load_config(str(ws), str(home))


def test_a_folder_named_config_yaml_is_not_a_file(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    (ws / "config.yaml").mkdir(parents=True)
    assert load_config(str(ws), str(home)) == Config()


def test_yaml_is_not_imported_without_config_files(dirs: tuple[Path, Path],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    ws, home = dirs
    monkeypatch.setitem(sys.modules, "yaml", None)  # any `import yaml` now fails
    assert load_config(str(ws), str(home)) == Config()


@pytest.mark.parametrize(("text", "message"), BAD_VALUES)
def test_lenient_sets_a_bad_key_aside_and_keeps_the_rest(dirs: tuple[Path, Path], text: str,
                                                         message: str) -> None:
    """What the hooks load: a bad key keeps its default with a warning naming file and key; the
    good keys of the same file and of the global file still apply."""
    ws, home = dirs
    write(home, "hooks.max_path_bodies: 5\n")
    whole_file = "YAML" in message or text.startswith("- ")  # nothing in it can be read
    good = "hooks.proof: off\n" if "proof" not in text else "hooks.path_rules: hook\n"
    path = write(ws, text if whole_file else text + good)
    config = load_config(str(ws), str(home), lenient=True)
    assert config.warnings and all(w.startswith(f"{path}:") for w in config.warnings)
    assert any(message in w for w in config.warnings)
    assert config.hooks_enabled and config.hooks_max_path_bodies == 5
    if not whole_file:
        assert not config.hooks_proof or config.hooks_path_rules == "hook"


def test_lenient_without_problems_has_no_warnings(dirs: tuple[Path, Path]) -> None:
    ws, home = dirs
    write(ws, "hooks:\n  proof: off\n")
    config = load_config(str(ws), str(home), lenient=True)
    assert config == Config(hooks_proof=False) and config.warnings == ()
