"""The packaged VS Code extension: what its manifest promises, read from the built .vsix.

`make test` builds the .vsix first (target `vsix`); these tests only read it.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp.server import settings as server_settings

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
VSIX = EXTENSION / "gemstack-lsp.vsix"
SCHEMAS = ROOT / "gemstack_lsp" / "schemas"


def _inputs() -> list[Path]:
    files = [EXTENSION / "package.json", EXTENSION / "package-lock.json"]
    files += sorted((EXTENSION / "src").glob("*.ts"))
    files += sorted(SCHEMAS.glob("*.json"))
    return files


@pytest.fixture(scope="module")
def vsix() -> zipfile.ZipFile:
    if not VSIX.exists():
        pytest.fail(f"{VSIX} is missing: build it with `make vsix` (`make test` does it first)")
    built = VSIX.stat().st_mtime
    newer = [str(p.relative_to(ROOT)) for p in _inputs() if p.stat().st_mtime > built]
    if newer:
        pytest.fail(f"{VSIX.name} is older than {', '.join(newer)}: rebuild it with `make vsix`")
    return zipfile.ZipFile(VSIX)


@pytest.fixture(scope="module")
def manifest(vsix: zipfile.ZipFile) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(vsix.read("extension/package.json"))
    return data


def test_vsix_carries_the_bundle_and_nothing_from_the_build(vsix: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    names = vsix.namelist()
    main = "extension/" + manifest["main"].removeprefix("./")
    assert main in names
    assert "extension/LICENSE.txt" in names or "extension/LICENSE" in names
    leaked = [
        n
        for n in names
        if n.startswith(("extension/src/", "extension/node_modules/", "extension/scripts/", "extension/test/"))
    ]
    assert leaked == []
    assert manifest["engines"]["vscode"].startswith("^1.")


def test_activates_in_gemstack_workspaces(manifest: dict[str, Any]) -> None:
    events = manifest["activationEvents"]
    assert "workspaceContains:specs" in events
    assert "workspaceContains:.gemstack" in events
    assert all(e.startswith("workspaceContains:") for e in events)


def test_palette_commands(manifest: dict[str, Any]) -> None:
    titles = {f"{c['category']}: {c['title']}": c["command"] for c in manifest["contributes"]["commands"]}
    assert titles["Gemstack: Regenerate Context Capsule"] == "gemstack.editor.regenerateCapsule"
    assert titles["Gemstack: Verify Context Capsule"] == "gemstack.editor.verifyCapsule"
    assert titles["Gemstack: Check Workspace"] == "gemstack.editor.checkWorkspace"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def test_settings_mirror_the_server(manifest: dict[str, Any]) -> None:
    props = manifest["contributes"]["configuration"]["properties"]
    defaults = server_settings.Settings()
    for field in fields(server_settings.Settings):
        key = f"gemstack.{_camel(field.name)}"
        assert key in props, f"{key} is a server setting but the extension does not contribute it"
        prop = props[key]
        default = getattr(defaults, field.name)
        assert prop["default"] == default, key
        expected_type = "boolean" if isinstance(default, bool) else "integer" if isinstance(default, int) else "string"
        assert prop["type"] == expected_type, key
        assert prop.get("description") or prop.get("markdownDescription"), key
    assert props["gemstack.environment"]["enum"] == list(server_settings.ENVIRONMENTS)
    assert props["gemstack.logLevel"]["enum"] == list(server_settings.LOG_LEVELS)
    # Client-only settings.
    assert props["gemstack.server.path"]["default"] == ""
    assert "pip install gemstack-lsp" in props["gemstack.server.path"]["markdownDescription"]
    assert props["gemstack.trace.server"]["enum"] == ["off", "messages", "verbose"]


def test_json_artifacts_are_bound_to_the_bundled_schemas(vsix: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    bindings = {v["fileMatch"]: v["url"] for v in manifest["contributes"]["jsonValidation"]}
    assert bindings == {
        "context-capsule.json": "./schemas/context-capsule-v1.schema.json",
        "cost-ledger.json": "./schemas/cost-ledger-v1.schema.json",
        "**/.gemstack/providers.json": "./schemas/providers.schema.json",
    }
    names = set(vsix.namelist())
    for url in bindings.values():
        member = "extension/" + url.removeprefix("./")
        assert member in names, f"{member} is not in the .vsix (is it in gemstack_lsp/schemas/?)"
        schema = json.loads(vsix.read(member))
        assert schema.get("$schema", "").startswith("https://json-schema.org/"), member
        # The bundled copy is the package's schema, byte for byte.
        assert vsix.read(member) == (SCHEMAS / Path(url).name).read_bytes()
