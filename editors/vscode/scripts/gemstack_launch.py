"""Runs gemstack-lsp from the libraries a platform .vsix carries (bundled/libs).

    python -I bundled/tool/gemstack_launch.py serve
    python -I bundled/tool/gemstack_launch.py context generate

The extension starts the server this way, and the `gemstack-lsp` launcher it writes for
terminals does too. ``-I`` keeps the user's PYTHONPATH and site-packages out, so the bundled
libraries are the ones imported. Exit status 3 with one line on stderr when this Python cannot
use them (too old, or no compiled libraries for its version in this build).
"""

# This file must run on any Python 3 far enough to say that the Python is too old: no f-strings
# and no newer syntax (hence the old formatting and the version check ruff calls outdated).
# ruff: noqa: UP031, UP036

import os
import sys
import sysconfig

EXIT_UNSUPPORTED = 3


def _libs() -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def _tag() -> str:
    tag = "cp%d%d" % sys.version_info[:2]
    # A free-threaded build needs wheels of its own ABI (cp313t), which are not bundled.
    return tag + "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else tag


def main() -> int:
    version = "%d.%d" % sys.version_info[:2]
    if sys.version_info < (3, 11):
        sys.stderr.write("gemstack-lsp: Python %s is too old; the server needs Python 3.11 or newer\n" % version)
        return EXIT_UNSUPPORTED
    libs = _libs()
    compiled = os.path.join(libs, _tag())
    common = os.path.join(libs, "common")
    if not os.path.isdir(compiled) or not os.path.isdir(common):
        have = sorted(n for n in os.listdir(libs) if n != "common") if os.path.isdir(libs) else []
        sys.stderr.write(
            "gemstack-lsp: this build carries libraries for %s, not for %s (Python %s)\n"
            % (", ".join(have) or "no Python", _tag(), version)
        )
        return EXIT_UNSUPPORTED
    sys.path[0:0] = [compiled, common]
    sys.argv[0] = "gemstack-lsp"
    from gemstack_lsp.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
