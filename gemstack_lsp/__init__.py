"""gemstack-lsp: language server and CLI for Gemstack spec-driven repositories."""

__version__ = "0.1.0"
