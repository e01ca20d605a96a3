"""The IDE layer's plain data as LSP values: hovers, symbols, completions, locations, lenses.

Every span of ``gemstack_lsp.ide`` is an offset range into one document's text; these
functions turn them into ranges in the negotiated position encoding (``convert.to_range``).
"""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types as lsp

from gemstack_lsp.core.plaintext import markdown_to_plaintext
from gemstack_lsp.core.redact import looks_secret
from gemstack_lsp.core.text import Encoding, SourceText, Span
from gemstack_lsp.ide import Candidate, HoverInfo, LensInfo, OutlineItem
from gemstack_lsp.server import convert

__all__ = [
    "COMPLETION_KINDS",
    "SYMBOL_KINDS",
    "to_code_lens",
    "to_completion_items",
    "to_document_symbols",
    "to_hover",
    "to_location",
    "to_symbol_information",
]

#: The LSP symbol kind of each outline kind (and of a feature, in workspace symbols).
SYMBOL_KINDS = {
    "heading": lsp.SymbolKind.String,
    "block": lsp.SymbolKind.Array,
    "contract": lsp.SymbolKind.Interface,
    "test": lsp.SymbolKind.Method,
    "binding": lsp.SymbolKind.Field,
    "gate": lsp.SymbolKind.Boolean,
    "action": lsp.SymbolKind.Function,
    "provider": lsp.SymbolKind.Class,
    "capability": lsp.SymbolKind.Property,
    "task": lsp.SymbolKind.Event,
    "key": lsp.SymbolKind.Key,
    "feature": lsp.SymbolKind.Module,
}

#: The LSP completion item kind of each candidate kind.
COMPLETION_KINDS = {
    "block": lsp.CompletionItemKind.Module,
    "key": lsp.CompletionItemKind.Property,
    "value": lsp.CompletionItemKind.EnumMember,
    "id": lsp.CompletionItemKind.Reference,
    "snippet": lsp.CompletionItemKind.Snippet,
    "comment": lsp.CompletionItemKind.Keyword,
}


def to_hover(info: HoverInfo, source: SourceText, encoding: Encoding, markdown: bool) -> lsp.Hover:
    """The hover as Markdown, or as readable plain text for a client that takes no Markdown
    (tables as aligned columns, no emphasis marks)."""
    rng = convert.to_range(source, info.span, encoding) if info.span is not None else None
    if markdown:
        contents = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=info.markdown)
    else:
        contents = lsp.MarkupContent(kind=lsp.MarkupKind.PlainText, value=markdown_to_plaintext(info.markdown))
    return lsp.Hover(contents=contents, range=rng)


def to_document_symbols(
    items: Iterable[OutlineItem], source: SourceText, encoding: Encoding
) -> list[lsp.DocumentSymbol]:
    return [
        lsp.DocumentSymbol(
            name=item.name,
            kind=SYMBOL_KINDS[item.kind],
            range=convert.to_range(source, item.span, encoding),
            selection_range=convert.to_range(source, item.selection, encoding),
            detail=item.detail,
            children=to_document_symbols(item.children, source, encoding),
        )
        for item in items
    ]


def to_symbol_information(
    items: Iterable[OutlineItem], uri: str, source: SourceText, encoding: Encoding, container: str | None = None
) -> list[lsp.SymbolInformation]:
    """An outline flattened, for clients without hierarchical document symbols."""
    out: list[lsp.SymbolInformation] = []
    for item in items:
        out.append(
            lsp.SymbolInformation(
                name=item.name,
                kind=SYMBOL_KINDS[item.kind],
                location=lsp.Location(uri=uri, range=convert.to_range(source, item.span, encoding)),
                container_name=container,
            )
        )
        out.extend(to_symbol_information(item.children, uri, source, encoding, item.name))
    return out


def to_completion_items(
    candidates: Iterable[Candidate], source: SourceText, encoding: Encoding, snippets: bool, markdown: bool = True
) -> list[lsp.CompletionItem]:
    """Completion items in the order given; a snippet is plain text for clients without snippets,
    and the documentation readable plain text for clients without Markdown."""
    items = []
    for n, c in enumerate(candidates):
        use_snippet = c.snippet and snippets
        new_text = c.insert if use_snippet or not c.snippet else (c.plain or c.insert)
        if looks_secret(c.label) or looks_secret(new_text):
            continue  # never offer to type a secret
        items.append(
            lsp.CompletionItem(
                label=c.label,
                kind=COMPLETION_KINDS[c.kind],
                detail=c.detail,
                documentation=_documentation(c.documentation, markdown),
                filter_text=c.filter,
                sort_text=f"{n:04d}",
                insert_text_format=lsp.InsertTextFormat.Snippet if use_snippet else lsp.InsertTextFormat.PlainText,
                text_edit=lsp.TextEdit(range=convert.to_range(source, c.span, encoding), new_text=new_text),
            )
        )
    return items


def _documentation(text: str | None, markdown: bool) -> lsp.MarkupContent | None:
    if not text:
        return None
    if markdown:
        return lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)
    return lsp.MarkupContent(kind=lsp.MarkupKind.PlainText, value=markdown_to_plaintext(text))


def to_location(uri: str, source: SourceText | None, span: Span, encoding: Encoding) -> lsp.Location:
    return lsp.Location(uri=uri, range=convert.to_range(source or SourceText(""), span, encoding))


def to_code_lens(info: LensInfo, source: SourceText, encoding: Encoding) -> lsp.CodeLens:
    command = lsp.Command(
        title=info.title,
        command=info.command or "",
        arguments=list(info.arguments) if info.arguments else None,
    )
    return lsp.CodeLens(range=convert.to_range(source, info.span, encoding), command=command)
