"""Evidence provenance v2: read-plan, snapshot, write-plan (the safe plan writer)."""
