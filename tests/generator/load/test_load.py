"""Loading a spec: YAML and JSON from files or stdin, and the inputs that are refused outright."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from openapi2mcp.diagnostics import GenerationError
from openapi2mcp.load.reading import load_source

MINIMAL = b"openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"


def write(tmp_path: Path, name: str, content: bytes | str) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return str(path)


def refused(source: str, *, stdin: bytes | None = None) -> tuple[str, str]:
    with pytest.raises(GenerationError) as caught:
        load_source(source, stdin=stdin)
    diagnostic = caught.value.diagnostic
    assert diagnostic.level == "error"
    assert "\n" not in str(caught.value)
    return diagnostic.code, diagnostic.message


def test_a_yaml_file_is_loaded_with_its_origin(tmp_path: Path) -> None:
    doc = load_source(write(tmp_path, "api.yaml", MINIMAL))
    assert doc.data == {"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {}}
    assert doc.raw == MINIMAL
    assert doc.name == "api.yaml"
    assert doc.base_dir == tmp_path.resolve()
    assert doc.sha256 == hashlib.sha256(MINIMAL).hexdigest()


def test_a_json_file_is_loaded(tmp_path: Path) -> None:
    raw = b'{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}}'
    doc = load_source(write(tmp_path, "api.json", raw))
    assert doc.data == {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}}


def test_stdin_is_read_for_dash() -> None:
    doc = load_source("-", stdin=MINIMAL)
    assert doc.name == "<stdin>"
    assert doc.base_dir is None
    assert doc.data["info"] == {"title": "T", "version": "1"}
    assert doc.sha256 == hashlib.sha256(MINIMAL).hexdigest()


def test_yaml_keys_stay_as_written(tmp_path: Path) -> None:
    spec = """\
openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a:
    get:
      responses:
        200: {description: ok}
        2XX: {description: ok}
x-flags: {on: 1, yes: 2, no: 3, null: 4, 1.0: 5, true: 6}
x-dates: {created: 2024-01-31, at: 2024-01-31T10:00:00Z}
"""
    data = load_source(write(tmp_path, "api.yaml", spec)).data
    assert list(data["paths"]["/a"]["get"]["responses"]) == ["200", "2XX"]
    assert data["x-flags"] == {"on": 1, "yes": 2, "no": 3, "null": 4, "1.0": 5, "true": 6}
    assert data["x-dates"] == {"created": "2024-01-31", "at": "2024-01-31T10:00:00Z"}


def test_yaml_values_follow_yaml_1_2(tmp_path: Path) -> None:
    spec = """\
openapi: 3.0.3
x-countries: [SE, NO, DK, yes, off, y]
x-booleans: [true, False, TRUE]
x-numbers: [0755, 0o17, 0x1F, 12, -5, 1.5, 1e3, 1:30, 1_000]
x-nulls: [null, ~, Null]
"""
    data = load_source(write(tmp_path, "api.yaml", spec)).data
    assert data["x-countries"] == ["SE", "NO", "DK", "yes", "off", "y"]
    assert data["x-booleans"] == [True, False, True]
    assert data["x-numbers"] == [755, 15, 31, 12, -5, 1.5, 1000.0, "1:30", "1_000"]
    assert data["x-nulls"] == [None, None, None]


def test_yaml_merge_keys_still_work(tmp_path: Path) -> None:
    spec = """\
openapi: 3.0.3
info: &info {title: T, version: '1'}
x-copy:
  <<: *info
  title: U
"""
    assert load_source(write(tmp_path, "api.yaml", spec)).data["x-copy"] == {
        "title": "U",
        "version": "1",
    }


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    assert load_source(write(tmp_path, "api.yaml", b"\xef\xbb\xbf" + MINIMAL)).data["paths"] == {}


def test_a_yaml_flow_mapping_is_not_mistaken_for_json(tmp_path: Path) -> None:
    doc = load_source(write(tmp_path, "api.yaml", "{openapi: 3.1.0, info: {title: T}}"))
    assert doc.data == {"openapi": "3.1.0", "info": {"title": "T"}}


def test_an_unquoted_version_number_is_accepted(tmp_path: Path) -> None:
    assert load_source(write(tmp_path, "api.yaml", "openapi: 3.0\n")).data["openapi"] == 3.0


def test_invalid_yaml_names_the_file_line_and_column(tmp_path: Path) -> None:
    source = write(tmp_path, "api.yaml", "openapi: 3.0.3\ninfo:\n  title: T\n   version: 1\n")
    code, message = refused(source)
    assert code == "yaml-invalid"
    # the problem's wording differs between libyaml and pure-Python PyYAML; the place does not
    assert message.startswith("api.yaml is not valid YAML: mapping values are not allowed ")
    assert message.endswith(" at line 4, column 11")


def test_invalid_json_names_the_file_line_and_column(tmp_path: Path) -> None:
    source = write(tmp_path, "api.json", '{\n  "openapi": "3.0.3",\n  "info": }\n')
    assert refused(source) == (
        "json-invalid",
        "api.json is not valid JSON: Expecting value at line 3, column 11",
    )


def test_invalid_yaml_on_stdin() -> None:
    code, message = refused("-", stdin=b"a: [1\n")
    assert code == "yaml-invalid"
    assert message.startswith("<stdin> is not valid YAML: ")
    assert message.endswith(" at line 2, column 1")


@pytest.mark.parametrize("content", ["- 1\n- 2\n", "just text\n", "title: T\npaths: {}\n", ""])
def test_a_document_that_is_not_openapi_is_refused(tmp_path: Path, content: str) -> None:
    assert refused(write(tmp_path, "api.yaml", content)) == (
        "not-openapi",
        "api.yaml is not an OpenAPI document (no 'openapi' field)",
    )


@pytest.mark.parametrize("version", ['"2.0"', "2.0"])
def test_swagger_2_is_loaded_as_written_for_the_parser_to_convert(
    tmp_path: Path, version: str
) -> None:
    source = write(tmp_path, "petstore.yaml", f"swagger: {version}\ninfo: {{title: T}}\n")
    assert load_source(source).data["info"] == {"title": "T"}


@pytest.mark.parametrize("version", ["1.2", "3.0"])
def test_other_swagger_versions_are_refused(tmp_path: Path, version: str) -> None:
    source = write(tmp_path, "petstore.yaml", f'swagger: "{version}"\ninfo: {{title: T}}\n')
    assert refused(source) == (
        "swagger-unsupported",
        f"petstore.yaml is a Swagger {version} document; only Swagger 2.0 and OpenAPI 3.0.x and"
        " 3.1.x are supported",
    )


@pytest.mark.parametrize("version", ["3.2.0", "2.0", "4.0.0", "3.0.x"])
def test_other_openapi_versions_are_refused(tmp_path: Path, version: str) -> None:
    source = write(tmp_path, "api.yaml", f"openapi: '{version}'\n")
    assert refused(source) == (
        "version-unsupported",
        f"api.yaml uses OpenAPI {version}; only OpenAPI 3.0.x and 3.1.x are supported",
    )


@pytest.mark.parametrize("version", ["3.0.0", "3.0.4", "3.1.0", "3.1.1", "3.1.2", "3.1.0-rc1"])
def test_openapi_3_0_and_3_1_are_accepted(tmp_path: Path, version: str) -> None:
    doc = load_source(write(tmp_path, "api.yaml", f"openapi: '{version}'\n"))
    assert doc.data["openapi"] == version


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    assert refused(str(tmp_path / "nope.yaml")) == (
        "read-failed",
        f"cannot read {tmp_path / 'nope.yaml'}: No such file or directory",
    )


def test_a_url_is_refused_without_network() -> None:
    assert refused("https://example.com/openapi.yaml") == (
        "source-remote",
        "https://example.com/openapi.yaml is a URL; download the spec first (the generator never"
        " downloads it)",
    )


def test_text_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    assert refused(write(tmp_path, "api.yaml", b"openapi: 3.0.3\ntitle: \xff\n")) == (
        "encoding-invalid",
        "api.yaml is not UTF-8 text (byte 22)",
    )


@pytest.mark.parametrize("name", ["api.json", "api.yaml"])
def test_absurdly_deep_nesting_is_refused(tmp_path: Path, name: str) -> None:
    assert refused(write(tmp_path, name, "[" * 100_000 + "]" * 100_000)) == (
        "too-deep",
        f"{name} is nested too deeply to read",
    )
