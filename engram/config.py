"""Settings: `<workspace>/.engram/config.yaml` over `$ENGRAM_HOME/config.yaml` over defaults.

A bad value is never ignored: it raises ConfigError naming the file and the key, or, for the
hooks and the commands that report on them (`lenient`), it is set aside with a warning and the
default applies: a typo in a config must not silently switch off every injection.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from engram.errors import ConfigError

if TYPE_CHECKING:
    from typing import Any

CONFIG_FILE = "config.yaml"
DEFAULT_FIELD_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("id", 3.0),
    ("tags", 3.0),
    ("directive", 3.0),
    ("triggers", 2.0),
    ("summary", 2.0),
    ("body", 1.0),
)
WEIGHTS_KEY = "load.field_weights"


class Config(NamedTuple):
    """Resolved settings; field `load_limit` is key `load.limit` in a config file."""

    load_limit: int = 8
    load_expand_top: int = 3
    load_disclosure: str = "auto"  # auto | full
    load_budget_tokens: int | None = None
    load_field_weights: tuple[tuple[str, float], ...] = DEFAULT_FIELD_WEIGHTS
    hooks_enabled: bool = True
    hooks_path_rules: str = "native"  # native | hook
    hooks_max_path_bodies: int = 3
    hooks_proof: bool = True
    hooks_min_prompt_chars: int = 8
    hooks_deny_first_write: bool = True  # see docs/hooks.md: the only way before the write
    # Whether a workspace memory's `safety: {allow: [...]}` is honoured; only the user's own
    # config (the global root) may set it, so a cloned repository cannot loosen it.
    safety_workspace_overrides: str = "allow"  # allow | refuse
    hooks_hosts: tuple[str, ...] = ()  # hosts `hooks sync` writes for besides installed ones
    # Lenient loading only: what was set aside, as `path[:line]: key: problem` lines.
    warnings: tuple[str, ...] = ()

    def field_weight(self, name: str) -> float:
        return dict(self.load_field_weights)[name]


def load_config(workspace_dir: str | None, home_dir: str, *, lenient: bool = False) -> Config:
    """The settings for a workspace (its `.engram` folder, or None) and the global root.

    `lenient`: each bad key keeps its default and an unreadable file is skipped, each with a
    line in `Config.warnings`, instead of raising ConfigError.
    """
    config = Config()
    sink: list[str] | None = [] if lenient else None
    # Later files override earlier ones, key by key.
    for root, own in ((home_dir, True), (workspace_dir, workspace_dir == home_dir)):
        if root is None:
            continue
        path = os.path.join(root, CONFIG_FILE)
        if not os.path.isfile(path):
            continue
        try:
            data = _read(path)
        except ConfigError as exc:
            if sink is None:
                raise
            sink.append(f"{exc} (file ignored: defaults apply)")
            continue
        user = None if own else os.path.join(home_dir, CONFIG_FILE)
        config = _apply(config, data, path, sink, user)
    return config._replace(warnings=tuple(sink)) if sink else config


def _report(sink: list[str] | None, message: str) -> None:
    """Raise the problem (strict), or keep it as a warning while the key keeps its value."""
    if sink is None:
        raise ConfigError(message)
    sink.append(f"{message} (ignored: the default applies)")


def _read(path: str) -> dict[str, Any]:
    # Lazy: most runs have no config file, and yaml costs ~10 ms to import.
    import yaml

    try:
        with open(path, encoding="utf-8-sig") as handle:
            data = yaml.safe_load(handle)
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid UTF-8 (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 1
        problem = exc.problem or exc.context or "cannot be parsed"
        raise ConfigError(f"{path}:{line}: invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {str(exc).strip()}") from None
    if data is None:
        return {}  # an empty or all-comment file is a valid "no settings"
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings such as `load: {{limit: 5}}`, "
                          f"got {_describe(data)}")
    return data


# --- Values ----------------------------------------------------------------------------------


def _describe(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, bool | int | float):
        return str(value).lower() if isinstance(value, bool) else repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _integer(minimum: int, what: str) -> Callable[[object], int]:
    def convert(value: object) -> int:
        if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
            value = int(value.strip())
        if isinstance(value, int) and not isinstance(value, bool) and value >= minimum:
            return value
        raise ValueError(f"expected {what}, got {_describe(value)}")

    return convert


def _budget(value: object) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null")):
        return None  # lets a workspace switch off a budget its global config set
    return _integer(1, "a positive integer or none")(value)


def _choice(*choices: str) -> Callable[[object], str]:
    def convert(value: object) -> str:
        if isinstance(value, str) and value.strip().lower() in choices:
            return value.strip().lower()
        raise ValueError(f"expected {' or '.join(choices)}, got {_describe(value)}")

    return convert


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _switch(value: object) -> bool:
    # YAML 1.1 already reads bare on/off/yes/no as booleans; quoted ones arrive as strings.
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(f"expected on or off (true or false), got {_describe(value)}")


def _weight(value: object) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        if value != value or value == float("inf"):
            raise ValueError(f"expected a positive number, got {value!r}")
        return float(value)
    raise ValueError(f"expected a positive number, got {_describe(value)}")


SYNC_HOSTS = ("claude", "codex", "cursor", "gemini", "copilot")


def _hosts(value: object) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if isinstance(items, list) and all(isinstance(i, str) for i in items):
        names = tuple(dict.fromkeys(i.strip().lower() for i in items))
        unknown = [n for n in names if n not in SYNC_HOSTS]
        if not unknown:
            return names
        raise ValueError(f"unknown host {unknown[0]!r}; known: {', '.join(SYNC_HOSTS)}")
    raise ValueError(f"expected a list of host names, got {_describe(value)}")


_CONVERTERS: dict[str, Callable[[object], Any]] = {
    "load.limit": _integer(1, "a positive integer"),
    "load.expand_top": _integer(0, "an integer of 0 or more"),
    "load.disclosure": _choice("auto", "full"),
    "load.budget_tokens": _budget,
    "hooks.enabled": _switch,
    "hooks.path_rules": _choice("native", "hook"),
    "hooks.max_path_bodies": _integer(0, "an integer of 0 or more"),
    "hooks.proof": _switch,
    "hooks.min_prompt_chars": _integer(0, "an integer of 0 or more"),
    "hooks.deny_first_write": _switch,
    "safety.workspace_overrides": _choice("allow", "refuse"),
    "hooks.hosts": _hosts,
}
KEYS = (*_CONVERTERS, WEIGHTS_KEY)
SECTIONS = ("load", "hooks", "safety")
USER_ONLY = frozenset({"safety.workspace_overrides"})
WEIGHT_FIELDS = tuple(name for name, _ in DEFAULT_FIELD_WEIGHTS)


# --- Layering --------------------------------------------------------------------------------


def _flatten(data: dict[Any, Any], path: str, sink: list[str] | None,
             prefix: str = "") -> dict[str, object]:
    """`{load: {limit: 5}}` and `{load.limit: 5}` both become `{"load.limit": 5}`."""
    flat: dict[str, object] = {}

    def put(key: str, value: object) -> None:
        if key in flat:
            _report(sink, f"{path}: {key}: set twice in this file")
            return
        flat[key] = value

    for raw_key, value in data.items():
        key = prefix + str(raw_key)
        if key in KEYS:
            put(key, value)
        elif key.startswith(WEIGHTS_KEY + "."):
            put(key, value)  # `load.field_weights.id: 4`
        elif key in SECTIONS and value is None:
            continue  # `load:` with every setting commented out
        elif key in SECTIONS and isinstance(value, dict):
            for inner, inner_value in _flatten(value, path, sink, key + ".").items():
                put(inner, inner_value)
        elif key in SECTIONS:
            _report(sink, f"{path}: {key}: expected a mapping of settings, "
                          f"got {_describe(value)}")
        else:
            import difflib  # only to name the likely key in an error

            match = difflib.get_close_matches(key, KEYS, n=1, cutoff=0.6)
            hint = f"; did you mean {match[0]}?" if match else ""
            _report(sink, f"{path}: {key}: unknown key{hint}")
    return flat


def _apply(config: Config, data: dict[str, Any], path: str,
           sink: list[str] | None = None, user: str | None = None) -> Config:
    """`user`: the user's own config file, when `path` is a workspace's (which cannot set the
    USER_ONLY keys: a repository must not decide how its own memories are checked)."""
    changes: dict[str, Any] = {}  # values checked by their converter, typed per key
    weights = dict(config.load_field_weights)
    for key, value in _flatten(data, path, sink).items():
        try:
            if key in USER_ONLY and user is not None:
                raise ConfigError(f"{path}: {key}: only your own config ({user}) can set this;"
                                  " a workspace cannot decide how its own memories are checked")
            if key == WEIGHTS_KEY:
                if not isinstance(value, dict):
                    raise ConfigError(f"{path}: {key}: expected a mapping such as "
                                      f"`{{id: 4, body: 1}}`, got {_describe(value)}")
                for name, weight in value.items():
                    try:
                        weights[_weight_field(path, str(name))] = _convert(
                            _weight, weight, path, f"{key}.{name}")
                    except ConfigError as exc:
                        _report(sink, str(exc))  # the other fields of the mapping still apply
            elif key.startswith(WEIGHTS_KEY + "."):
                name = _weight_field(path, key.removeprefix(WEIGHTS_KEY + "."))
                weights[name] = _convert(_weight, value, path, key)
            else:
                changes[key.replace(".", "_")] = _convert(_CONVERTERS[key], value, path, key)
        except ConfigError as exc:
            _report(sink, str(exc))
    changes["load_field_weights"] = tuple((name, weights[name]) for name in WEIGHT_FIELDS)
    return config._replace(**changes)


def _weight_field(path: str, name: str) -> str:
    if name in WEIGHT_FIELDS:
        return name
    known = ", ".join(WEIGHT_FIELDS)
    raise ConfigError(f"{path}: {WEIGHTS_KEY}.{name}: unknown field; known fields: {known}")


def _convert(convert: Callable[[object], Any], value: object, path: str, key: str) -> Any:
    try:
        return convert(value)
    except ValueError as exc:
        raise ConfigError(f"{path}: {key}: {exc}") from None
