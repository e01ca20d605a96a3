"""The one exception type every provenance refusal raises."""

from __future__ import annotations


class ProvenanceError(Exception):
    """A refusal: the message is printed after ``evidence-provenance: `` by the CLI."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
