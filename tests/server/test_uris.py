"""``gemstack_lsp.uris``: the one URI <-> path module, held to ``pygls.uris`` on ordinary URIs."""

from __future__ import annotations

import os

import pytest
from pygls import uris as pygls_uris

from gemstack_lsp.uris import path_to_uri, quote_path, uri_to_path


@pytest.mark.parametrize(
    ("uri", "posix", "windows"),
    [
        ("file:///C:/x", "c:/x", "c:\\x"),
        ("file:///c%3A/x", "c:/x", "c:\\x"),
        ("file:///C%3a/Users/me/spec.md", "c:/Users/me/spec.md", "c:\\Users\\me\\spec.md"),
        ("file:///d:/with%20space/%C3%A9t%C3%A9.md", "d:/with space/été.md", "d:\\with space\\été.md"),
        ("file://server/share/x.md", "//server/share/x.md", "\\\\server\\share\\x.md"),
        ("file:///home/me/a%20b/spec.md", "/home/me/a b/spec.md", "\\home\\me\\a b\\spec.md"),
        ("file:///tmp/%E6%97%A5%E6%9C%AC/x.md", "/tmp/日本/x.md", "\\tmp\\日本\\x.md"),
    ],
)
def test_uri_to_path_reads_drive_letters_shares_and_escapes(uri: str, posix: str, windows: str) -> None:
    assert uri_to_path(uri, windows=False) == posix
    assert uri_to_path(uri, windows=True) == windows


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("C:\\Users\\me\\spec.md", "file:///c:/Users/me/spec.md"),
        ("c:/x y/été.md", "file:///c:/x%20y/%C3%A9t%C3%A9.md"),
        ("\\\\server\\share\\x.md", "file://server/share/x.md"),
    ],
)
def test_path_to_uri_writes_windows_paths(path: str, uri: str) -> None:
    assert path_to_uri(path, windows=True) == uri
    assert uri_to_path(uri, windows=True) == path.replace("/", "\\").replace("C:", "c:")


@pytest.mark.parametrize("path", ["/home/me/a b/spec.md", "/tmp/été/日本.md", "/w/a:b@c/x+y.md", "/x/100%.md"])
def test_posix_paths_round_trip(path: str) -> None:
    assert uri_to_path(path_to_uri(path, windows=False), windows=False) == path


def test_spaces_and_unicode_are_escaped_as_utf8() -> None:
    path = "/tmp/a dir/ünï/spec.md"
    uri = path_to_uri(path, windows=False)
    assert uri == "file:///tmp/a%20dir/%C3%BCn%C3%AF/spec.md"
    assert uri_to_path(uri, windows=False) == path


def test_bytes_that_are_not_utf8_keep_their_name() -> None:
    name = os.fsdecode(b"/tmp/caf\xe9.md")
    uri = path_to_uri(name, windows=False)
    assert uri == "file:///tmp/caf%E9.md"
    assert uri_to_path(uri, windows=False) == name


def test_what_has_no_path() -> None:
    assert uri_to_path("untitled:Untitled-1") is None
    assert uri_to_path("https://example.com/x") is None
    assert uri_to_path("file:///tmp/a%00b") is None
    assert uri_to_path("file://localhost/tmp/x.md", windows=False) == "/tmp/x.md"


def test_a_relative_reference_escapes_what_would_read_as_a_scheme() -> None:
    assert quote_path("a:b/c d.md") == "a%3Ab/c%20d.md"


ORDINARY = [
    "file:///C:/x",
    "file:///c%3A/Users/me/spec.md",
    "file:///d:/with%20space/%C3%A9t%C3%A9.md",
    "file://server/share/x.md",
    "file:///home/me/a%20b/spec.md",
    "file:///tmp/%E6%97%A5%E6%9C%AC/x.md",
    "untitled:Untitled-1",
]


@pytest.mark.parametrize("windows", [False, True])
def test_agrees_with_pygls_on_ordinary_uris(monkeypatch: pytest.MonkeyPatch, windows: bool) -> None:
    monkeypatch.setattr(pygls_uris, "IS_WIN", windows)
    for uri in ORDINARY:
        assert uri_to_path(uri, windows=windows) == pygls_uris.to_fs_path(uri), uri
        path = pygls_uris.to_fs_path(uri)
        if path is not None:
            # The URIs may escape differently (pygls escapes ":" and "@" too); the paths agree.
            assert pygls_uris.to_fs_path(path_to_uri(path, windows=windows)) == path
            assert uri_to_path(pygls_uris.from_fs_path(path), windows=windows) == path
