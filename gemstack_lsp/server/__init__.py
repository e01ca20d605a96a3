"""The language server: the only package that knows LSP."""
