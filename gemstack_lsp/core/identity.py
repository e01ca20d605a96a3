"""What makes a repository a Gemstack repository, decided in one place.

A repository is a Gemstack repository when it has a ``.gemstack/`` folder, or when one of its
features (``specs/<feature>/``) holds a Gemstack artifact: a Gemstack fenced block
(```` ```gemstack-contracts ```` and the other kinds) or Gemstack task metadata
(``<!-- gemstack:tests=... -->``) in its spec.md, plan.md or tasks.md, or a context capsule
or closure.json. A cost-ledger.json alone does not count: the name is common outside
Gemstack.

A spec-kit repository (``specs/001-x/spec.md``, no ``.gemstack/``, no Gemstack block) is not
one: it gets no information finding, no capsule lens and no capsule state, and
``gemstack-lsp check`` reports nothing for it.
"""

from __future__ import annotations

import re

from gemstack_lsp.core.markdown import scan_fences
from gemstack_lsp.core.memo import per_text
from gemstack_lsp.core.repo import Feature, GemstackRepo

__all__ = [
    "GEMSTACK_DIR",
    "IS_GEMSTACK",
    "feature_is_gemstack",
    "has_gemstack_folder",
    "has_gemstack_markup",
    "is_gemstack_repository",
]

GEMSTACK_DIR = ".gemstack"

#: The key under which a snapshot memoises the answer (``Snapshot.derived``).
IS_GEMSTACK = ("core.identity.is-gemstack",)

_METADATA = re.compile(r"<!--[ \t]*gemstack:[a-z_]+=")


@per_text
def has_gemstack_markup(text: str) -> bool:
    """True when a Markdown text holds a Gemstack fenced block or Gemstack task metadata."""
    if "gemstack" not in text:
        return False
    if _METADATA.search(text):
        return True
    return any(f.kind is not None for f in scan_fences(text))


def is_gemstack_repository(repo: GemstackRepo) -> bool:
    """Whether ``repo`` is a Gemstack repository (see the module docstring)."""
    return has_gemstack_folder(repo) or any(feature_is_gemstack(repo, f) for f in repo.features())


def has_gemstack_folder(repo: GemstackRepo) -> bool:
    """Whether the repository has ``.gemstack/`` (which alone makes it a Gemstack repository)."""
    return repo.reader.list_dir(GEMSTACK_DIR) is not None


def feature_is_gemstack(repo: GemstackRepo, feature: Feature) -> bool:
    """Whether this feature holds a Gemstack artifact (which makes its repository one): what a
    feature's own analysis can tell from its own files. A repository is a Gemstack repository
    when ``has_gemstack_folder`` or any feature's ``feature_is_gemstack`` says so; the units of
    an analysis each report their part and ``rules.combine`` decides (so that no feature's
    analysis reads every other feature's files)."""
    for path in (feature.capsule, feature.closure):
        if repo.exists(path):
            return True
    for path in (feature.spec, feature.plan, feature.tasks):
        text = repo.document(path).text
        if text is not None and has_gemstack_markup(text):
            return True
    return False
