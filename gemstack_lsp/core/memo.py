"""How many parsed documents the core keeps between analyses.

Every parser memoises its result by the document's text, so an analysis after a keystroke
re-parses only the document that changed. The caches must hold every document of a large
repository for that to hold: 500 features are 1,500 Markdown documents plus their JSON files.
"""

#: Entries kept by each per-document parse cache (parsers key them by path and text).
DOCUMENT_CACHE_SIZE = 4096
