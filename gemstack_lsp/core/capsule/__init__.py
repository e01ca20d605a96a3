"""Context capsule (Upgrade D): canonical JSON, extraction, generation, verification."""
