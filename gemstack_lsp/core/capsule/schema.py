"""The context capsule's JSON Schema (v1), as data.

``gemstack_lsp/schemas/context-capsule-v1.schema.json`` is this same document written out for
editors and other tools (a test keeps the two identical). It accepts what the reference CLI
writes (hard-coded fields, ``value: true`` on ENUM_SET contracts, plain string deferred items)
and what this generator writes; it requires what verification needs to prove freshness.
"""

from __future__ import annotations

from typing import Any

_STR_ARRAY: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
_HEX64: dict[str, Any] = {"type": "string", "pattern": "^[0-9a-f]{64}$"}

CAPSULE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://gemstack.dev/schemas/context-capsule-v1.json",
    "title": "Gemstack context capsule v1",
    "description": "Derived continuation context for one feature. Never an authority: the sources win.",
    "type": "object",
    "required": ["schema_version", "provenance"],
    "properties": {
        "$schema": {"type": "string"},
        "schema_version": {"const": 1},
        "generated_at": {"type": "string"},
        "generator": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "version": {"type": "string"}},
        },
        "provenance": {
            "type": "object",
            "required": ["source_set_hash", "sources"],
            "properties": {
                "source_set_hash": _HEX64,
                "sources": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["path", "hash", "role"],
                        "properties": {
                            "path": {"type": "string", "minLength": 1},
                            "hash": _HEX64,
                            "role": {"type": "string"},
                        },
                    },
                },
            },
        },
        "project": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "active_feature": {"type": "string"},
                "current_phase": {"type": "string"},
                "lifecycle_status": {"type": "string"},
                "next_permitted_phase": {"type": ["string", "null"]},
            },
        },
        "historical_context": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["feature", "status"],
                "properties": {
                    "feature": {"type": "string"},
                    "status": {"type": "string"},
                    "title": {"type": "string"},
                    "key_guarantees": _STR_ARRAY,
                    "tasks": {"type": "string"},
                    "acceptance": {"type": "string"},
                    "spec_hash": _HEX64,
                },
            },
        },
        "architecture_summary": {
            "type": "object",
            "properties": {"core_purpose": {"type": "string"}, "critical_boundaries": _STR_ARRAY},
        },
        "canonical_invariants": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "rule", "normative"],
                "properties": {
                    "id": {"type": "string"},
                    "rule": {"type": "string"},
                    "normative": {"enum": ["MUST", "MUST_NOT"]},
                    "source_ref": {"type": "string"},
                },
            },
        },
        "frozen_contracts": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "type"],
                "properties": {
                    "id": {"type": "string"},
                    "type": {"type": "string"},
                    "values": {"type": "array"},
                    "entity": {"type": "string"},
                },
            },
        },
        "acceptance_matrix": {
            "type": "object",
            "properties": {
                "total_required": {"type": "integer", "minimum": 0},
                "signature": {"anyOf": [_HEX64, {"type": "null"}]},
                "canonical_ids": _STR_ARRAY,
            },
        },
        "tasks_state": {
            "type": "object",
            "properties": {
                "total": {"type": "integer", "minimum": 0},
                "completed": {"type": "integer", "minimum": 0},
                "in_progress": {"type": ["string", "null"]},
                "active_task_ids": _STR_ARRAY,
                "completed_task_ids": _STR_ARRAY,
            },
        },
        "relevant_files": _STR_ARRAY,
        "deferred_items": {"type": "array", "items": {"type": ["string", "object"]}},
        "unresolved_blockers": {"type": "array"},
    },
}
