"""Settings end to end: initializationOptions, workspace/configuration, didChangeConfiguration,
the project file, feature toggles, and invalid values reported with window/showMessage."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from test_multiroot import eventually, settings_of, start_workspace

from gemstack_lsp.uris import path_to_uri

SPEC = "specs/001-demo/spec.md"
LEDGER = "cost-ledger.json"

SPEC_TEXT = """# Demo feature

Some text.

```gemstack-billable-actions
[
  {"id": "summarise", "description": "Summarise a document.", "category": "POTENTIALLY_BILLABLE",
   "capability_id": "inference.generate_text", "providers": ["cloud-free"]},
  {"id": "echo", "description": "Echo locally.", "category": "NON_BILLABLE_LOCAL",
   "capability_id": "inference.generate_text", "providers": ["mock-local"]}
]
```
"""


def _entry(fresh: str) -> dict[str, Any]:
    return {
        "cost_state": "FREE",
        "estimated_unit_cost": 0,
        "assumption_source": "test",
        "freshness_date": fresh,
        "requires_human_approval": False,
    }


def demo_repo(root: Path, age_days: int = 5) -> Path:
    """A small repository: one feature with billable actions, a ledger ``age_days`` old."""
    fresh = (dt.date.today() - dt.timedelta(days=age_days)).isoformat()
    (root / "specs" / "001-demo").mkdir(parents=True)
    (root / SPEC).write_text(SPEC_TEXT, "utf-8")
    ledger = {
        "version": 1,
        "currency": "USD",
        "providers": {
            "cloud-free": {
                "type": "COMMERCIAL",
                "pricing_model": "NONE",
                "capabilities": {"inference.generate_text": _entry(fresh)},
            },
            "mock-local": {
                "type": "MOCK",
                "pricing_model": "NONE",
                "capabilities": {"inference.generate_text": _entry(fresh)},
            },
        },
    }
    (root / LEDGER).write_text(json.dumps(ledger, indent=2), "utf-8")
    return root.resolve()


async def lens_titles(h: Any, uri: str) -> list[str]:
    lenses = await h.request(
        lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    )
    return [lens.command.title for lens in lenses or []]


def _billable(titles: list[str]) -> str:
    return next(t for t in titles if "action" in t)


def change_configuration(h: Any, settings: Any = None) -> None:
    h.client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=settings))


async def test_initialization_options_apply(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    options = {"environment": "production", "hover": False}
    async with start_workspace(client_kind, [root], options=options) as h:
        s = await eventually(lambda: settings_of(h, root / SPEC), lambda s: s["environment"] == "production")
        assert s["environment"] == "production"
        assert s["hover"] is False
        assert s["completion"] is True
        uri = h.open(SPEC, SPEC_TEXT)
        assert _billable(await lens_titles(h, uri)) == "production: all 2 actions allowed"


async def test_initialization_options_under_a_gemstack_key(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    async with start_workspace(client_kind, [root], options={"gemstack": {"environment": "test"}}) as h:
        s = await eventually(lambda: settings_of(h, root), lambda s: s["environment"] == "test")
        assert s["environment"] == "test"


async def test_precedence_defaults_project_file_init_options_client(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    (root / ".gemstack").mkdir()
    (root / ".gemstack" / "lsp.toml").write_text(
        'environment = "ci"\nmax-ledger-age-days = 30\ndebounce-ms = 5\n[features]\ncode-lens = false\n', "utf-8"
    )
    options = {"environment": "staging", "maxLedgerAgeDays": 20}
    config = {str(root): {"environment": "production"}}
    async with start_workspace(client_kind, [root], options=options, configuration=config) as h:
        s = await eventually(lambda: settings_of(h, root / SPEC), lambda s: s["environment"] == "production")
        assert s["environment"] == "production"  # client settings win
        assert s["max_ledger_age_days"] == 20  # initializationOptions over the project file
        assert s["debounce_ms"] == 5  # the project file over the defaults
        assert s["code_lens"] is False
        assert s["log_level"] == "info"  # the default
        assert h.config_requests, "the server pulls workspace/configuration"
        assert h.config_requests[0].items[0].section == "gemstack"


async def test_did_change_configuration_applies_without_restart(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    async with start_workspace(client_kind, [root]) as h:
        uri = h.open(SPEC, SPEC_TEXT)
        first = await eventually(lambda: lens_titles(h, uri), lambda t: len(t) == 4)
        assert _billable(first) == "development: 1 of 2 actions denied (summarise: BILLABLE_ACTION_UNAUTHORIZED)"
        h.client.set_configuration({"environment": "test"}, section="gemstack", scope_uri=path_to_uri(root))
        change_configuration(h)
        titles = await eventually(lambda: lens_titles(h, uri), lambda t: _billable(t).startswith("test:"))
        assert _billable(titles) == "test: 1 of 2 actions denied (summarise: ENV_COMMERCIAL_DENIED)"
        # Switching the lens off takes effect at once too.
        h.client.set_configuration(
            {"environment": "test", "codeLens": False}, section="gemstack", scope_uri=path_to_uri(root)
        )
        change_configuration(h)
        assert await eventually(lambda: lens_titles(h, uri), lambda t: t == []) == []


async def test_ledger_age_reaches_the_analysis_and_diagnostics_are_republished(
    client_kind: str, tmp_path: Path
) -> None:
    root = demo_repo(tmp_path / "demo", age_days=5)
    async with start_workspace(client_kind, [root]) as h:
        h.open(LEDGER, (root / LEDGER).read_text("utf-8"), language_id="json")

        async def codes() -> set[str]:
            return {str(d.code) for d in await h.diagnostics(LEDGER)}

        assert "STALE_PROVIDER_COST_ASSUMPTION" not in await codes()
        h.client.set_configuration({"maxLedgerAgeDays": 2}, section="gemstack", scope_uri=path_to_uri(root))
        change_configuration(h)
        found = await eventually(codes, lambda c: "STALE_PROVIDER_COST_ASSUMPTION" in c)
        assert "STALE_PROVIDER_COST_ASSUMPTION" in found
        # Diagnostics switched off: the server withdraws them.
        h.client.set_configuration(
            {"maxLedgerAgeDays": 2, "diagnostics": False}, section="gemstack", scope_uri=path_to_uri(root)
        )
        change_configuration(h)
        assert await eventually(codes, lambda c: not c) == set()


async def test_invalid_settings_are_shown_and_fall_back(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    options = {"environment": "moon", "debounceMs": -1, "colour": "blue"}
    async with start_workspace(client_kind, [root], options=options) as h:
        messages = await eventually(lambda: _messages(h), lambda m: any("'environment'" in x.message for x in m))
        warning = next(m for m in messages if "'environment'" in m.message)
        assert warning.type == lsp.MessageType.Warning
        assert "invalid value 'moon' for 'environment'" in warning.message
        assert "invalid value -1 for 'debounceMs'" in warning.message
        assert "unknown setting 'colour' ignored" in warning.message
        assert "initializationOptions" in warning.message
        s = await settings_of(h, root / SPEC)
        assert s["environment"] == "development"
        assert s["debounce_ms"] == 0
        # The same problems are not shown again on every configuration change.
        shown = len([m for m in h.client.messages if "'environment'" in m.message])
        change_configuration(h)
        await eventually(lambda: _pulls(h), lambda n: n >= 2)
        await settings_of(h, root / SPEC)
        assert len([m for m in h.client.messages if "'environment'" in m.message]) == shown


async def _messages(h: Any) -> list[lsp.ShowMessageParams]:
    await settings_of(h, None)
    return list(h.client.messages)


async def _pulls(h: Any) -> int:
    await settings_of(h, None)
    return len(h.config_requests)


async def test_broken_project_file_is_reported(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    (root / ".gemstack").mkdir()
    (root / ".gemstack" / "lsp.toml").write_text('environment = "ci\n', "utf-8")
    async with start_workspace(client_kind, [root]) as h:
        messages = await eventually(lambda: _messages(h), lambda m: any("lsp.toml" in x.message for x in m))
        text = next(m.message for m in messages if "lsp.toml" in m.message)
        assert ".gemstack/lsp.toml: Not valid TOML" in text
        assert (await settings_of(h, root))["environment"] == "development"


async def test_project_file_change_is_picked_up(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    async with start_workspace(client_kind, [root]) as h:
        assert (await settings_of(h, root / SPEC))["environment"] == "development"
        (root / ".gemstack").mkdir()
        project = root / ".gemstack" / "lsp.toml"
        project.write_text('environment = "staging"\n', "utf-8")
        h.client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                changes=[lsp.FileEvent(uri=path_to_uri(project), type=lsp.FileChangeType.Created)]
            )
        )
        s = await eventually(lambda: settings_of(h, root / SPEC), lambda s: s["environment"] == "staging")
        assert s["environment"] == "staging"


async def test_push_only_client_settings(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    async with start_workspace(client_kind, [root], pull_configuration=False) as h:
        change_configuration(h, {"gemstack": {"environment": "ci", "navigation": False}})
        s = await eventually(lambda: settings_of(h, root / SPEC), lambda s: s["environment"] == "ci")
        assert s["environment"] == "ci"
        assert s["navigation"] is False
        assert h.config_requests == []


async def test_feature_toggles_switch_handlers_off(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    off = {"completion": False, "navigation": False, "codeLens": False}
    async with start_workspace(client_kind, [root], configuration={str(root): off}) as h:
        await eventually(lambda: settings_of(h, root / SPEC), lambda s: s["navigation"] is False)
        uri = h.open(SPEC, SPEC_TEXT)
        doc = lsp.TextDocumentIdentifier(uri=uri)
        pos = h.position(SPEC, "cloud-free", 2)
        assert (
            await h.request(lsp.TEXT_DOCUMENT_DEFINITION, lsp.DefinitionParams(text_document=doc, position=pos)) is None
        )
        assert await h.request(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, lsp.DocumentSymbolParams(text_document=doc)) is None
        assert await h.request(lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensParams(text_document=doc)) is None
        assert (
            await h.request(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionParams(text_document=doc, position=pos)) is None
        )
        # Back on, without a restart.
        h.client.set_configuration({}, section="gemstack", scope_uri=path_to_uri(root))
        change_configuration(h)
        symbols = await eventually(
            lambda: h.request(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, lsp.DocumentSymbolParams(text_document=doc)),
            lambda r: r is not None,
        )
        assert symbols is not None
        assert symbols[0].name == "Demo feature"


def _ctx() -> lsp.ReferenceContext:
    return lsp.ReferenceContext(include_declaration=True)


async def test_pyproject_table_is_watched_and_reloaded(client_kind: str, tmp_path: Path) -> None:
    root = demo_repo(tmp_path / "demo")
    pyproject = root / "pyproject.toml"
    pyproject.write_text('[project]\nname = "demo"\n\n[tool.gemstack-lsp]\nenvironment = "ci"\n', "utf-8")
    async with start_workspace(client_kind, [root]) as h:
        first = await eventually(lambda: settings_of(h, root), lambda s: s["environment"] == "ci")
        assert first["environment"] == "ci"
        caps = h.client.capabilities.workspace.did_change_watched_files
        if caps and caps.dynamic_registration:
            await eventually(lambda: _registered(h), lambda ids: "gemstack-project-settings" in ids)
            mine = next(r for r in h.registrations if r.id == "gemstack-project-settings")
            options = mine.register_options  # a plain mapping: the client does not structure it
            globs = {w["globPattern"] for w in options["watchers"]}
            assert globs == {"**/.gemstack/lsp.toml", "**/pyproject.toml"}
        pyproject.write_text('[tool.gemstack-lsp]\nenvironment = "production"\nlog-level = "debug"\n', "utf-8")
        h.client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                changes=[lsp.FileEvent(uri=path_to_uri(pyproject), type=lsp.FileChangeType.Changed)]
            )
        )
        s = await eventually(lambda: settings_of(h, root), lambda s: s["environment"] == "production")
        assert (s["environment"], s["log_level"]) == ("production", "debug")


async def _registered(h: Any) -> set[str]:
    await settings_of(h, None)
    return {r.id for r in h.registrations}
