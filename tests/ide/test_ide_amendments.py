"""amendments.json in the editor: hover on a key shows its schema, completion offers its keys,
and the amendment findings explain themselves from the catalogue."""

from __future__ import annotations

import json

from ide_repository import offset, snapshot

from gemstack_lsp import ide

PATH = "specs/009-context-capsule/amendments.json"
TEXT = json.dumps([{"amendment_id": "AMD-1", "contract_id": "c", "signature": "x"}], indent=2) + "\n"


def test_hover_on_an_amendment_key_shows_the_schema() -> None:
    snap = snapshot({PATH: TEXT})
    info = ide.hover(snap, PATH, offset(snap, PATH, '"signature"', 2), ide.HoverOptions())
    assert info is not None and any("HMAC-SHA256" in s for s in info.sections)


def test_hover_explains_an_amendment_finding() -> None:
    snap = snapshot({PATH: TEXT})
    info = ide.hover(snap, PATH, offset(snap, PATH, '"AMD-1"', 2), ide.HoverOptions(), codes=["AMENDMENT_REJECTED"])
    assert info is not None and info.sections[-1].startswith("**AMENDMENT_REJECTED**")


def test_completion_offers_the_missing_amendment_keys() -> None:
    text = '[{"amendment_id": "AMD-1", ""}]\n'
    snap = snapshot({PATH: text})
    labels = {c.label for c in ide.complete(snap, PATH, offset(snap, PATH, '""', 1))}
    assert {"contract_id", "version", "reason", "approved_by", "signature"} <= labels
