"""Any swarm.json or visual-qa.json gives findings, never an internal error.

The checks read the manifests with JavaScript's loose typing (truthiness, ``String(value)``,
``Number(value)``) and report where upstream's verify would throw; a value of any JSON type in
any place must still end in findings. The English and Spanish message tables stay in step.
"""

from __future__ import annotations

import json
import string
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gemstack_lsp.core import swarm, upgrade_e, visual_qa
from tests.core.upstream_e_data import files, findings, swarm_manifest, vqa_manifest

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=string.printable + "\u00e9\ufeff\u2028 ", max_size=12),
)
JSON_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return copy


def _no_internal_error(repo_files: dict[str, str | bytes]) -> None:
    found = findings(repo_files, prefix=("SWARM_", "VQA_", "GEMSTACK_INTERNAL_ERROR"))
    assert not [f for f in found if f.code == "GEMSTACK_INTERNAL_ERROR"], [f.message for f in found]
    for f in found:
        assert f.message and f.path in ("specs/a/swarm.json", "specs/a/visual-qa.json")


@given(st.data(), JSON_VALUES)
def test_any_value_anywhere_in_a_swarm_manifest(data: st.DataObject, value: Any) -> None:
    manifest = swarm_manifest(source_capsule_hash="0" * 64)
    path = data.draw(st.sampled_from(_paths(manifest)))
    extra = {"specs/a/context-capsule.json": "{}\n"}
    _no_internal_error(files(json.dumps(_replaced(manifest, path, value)), extra=extra))


@given(st.data(), JSON_VALUES)
def test_any_value_anywhere_in_a_visual_manifest(data: st.DataObject, value: Any) -> None:
    manifest = vqa_manifest()
    path = data.draw(st.sampled_from(_paths(manifest)))
    _no_internal_error(files(vqa=json.dumps(_replaced(manifest, path, value))))


def test_numbers_beyond_a_double_are_read_as_javascript_reads_them() -> None:
    huge = "1" + "0" * 400
    tasks = f'[{{"task_id": "T001", "worker_id": {huge}, "assigned_role": "implementer"}}]'
    manifest = f'{{"feature_id": "a", "max_workers": {huge}, "waves": [{{"wave_index": {huge}, "tasks": {tasks}}}]}}'
    found = findings(files(manifest))
    assert [f.code for f in found] == ["SWARM_ASSIGNMENT_INVALID"]


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_message_has_a_spanish_template_with_the_same_placeholders() -> None:
    for module in (swarm, visual_qa):
        assert module.ENGLISH.keys() == module.SPANISH.keys()
        for code, english in module.ENGLISH.items():
            spanish = module.SPANISH[code]
            assert len(english) == len(spanish), code
            for en, es in zip(english, spanish, strict=True):
                assert _placeholders(en) == _placeholders(es), (code, en)
    registered = list(upgrade_e.templates())
    assert len(registered) == sum(len(t) for m in (swarm, visual_qa) for t in m.ENGLISH.values())
    assert all(en != es for _, en, es in registered)
