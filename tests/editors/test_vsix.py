"""The packaged VS Code extension: what its manifest promises, read from the built .vsix.

`make test` builds the .vsix first (target `vsix`); these tests only read it.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from gemstack_lsp import __version__
from gemstack_lsp.server import settings as server_settings

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
VSIX = EXTENSION / "gemstack-lsp.vsix"
SCHEMAS = ROOT / "gemstack_lsp" / "schemas"


def _inputs() -> list[Path]:
    files = [EXTENSION / "package.json", EXTENSION / "package-lock.json", EXTENSION / "README.md"]
    files += sorted((EXTENSION / "src").glob("*.ts"))
    files += sorted((EXTENSION / "syntaxes").glob("*.json"))
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
        if field.name == "policy":
            continue  # the finding policy comes from the project file only, never from the editor
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
    description = props["gemstack.server.path"]["markdownDescription"]
    # Install hints that work today: the bundled install command, or from a clone (the package
    # is not published, and anyone could register its name).
    assert "Gemstack: Install or update the server" in description
    assert "pipx install /path/to/gemstack-lsp" in description
    assert "pip install gemstack-lsp" not in description
    assert props["gemstack.trace.server"]["enum"] == ["off", "messages", "verbose"]


def test_json_artifacts_are_bound_to_the_bundled_schemas(vsix: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    bindings = {
        match: v["url"]
        for v in manifest["contributes"]["jsonValidation"]
        for match in ([v["fileMatch"]] if isinstance(v["fileMatch"], str) else v["fileMatch"])
    }
    # Only where a Gemstack repository keeps them: never any file named cost-ledger.json (a
    # root-level ledger cannot be told from another project's by a pattern; the server checks it).
    assert bindings == {
        "**/specs/*/context-capsule.json": "./schemas/context-capsule-v1.schema.json",
        "**/specs/*/cost-ledger.json": "./schemas/cost-ledger-v1.schema.json",
        "**/.gemstack/cost-ledger.json": "./schemas/cost-ledger-v1.schema.json",
        "**/.gemstack/providers.json": "./schemas/providers.schema.json",
        "**/specs/*/swarm.json": "./schemas/swarm.schema.json",
        "**/specs/*/visual-qa.json": "./schemas/visual-qa.schema.json",
    }
    names = set(vsix.namelist())
    for url in bindings.values():
        member = "extension/" + url.removeprefix("./")
        assert member in names, f"{member} is not in the .vsix (is it in gemstack_lsp/schemas/?)"
        schema = json.loads(vsix.read(member))
        assert schema.get("$schema", "").startswith("https://json-schema.org/"), member
        # The bundled copy is the package's schema, byte for byte.
        assert vsix.read(member) == (SCHEMAS / Path(url).name).read_bytes()


def test_gemstack_blocks_are_highlighted_as_json(vsix: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    """An injection grammar into Markdown embeds source.json in ```gemstack-* fences (its
    scopes are checked with VS Code's own TextMate engine in test_vscode_grammar.py)."""
    [grammar] = manifest["contributes"]["grammars"]
    assert grammar["injectTo"] == ["text.html.markdown"]
    assert grammar["embeddedLanguages"] == {"meta.embedded.block.json": "json"}
    member = "extension/" + grammar["path"].removeprefix("./")
    packed = json.loads(vsix.read(member))
    assert packed["scopeName"] == grammar["scopeName"]
    assert packed["injectionSelector"].startswith("L:text.html.markdown")
    [language] = manifest["contributes"]["languages"]
    assert language["id"] == "json"  # strict JSON (the server rejects comments), not jsonc
    assert "**/.gemstack/*.json" in language["filenamePatterns"]


def test_quiet_outside_gemstack(manifest: dict[str, Any]) -> None:
    """The commands that need a Gemstack repository are in the palette only in one (a context
    key the extension sets); showing the output or installing stays available."""
    palette = {m["command"]: m["when"] for m in manifest["contributes"]["menus"]["commandPalette"]}
    for command in (
        "gemstack.editor.regenerateCapsule",
        "gemstack.editor.verifyCapsule",
        "gemstack.editor.checkWorkspace",
        "gemstack.editor.restartServer",
    ):
        assert palette[command] == "gemstack.isGemstackWorkspace", command
    assert "gemstack.editor.showOutput" not in palette


def test_palette_has_the_install_command(manifest: dict[str, Any]) -> None:
    titles = {f"{c['category']}: {c['title']}": c["command"] for c in manifest["contributes"]["commands"]}
    assert titles["Gemstack: Install or update the server"] == "gemstack.installServer"


def test_no_install_hint_names_the_unpublished_package(vsix: zipfile.ZipFile) -> None:
    for name in ("extension/package.json", "extension/readme.md", "extension/out/extension.js"):
        text = vsix.read(name).decode("utf-8")
        assert "pip install gemstack-lsp" not in text, name


def test_vsix_carries_the_server_wheel_built_from_this_tree(vsix: zipfile.ZipFile) -> None:
    wheels = [n for n in vsix.namelist() if n.startswith("extension/bundled/") and n.endswith(".whl")]
    assert len(wheels) == 1, wheels
    assert Path(wheels[0]).name == f"gemstack_lsp-{__version__}-py3-none-any.whl"
    wheel = zipfile.ZipFile(io.BytesIO(vsix.read(wheels[0])))
    names = set(wheel.namelist())
    dist_info = f"gemstack_lsp-{__version__}.dist-info"
    metadata = wheel.read(f"{dist_info}/METADATA").decode("utf-8")
    assert "Name: gemstack-lsp" in metadata and f"Version: {__version__}" in metadata
    assert "gemstack-lsp = gemstack_lsp.cli:run" in wheel.read(f"{dist_info}/entry_points.txt").decode("utf-8")
    # Every module of the package, byte for byte as in this tree (a stale .vsix fails here).
    package = ROOT / "gemstack_lsp"
    tree = {str(p.relative_to(ROOT)).replace("\\", "/") for p in package.rglob("*.py")}
    packed = {n for n in names if n.startswith("gemstack_lsp/") and n.endswith(".py")}
    assert packed == tree, f"rebuild the .vsix with `make vsix`: {sorted(packed ^ tree)[:5]}"
    changed = [n for n in sorted(tree) if wheel.read(n) != (ROOT / n).read_bytes()]
    assert changed == [], f"the bundled wheel is older than {changed[:5]}: rebuild it with `make vsix`"
    assert "gemstack_lsp/schemas/context-capsule-v1.schema.json" in names
