"""openapi2mcp.toml: validation errors that name the key, the rule table, prompt templates."""

from __future__ import annotations

from pathlib import Path

import pytest

from openapi2mcp.config import CONFIG_NAME, Config, find_config, load_config, parse_config
from openapi2mcp.diagnostics import GenerationError


def message(data: dict[str, object]) -> str:
    with pytest.raises(GenerationError) as info:
        parse_config(data)
    return info.value.diagnostic.message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"max_name_lenght": 40}, "unknown key 'max_name_lenght'; did you mean 'max_name_length'?"),
        (
            {"rules": [{"kind": "tool", "method": ["GET"]}]},
            "unknown key 'rules.0.method'; did you mean 'methods'?",
        ),
        ({"annotations": {"deletePet": {"destructiv": True}}}, "did you mean 'destructive'?"),
        ({"upstream": {"timeout": -1}}, "upstream.timeout: Input should be greater than 0"),
        ({"rules": [{"kind": "banana"}]}, "rules.0.kind: Input should be"),
        ({"uri_scheme": "9bad"}, "uri_scheme: String should match pattern"),
        (
            {"prompts": [{"name": "p", "template": "find {species}", "arguments": []}]},
            "prompts.p: template uses undeclared argument 'species'",
        ),
    ],
)
def test_invalid_config_names_the_key(data: dict[str, object], expected: str) -> None:
    assert expected in message(data)


def test_rules_first_match_wins() -> None:
    config = parse_config(
        {
            "rules": [
                {"path": "/admin/*", "kind": "exclude"},
                {"methods": ["get"], "tags": ["reports"], "kind": "tool"},
                {"operation_id": "list*", "kind": "resource", "read_tool": False},
            ]
        }
    )
    assert config.rule_for("DELETE", "/admin/users", (), "wipe") == (0, config.rules[0])
    assert config.rule_for("GET", "/reports/x", ("reports",), "listReports") == (1, config.rules[1])
    assert config.rule_for("GET", "/pets", (), "listPets") == (2, config.rules[2])
    assert config.rule_for("POST", "/pets", (), "createPet") is None


def test_prompt_placeholders_allow_escaped_braces() -> None:
    config = parse_config(
        {
            "prompts": [
                {
                    "name": "adopt",
                    "arguments": [{"name": "species", "required": True, "values": ["cat", "dog"]}],
                    "template": 'Find a {species}; JSON looks like {{"a": 1}}',
                }
            ]
        }
    )
    assert config.prompts[0].placeholders() == ["species"]


def test_config_file_next_to_spec_is_found_and_loaded(tmp_path: Path) -> None:
    spec = tmp_path / "api.yaml"
    spec.write_text("openapi: 3.0.3\n")
    assert find_config(spec, None) is None
    (tmp_path / CONFIG_NAME).write_text('name = "pets"\n[rename]\nlistPets = "pets_list"\n')
    found = find_config(spec, None)
    assert found == tmp_path / CONFIG_NAME
    config = load_config(found)
    assert config.name == "pets" and config.rename == {"listPets": "pets_list"}
    assert load_config(None) == Config()


def test_invalid_toml_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / CONFIG_NAME
    path.write_text("name = \n")
    with pytest.raises(GenerationError) as info:
        load_config(path)
    assert info.value.diagnostic.message.startswith(f"{CONFIG_NAME}: invalid TOML")
