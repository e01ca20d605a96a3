"""A repository with secret-looking values planted in every input position the tool reads.

``plant(root)`` writes them into a copy of the reference repository; ``leaks(text)`` names the
planted secrets that appear in an output (whole or in part: each secret has a distinctive body
that no redacted output can contain). One value per pattern of ``core/capsule/secrets.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

GITHUB = "ghp_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
OPENAI = "sk-LIVEa1b2c3d4e5f6g7h8i9j0k1"
AWS = "AKIAQWERTYUIOPASDFGH"
GOOGLE = "AIzaSyA1234567890abcdefghijklmnopqrs"
BEARER = "Bearer eyJhbGciOiJIUzI1NiJ9.secretpayload"
PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----"

#: The part of each secret that must never appear in any output.
BODIES = {
    "github": "Z9y8X7w6V5u4",
    "openai": "LIVEa1b2c3",
    "aws": "QWERTYUIOPASDFGH",
    "google": "SyA1234567890",
    "bearer": "secretpayload",
    "private key": "OPENSSH PRIVATE KEY",
}

FEATURE = "specs/010-hostile"


def leaks(text: str) -> list[str]:
    """The planted secrets ``text`` quotes (empty when it quotes none)."""
    return [name for name, body in BODIES.items() if body in text]


def _block(kind: str, body: str) -> str:
    return f"```{kind}\n{body}\n```\n"


def _provider(kind: str = "COMMERCIAL") -> dict[str, Any]:
    return {
        "type": kind,
        "pricing_model": "PER_REQUEST",
        "capabilities": {
            OPENAI: {
                "cost_state": "BILLABLE",
                "estimated_unit_cost": 0.002,
                "assumption_source": AWS,
                "freshness_date": "2020-01-01",
                "requires_human_approval": False,
            }
        },
    }


def plant(root: Path) -> None:
    """Plant the secrets into the repository at ``root`` (a copy of the reference repository)."""
    ledger = json.loads((root / "cost-ledger.json").read_text("utf-8"))
    ledger["providers"][GITHUB] = _provider()
    ledger["providers"]["gemini-cloud"]["capabilities"]["inference.generate_text"]["assumption_source"] = GOOGLE
    (root / "cost-ledger.json").write_text(json.dumps(ledger, indent=2), "utf-8")

    feature = root / FEATURE
    feature.mkdir(parents=True)
    contracts = (
        "[\n"
        f'  {{"id": "{GITHUB}", "type": "BOOLEAN_INVARIANT", "value": true, "description": "{BEARER}"}},\n'
        f'  {{"id": "broken", "type": "BOOLEAN_INVARIANT", "value": {GITHUB}}}\n'
        "]"
    )
    matrix = json.dumps(
        [{"id": AWS, "category": PRIVATE_KEY, "layer": "UNIT", "description": OPENAI, "gate": "REQUIRED"}], indent=2
    )
    actions = json.dumps(
        [
            {
                "id": GOOGLE,
                "description": BEARER,
                "category": OPENAI,
                "capability_id": OPENAI,
                "providers": [GITHUB, AWS],
            },
            {
                "id": "search",
                "description": "x",
                "category": "DEFINITELY_BILLABLE",
                "capability_id": OPENAI,
                "providers": [GITHUB, "unknown-" + AWS],
            },
        ],
        indent=2,
    )
    capabilities = json.dumps(
        [{"provider_id": GITHUB, "type": "COMMERCIAL", "capabilities": [OPENAI, GOOGLE]}], indent=2
    )
    spec = (
        f"# Feature: hostile {GITHUB}\n\n"
        f"## {AWS}\n\n"
        + _block("gemstack-contracts", contracts)
        + "\n"
        + _block("gemstack-test-matrix", matrix)
        + "\n"
        + _block("gemstack-capabilities", capabilities)
        + "\n"
        + _block("gemstack-billable-actions", actions)
        + "\n"
        + _block("gemstack-billable-actions ", f'[{{"id": {OPENAI}}}]')
    )
    (feature / "spec.md").write_text(spec, "utf-8")
    plan = (
        f"# Plan {OPENAI}\n\n"
        + _block("gemstack-contracts", f'[{{"id": "{GITHUB}", "type": "BOOLEAN_INVARIANT", "value": false}}]')
        + "\n"
        + _block("gemstack-test-bindings", json.dumps([{"test_id": GOOGLE, "file": BEARER}]))
        + "\n"
        + _block("gemstack-closure-gates", f"{{{AWS}: 1}}")
    )
    (feature / "plan.md").write_text(plan, "utf-8")
    tasks = f"# Tasks\n\n- [ ] **T001: {GITHUB} task {BEARER}**\n  body {PRIVATE_KEY}\n"
    (feature / "tasks.md").write_text(tasks, "utf-8")
    (feature / "cost-ledger.json").write_text(f'{{"version": 1, "providers": {GITHUB}}}', "utf-8")
    (feature / "closure.json").write_text(json.dumps({"status": OPENAI, "gates": {GITHUB: AWS}}), "utf-8")

    providers = [{"provider_id": GITHUB, "type": "MOCK", "capabilities": [OPENAI], "adapter": BEARER}]
    (root / ".gemstack" / "providers.json").write_text(json.dumps({"providers": providers}), "utf-8")
    capsule = {"schema_version": 1, "project_name": GITHUB, "feature": FEATURE, "notes": {AWS: PRIVATE_KEY}}
    (feature / "context-capsule.json").write_text(json.dumps(capsule, indent=2), "utf-8")

    state_path = root / ".gemstack" / "state.json"
    state = json.loads(state_path.read_text("utf-8"))
    state["phase_hashes"]["spec"] = GITHUB
    state["active_spec"] = f"specs/{GITHUB}"
    state["current_phase"] = AWS
    state[OPENAI] = GOOGLE
    state_path.write_text(json.dumps(state, indent=2), "utf-8")
