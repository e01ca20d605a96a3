import pytest

# The shared checks of the authoring tests report their failures as test modules' asserts do.
pytest.register_assert_rewrite("tests.editors.authoring_common")
