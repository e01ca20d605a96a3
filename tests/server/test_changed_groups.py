"""Which files' findings changed between two analyses: by identity, as the server publishes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gemstack_lsp.core.findings import Finding
from gemstack_lsp.core.text import Span
from gemstack_lsp.server.diagnostics import changed_groups

PATHS = [f"specs/{i:03d}-f/spec.md" for i in range(6)]


def _group(path: str, n: int) -> tuple[Finding, ...]:
    return tuple(Finding("CONTRACT_PARSE_ERROR", f"m{k}", path, Span(k, k + 1)) for k in range(n))


def _by_path(new: dict[str, tuple[Finding, ...]], old: dict[str, tuple[Finding, ...]]) -> set[str]:
    return {p for p in set(new) | set(old) if new.get(p, ()) is not old.get(p, ())}


@given(
    st.dictionaries(st.sampled_from(PATHS), st.integers(0, 2)),
    st.dictionaries(st.sampled_from(PATHS), st.sampled_from(["same", "equal", "gone"])),
    st.booleans(),
)
def test_changed_groups_are_the_paths_whose_tuple_is_another(
    old_sizes: dict[str, int], fate: dict[str, str], share: bool
) -> None:
    old = {p: _group(p, n) for p, n in old_sizes.items()}
    new: dict[str, tuple[Finding, ...]] = {}
    for p, group in old.items():
        what = fate.get(p, "same")
        if what == "same":
            new[p] = group  # unchanged: the very same tuple
        elif what == "equal":
            # Made again: an equal tuple but another object (the empty one is the one empty tuple).
            new[p] = _group(p, len(group))
    for p in PATHS:
        if p not in old and fate.get(p) == "equal":
            new[p] = _group(p, 1)  # a file that gained findings
    if share and len(new) >= 2:
        # One tuple standing for two paths (empty groups, say): still answered exactly.
        first, second = sorted(new)[:2]
        new[second] = new[first]
    assert changed_groups(new, old) == _by_path(new, old)


def test_a_settled_workspace_has_no_changed_group() -> None:
    groups = {p: _group(p, 2) for p in PATHS}
    assert changed_groups(groups, dict(groups)) == set()
    edited = dict(groups)
    edited[PATHS[3]] = _group(PATHS[3], 2)
    del edited[PATHS[4]]
    assert changed_groups(edited, groups) == {PATHS[3], PATHS[4]}
