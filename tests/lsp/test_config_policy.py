"""The repository configuration in a server session: the editor and `check` agree, a broken file
is a diagnostic on the file while the previous valid one stays in force, a file nested 500 deep
does not cost `initialize`, the ignore quick fixes, and the hover of a hidden finding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from pytest_lsp import client_capabilities
from test_multiroot import _CONF, eventually, settings_of, start_workspace

from gemstack_lsp.cli import main
from gemstack_lsp.uris import path_to_uri

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo"
CONFIG = ".gemstack/lsp.toml"
TASKS = "specs/008-cost-provider-safety-gates/tasks.md"
PLAN = "specs/008-cost-provider-safety-gates/plan.md"
LEDGER_010 = "specs/010-release-notes/cost-ledger.json"
STALE = "STALE_PROVIDER_COST_ASSUMPTION"

POLICY = f"""\
max-ledger-age-days = 120
[severity]
FENCE_UNSEEN_BY_REFERENCE = "information"
closure = "hint"

[[overrides]]
paths = ["{LEDGER_010}"]
reason = "ollama-local runs on our own machines"
ignore = ["{STALE}"]
"""


def policy(settings: dict[str, Any]) -> dict[str, Any]:
    """The ``policy`` of a ``gemstack/settings`` answer as plain dicts and lists."""
    found: dict[str, Any] = _CONF._plain(settings["policy"])
    return found


SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}


def demo_copy(tmp_path: Path, config: str | None = POLICY) -> Path:
    root = Path(shutil.copytree(DEMO, tmp_path / "demo")).resolve()
    if config is not None:
        (root / CONFIG).write_text(config, "utf-8")
    tasks = root / TASKS
    lines = tasks.read_text("utf-8").split("\n")
    lines.insert(43, "<!-- gemstack-lsp-ignore TASK_VALIDATION_MISSING validated by hand in review -->")
    tasks.write_text("\n".join(lines), "utf-8")
    return root


def check_json(root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.chdir(root)
    capsys.readouterr()
    main(["check", "--format", "json", "."])
    findings: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    return findings


def replace_file(path: Path, text: str) -> None:
    """Write ``path`` as an editor's atomic save does: the server, on its own thread, may look at
    the disk at any moment, and must see the old file or the new one, never a half-written one
    (an empty file read mid-write is a valid configuration and would become "the previous one")."""
    part = path.with_name(path.name + ".part")
    part.write_text(text, "utf-8")
    part.replace(path)


def watched(h: Any, path: Path, kind: lsp.FileChangeType = lsp.FileChangeType.Changed) -> None:
    h.client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=path_to_uri(path), type=kind)])
    )


async def test_the_editor_and_check_agree_with_a_configuration(
    client_kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = demo_copy(tmp_path)
    expected: dict[str, list[tuple[str, str, int, int]]] = {}
    for f in check_json(root, capsys, monkeypatch):
        r = f["range"]
        expected.setdefault(path_to_uri(root / f["path"]), []).append(
            (f["code"], f["severity"], r["start"]["line"], r["end"]["line"])
        )
    # The configuration did something: re-graded, hidden and silenced findings.
    flat = [item for items in expected.values() for item in items]
    assert ("FENCE_UNSEEN_BY_REFERENCE", "information") in {(c, s) for c, s, _, _ in flat}
    assert not any(c in ("TASK_VALIDATION_MISSING", "SUPPRESSION_UNUSED", "CONFIG_INVALID") for c, *_ in flat)
    assert path_to_uri(root / LEDGER_010) not in expected
    async with start_workspace(client_kind, [root]) as h:
        await h.settle()
        published = await eventually(h.workspace_diagnostics, lambda d: len(d) >= len(expected))
        got = {
            uri: sorted((str(d.code), SEVERITY[int(d.severity or 1)], d.range.start.line, d.range.end.line) for d in ds)
            for uri, ds in published.items()
        }
        assert got == {uri: sorted(items) for uri, items in expected.items()}
        # The workspace check command counts what is shown, as check does.
        result = _CONF._plain(
            await h.request(lsp.WORKSPACE_EXECUTE_COMMAND, lsp.ExecuteCommandParams(command="gemstack.checkWorkspace"))
        )
        counts: dict[str, int] = {}
        for _, severity, _, _ in flat:
            counts[severity] = counts.get(severity, 0) + 1
        assert result["totals"] == counts


async def test_a_broken_file_is_a_diagnostic_and_the_previous_one_stays(client_kind: str, tmp_path: Path) -> None:
    root = demo_copy(tmp_path)
    async with start_workspace(client_kind, [root]) as h:
        # The project file's policy and its editor keys reach the settings a moment apart.
        s = await eventually(
            lambda: settings_of(h, root / TASKS),
            lambda s: bool(policy(s)["overrides"]) and s["max_ledger_age_days"] == 120,
        )
        assert s["max_ledger_age_days"] == 120
        replace_file(root / CONFIG, "max-ledger-age-days = 1\nx = " + "[" * 500 + "]" * 500 + "\n")
        watched(h, root / CONFIG)

        async def config_diagnostics() -> list[lsp.Diagnostic]:
            return [d for d in await h.diagnostics(CONFIG) if d.code == "CONFIG_INVALID"]

        found = await eventually(config_diagnostics, lambda ds: bool(ds))
        assert [(d.severity, d.range.start.line) for d in found] == [(lsp.DiagnosticSeverity.Error, 1)]
        s = await settings_of(h, root / TASKS)
        assert s["max_ledger_age_days"] == 120 and policy(s)["overrides"][0]["ignore"] == [STALE]
        ledger = [d for d in await h.diagnostics(LEDGER_010) if d.code == STALE]
        assert ledger == []
        # Fixed: the new file applies at once, without a restart.
        replace_file(root / CONFIG, "max-ledger-age-days = 10000\n")
        watched(h, root / CONFIG)
        s = await eventually(lambda: settings_of(h, root / TASKS), lambda s: s["max_ledger_age_days"] == 10000)
        assert policy(s)["overrides"] == []
        assert await eventually(config_diagnostics, lambda ds: not ds) == []


async def test_a_deep_project_file_does_not_cost_initialize(client_kind: str, tmp_path: Path) -> None:
    root = demo_copy(tmp_path, "x = " + "[" * 500 + "]" * 500 + "\ny = 1" + "0" * 5000 + "\n")
    async with start_workspace(client_kind, [root]) as h:
        assert h.capabilities is not None
        s = await settings_of(h, root / TASKS)
        assert s["max_ledger_age_days"] == 90
        found = await eventually(lambda: h.diagnostics(CONFIG), lambda ds: bool(ds))
        assert [d.code for d in found] == ["CONFIG_INVALID"]


async def test_ignore_quick_fixes_and_the_hover_of_a_hidden_finding(client_kind: str, tmp_path: Path) -> None:
    root = demo_copy(tmp_path, None)
    async with start_workspace(client_kind, [root]) as h:
        h.open(PLAN)
        diagnostics = await eventually(
            lambda: h.diagnostics(PLAN), lambda ds: any(d.code == "FENCE_UNSEEN_BY_REFERENCE" for d in ds)
        )
        fence = next(d for d in diagnostics if d.code == "FENCE_UNSEEN_BY_REFERENCE")
        actions = await h.request(
            lsp.TEXT_DOCUMENT_CODE_ACTION,
            lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=h.uri(PLAN)),
                range=fence.range,
                context=lsp.CodeActionContext(diagnostics=[fence]),
            ),
        )
        by_title = {a.title: a for a in actions if isinstance(a, lsp.CodeAction)}
        here = by_title["Ignore FENCE_UNSEEN_BY_REFERENCE here…"]
        assert here.edit is not None
        edits = [e for c in here.edit.document_changes or [] for e in getattr(c, "edits", [])] or [
            e for es in (here.edit.changes or {}).values() for e in es
        ]
        (insert,) = edits
        assert insert.range.start == lsp.Position(line=fence.range.start.line, character=0)
        text = getattr(insert, "new_text", None) or insert.snippet.value
        assert text.lstrip(" ").startswith("<!-- gemstack-lsp-ignore FENCE_UNSEEN_BY_REFERENCE ") and text.endswith(
            " -->\n"
        )
        repository = by_title.get("Ignore FENCE_UNSEEN_BY_REFERENCE in this repository")
        if client_kind == "vscode":
            # No configuration yet: the edit creates .gemstack/lsp.toml, then writes the code into it.
            assert repository is not None and repository.edit is not None
            ops = repository.edit.document_changes or []
            assert isinstance(ops[0], lsp.CreateFile) and ops[0].uri == path_to_uri(root / CONFIG)
            assert ops[1].edits[0].new_text == 'ignore = ["FENCE_UNSEEN_BY_REFERENCE"]\n'
        else:
            assert repository is None  # this client cannot create the file through an edit

        # The comment with its reason, as the user finishes it: the finding is hidden, the hover says why.
        comment = "<!-- gemstack-lsp-ignore FENCE_UNSEEN_BY_REFERENCE read by gemstack-lsp only -->\n"
        lines = h.texts[h.uri(PLAN)].split("\n")
        fence_line = lines[fence.range.start.line]
        h.replace(PLAN, fence_line, comment + fence_line)
        await eventually(
            lambda: h.diagnostics(PLAN), lambda ds: not any(d.code == "FENCE_UNSEEN_BY_REFERENCE" for d in ds)
        )
        hover = await h.request(
            lsp.TEXT_DOCUMENT_HOVER,
            lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(uri=h.uri(PLAN)),
                position=h.position(PLAN, "```gemstack-closure-gates", 6),
            ),
        )
        assert hover is not None
        value = hover.contents.value if hasattr(hover.contents, "value") else str(hover.contents)
        assert "**FENCE_UNSEEN_BY_REFERENCE** is not shown here" in value
        assert "read by gemstack-lsp only" in value


async def test_ignore_in_this_repository_edits_the_project_file(client_kind: str, tmp_path: Path) -> None:
    root = demo_copy(tmp_path, '#:schema ./schema.json\nenvironment = "development"\n')
    async with start_workspace(client_kind, [root]) as h:
        h.open(PLAN)
        diagnostics = await eventually(
            lambda: h.diagnostics(PLAN), lambda ds: any(d.code == "BINDINGS_PARSE_ERROR" for d in ds)
        )
        target = next(d for d in diagnostics if d.code == "BINDINGS_PARSE_ERROR")
        actions = await h.request(
            lsp.TEXT_DOCUMENT_CODE_ACTION,
            lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=h.uri(PLAN)),
                range=target.range,
                context=lsp.CodeActionContext(diagnostics=[target]),
            ),
        )
        (action,) = [a for a in actions if a.title == "Ignore BINDINGS_PARSE_ERROR in this repository"]
        edit = action.edit
        uri = path_to_uri(root / CONFIG)
        edits = (edit.changes or {}).get(uri) or [
            e for c in edit.document_changes or [] if getattr(c, "text_document", None) for e in c.edits
        ]
        (insert,) = edits
        assert insert.range.start == lsp.Position(line=1, character=0)  # after the #:schema line
        assert insert.new_text == 'ignore = ["BINDINGS_PARSE_ERROR"]\n'
        # Applied by the client and saved: the finding goes, in the editor as in check.
        old = (root / CONFIG).read_text("utf-8").split("\n")
        (root / CONFIG).write_text("\n".join([old[0], insert.new_text.rstrip("\n"), *old[1:]]), "utf-8")
        watched(h, root / CONFIG)
        await eventually(lambda: h.diagnostics(PLAN), lambda ds: not any(d.code == "BINDINGS_PARSE_ERROR" for d in ds))
        assert not any(d.code == "BINDINGS_PARSE_ERROR" for d in await h.diagnostics(PLAN))


async def test_a_client_without_file_watching_gets_the_new_file_too(
    client_kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import test_multiroot

    def no_watchers(name: str) -> lsp.ClientCapabilities:
        caps = client_capabilities(name)
        if caps.workspace is not None:
            caps.workspace.did_change_watched_files = None
        return caps

    monkeypatch.setattr(test_multiroot, "client_capabilities", no_watchers)
    root = demo_copy(tmp_path, "max-ledger-age-days = 30\n")
    async with start_workspace(client_kind, [root]) as h:
        s = await eventually(lambda: settings_of(h, root / TASKS), lambda s: s["max_ledger_age_days"] == 30)
        assert s["max_ledger_age_days"] == 30
        await h.settle()  # the analysis has read the file: a later change is a change
        (root / CONFIG).write_text("max-ledger-age-days = 45\n", "utf-8")
        # No didChangeWatchedFiles: the server's own disk sweep (every few seconds) finds it.
        s = await eventually(lambda: settings_of(h, root / TASKS), lambda s: s["max_ledger_age_days"] == 45, 600)
        assert s["max_ledger_age_days"] == 45
