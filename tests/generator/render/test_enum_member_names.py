"""Names pycodestyle calls ambiguous (``l``, ``O``, ``I``) never reach the generated code.

Regression (issue 15): an enum with a member ``I`` became ``I = "I"`` in the generated ``models.py``
(ruff E741), and so did fields and parameters named ``l``, ``O`` or ``I``; the generated package must
pass ``ruff check`` and ``ruff format --check`` under its own configuration.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.plan import naming
from openapi2mcp.render.emit import ruff_command, write_tree
from openapi2mcp.render.models import class_key
from openapi2mcp.render.package import MARKER

SPEC = """\
openapi: 3.0.3
info: {title: Letters, version: "1.0"}
servers: [{url: "https://api.example.com"}]
paths:
  /sizes/{l}:
    get:
      operationId: l
      parameters:
        - {name: l, in: path, required: true, schema: {type: string}}
        - {name: O, in: query, schema: {$ref: "#/components/schemas/Size"}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
components:
  schemas:
    Size: {type: string, enum: [I, l, O, I_, i], default: O}
    I: {type: object, properties: {x: {type: string}}}
    Thing:
      type: object
      properties:
        size: {allOf: [{$ref: "#/components/schemas/Size"}], default: I}
        kind: {type: string, enum: [O, x]}
        I: {type: string}
        l: {type: integer}
        O: {type: boolean}
        box: {$ref: "#/components/schemas/I"}
"""


def _generate(tmp_path: Path) -> Path:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(dedent(SPEC))
    result = generate(str(spec), GenerateOptions())
    out = tmp_path / "out"
    write_tree(result.files, out, force=False, marker=MARKER)
    return out


def test_enum_members_fields_and_classes_named_l_o_i_get_an_underscore(tmp_path: Path) -> None:
    out = _generate(tmp_path)
    models = (out / "src" / "letters_mcp" / "models.py").read_text()
    assert "class Size(StrEnum):\n" in models
    # a name already taken by another member gets one more underscore
    assert '    I__ = "I"\n    l_ = "l"\n    O_ = "O"\n    I_ = "I_"\n    i = "i"\n' in models
    # and every use of a renamed member follows
    assert "    size: Size | None = Size.I__\n" in models
    assert 'class ThingKind(StrEnum):\n    O_ = "O"\n    x = "x"\n' in models
    assert "class IModel(BaseModel):\n" in models
    assert '    I_: Annotated[str | None, Field(alias="I")] = None\n' in models
    assert '    l_: Annotated[int | None, Field(alias="l")] = None\n' in models
    assert '    O_: Annotated[bool | None, Field(alias="O")] = None\n' in models
    operations = (out / "src" / "letters_mcp" / "operations.py").read_text()
    assert "async def l_(\n    client: ApiClient,\n    *,\n    l_: str,\n    o: " in operations


def test_the_renamed_models_keep_the_wire_values(tmp_path: Path) -> None:
    out = _generate(tmp_path)
    spec = importlib.util.spec_from_file_location(
        "letters_models", out / "src" / "letters_mcp" / "models.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["letters_models"] = module
    try:
        spec.loader.exec_module(module)
        thing = module.Thing.model_validate({"I": "eye", "l": 1, "O": True, "kind": "O"})
        assert (thing.I_, thing.l_, thing.O_, thing.kind) == ("eye", 1, True, module.ThingKind.O_)
        assert thing.model_dump(by_alias=True, exclude_none=True, mode="json") == {
            "size": "I",
            "I": "eye",
            "l": 1,
            "O": True,
            "kind": "O",
        }
        assert module.Size("l") is module.Size.l_
    finally:
        del sys.modules["letters_models"]


def test_the_generated_package_passes_its_own_ruff_check_and_format(tmp_path: Path) -> None:
    out = _generate(tmp_path)
    for args in (["check", "--no-cache", "."], ["format", "--no-cache", "--check", "."]):
        done = subprocess.run(
            [*ruff_command(), *args], cwd=out, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_ambiguous_names_are_never_identifiers() -> None:
    assert naming.python_identifier("l") == "l_"
    assert naming.python_identifier("I") == "i"
    assert naming.python_identifier("O") == "o"
    assert [class_key(name) for name in ("I", "O", "l", "Il")] == ["IModel", "OModel", "L", "Il"]
