"""load_config: file, then environment, then flags; errors name the key and where it came from."""

from __future__ import annotations

from pathlib import Path

import pytest

from junitbot.config import JunitbotConfig, load_config
from junitbot.errors import ConfigError


def _write(root: Path, text: str) -> None:
    (root / ".junitbot.yml").write_text(text, encoding="utf-8")


def test_defaults_without_a_file(tmp_path: Path) -> None:
    config = load_config(tmp_path, environ={})
    assert config == JunitbotConfig()
    assert [rule.name for rule in config.layers] == ["presentation", "infrastructure", "application", "domain"]


def test_file_then_environment_then_flags(tmp_path: Path) -> None:
    _write(tmp_path, "include: src/main/java/com/acme/domain/**\nimpact_depth: 2\nmax_file_bytes: 500\n")
    config = load_config(
        tmp_path,
        environ={"JUNITBOT_IMPACT_DEPTH": "4", "JUNITBOT_EXCLUDE": "**/gen/**, **/legacy/**", "OTHER": "x"},
        overrides={"impact_depth": 5, "state_dir": None},
    )
    assert config.include == ("src/main/java/com/acme/domain/**",)
    assert config.exclude == ("**/gen/**", "**/legacy/**")
    assert config.impact_depth == 5
    assert config.max_file_bytes == 500


def test_relative_state_dir_is_relative_to_the_repo(tmp_path: Path) -> None:
    _write(tmp_path, "state_dir: cache/junitbot\n")
    assert load_config(tmp_path, environ={}).state_dir == tmp_path / "cache/junitbot"


def test_layers_from_json_environment(tmp_path: Path) -> None:
    config = load_config(tmp_path, environ={"JUNITBOT_LAYERS": '[{"name": "core", "packages": ["kernel"]}]'})
    assert [(r.name, r.packages) for r in config.layers] == [("core", ("kernel",))]


@pytest.mark.parametrize(("text", "fragment"), [
    ("includes: [a]\n", "key 'includes'"),
    ("impact_depth: lots\n", "key 'impact_depth'"),
    ("layers:\n  - {name: x, packagez: [a]}\n", "key 'layers.0.packagez'"),
    ("max_file_bytes: -1\n", "key 'max_file_bytes'"),
])
def test_bad_keys_and_types_name_the_key_and_the_file(tmp_path: Path, text: str, fragment: str) -> None:
    _write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, environ={})
    assert fragment in str(caught.value)
    assert str(tmp_path / ".junitbot.yml") in str(caught.value)


@pytest.mark.parametrize(("heap", "fragment"), [
    ("99999999g", "is more than this machine's memory"),  # issue 18: accepted, then every test "exited with 1"
    ("512", "is too small for the test JVM"),
    ("12x", "is not a JVM size"),
    ("-1g", "is not a JVM size"),
])
def test_a_test_jvm_heap_that_cannot_work_is_a_config_error(tmp_path: Path, heap: str, fragment: str) -> None:
    _write(tmp_path, f"validation:\n  max_heap: {heap!r}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, environ={})
    assert "key 'validation.max_heap'" in str(caught.value) and fragment in str(caught.value)
    assert str(tmp_path / ".junitbot.yml") in str(caught.value)


@pytest.mark.parametrize("heap", ["512m", "2G", "64M", "1073741824", "65536k"])
def test_jvm_heap_sizes_as_java_takes_them(tmp_path: Path, heap: str) -> None:
    _write(tmp_path, f"validation:\n  max_heap: {heap!r}\n")
    assert load_config(tmp_path, environ={}).validation.max_heap == heap


def test_bad_environment_variable_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="JUNITBOT_IMPACT_DEPTH"):
        load_config(tmp_path, environ={"JUNITBOT_IMPACT_DEPTH": "deep"})
    with pytest.raises(ConfigError, match="JUNITBOT_BOGUS"):
        load_config(tmp_path, environ={"JUNITBOT_BOGUS": "1"})


def test_malformed_yaml_is_a_config_error(tmp_path: Path) -> None:
    _write(tmp_path, "include: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(tmp_path, environ={})
    _write(tmp_path, "- just\n- a list\n")
    with pytest.raises(ConfigError, match="expected a mapping"):
        load_config(tmp_path, environ={})


def test_fingerprint_changes_with_analysis_settings_only() -> None:
    base = JunitbotConfig()
    assert base.analysis_fingerprint() == JunitbotConfig(include=("x/**",)).analysis_fingerprint()
    assert base.analysis_fingerprint() != JunitbotConfig(ignore=("x/**",)).analysis_fingerprint()
