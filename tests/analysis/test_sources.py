"""Which files count as sources, and how unsafe or odd files are read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from junitbot.analysis.sources import (
    SkippedFile,
    blob_sha,
    is_build_output,
    is_test_path,
    matches_any,
    read_source,
    source_root_of,
    walk_java_files,
)


@pytest.mark.parametrize(("path", "globs", "expected"), [
    ("src/main/java/com/acme/domain/Order.java", ["src/main/java/com/acme/domain/**"], True),
    ("src/main/java/com/acme/domain/sub/Order.java", ["src/main/java/com/acme/domain/**"], True),
    ("src/main/java/com/acme/app/Order.java", ["src/main/java/com/acme/domain/**"], False),
    ("mod/src/main/java/a/Gen.java", ["**/Gen.java"], True),
    ("Gen.java", ["**/Gen.java"], True),
    ("legacy/a/B.java", ["legacy/"], True),
    ("legacy/a/B.java", ["legacy"], True),
    ("src/a/B.java", ["src/*.java"], False),
    ("src/a/B.java", ["src/?/B.java"], True),
])
def test_globs(path: str, globs: list[str], expected: bool) -> None:
    assert matches_any(path, globs) is expected


@pytest.mark.parametrize(("path", "expected"), [
    ("target/generated-sources/A.java", True),
    ("module/build/tmp/A.java", True),
    ("module/.gradle/A.java", True),
    ("src/main/java/com/acme/build/A.java", False),  # a package named build is source
    ("src/main/java/com/acme/target/A.java", False),
    ("A.java", False),
])
def test_build_output(path: str, expected: bool) -> None:
    assert is_build_output(path) is expected


def test_test_paths() -> None:
    assert is_test_path("src/test/java/a/ATest.java")
    assert is_test_path("mod/src/test/java/a/ATest.java")
    assert is_test_path("test/a/ATest.java")
    assert not is_test_path("src/main/java/a/test/Helper.java")
    assert not is_test_path("src/main/java/a/A.java")


def test_source_root_of() -> None:
    assert source_root_of("mod/src/main/java/com/acme/A.java", "com.acme") == "mod/src/main/java"
    assert source_root_of("A.java", "") == ""
    assert source_root_of("weird/place/A.java", "com.acme") == "weird/place"


def test_read_source_refuses_links_binaries_and_huge_files(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    outside = tmp_path / "Secret.java"
    outside.write_text("class Secret {}")
    (root / "Link.java").symlink_to(outside)
    (root / "Bin.java").write_bytes(b"class A {}\0\0\0")
    (root / "Huge.java").write_text("// x\n" * 1000)
    with pytest.raises(SkippedFile, match="leaves the repository"):
        read_source(root, "Link.java", max_bytes=10_000)
    with pytest.raises(SkippedFile, match="binary"):
        read_source(root, "Bin.java", max_bytes=10_000)
    with pytest.raises(SkippedFile, match="max_file_bytes"):
        read_source(root, "Huge.java", max_bytes=100)


def test_latin1_source_is_read_with_a_warning(tmp_path: Path) -> None:
    data = "class Caf\u00e9 { String s = \"d\u00e9j\u00e0\"; }".encode("latin-1")
    (tmp_path / "Cafe.java").write_bytes(data)
    text = read_source(tmp_path, "Cafe.java", max_bytes=10_000)
    assert text.warning is not None and "UTF-8" in text.warning
    assert text.data.decode("utf-8") == data.decode("latin-1")
    assert text.blob_sha == blob_sha(data)  # identity is the bytes on disk


def test_blob_sha_matches_git() -> None:
    assert blob_sha(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"


def test_walk_skips_build_output_and_symlinked_folders(tmp_path: Path) -> None:
    for rel in ("src/main/java/a/A.java", "target/classes/a/B.java", "src/main/java/a/notes.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("class X {}")
    os.symlink(tmp_path / "src", tmp_path / "linked")
    assert walk_java_files(tmp_path, ignore=()) == ["src/main/java/a/A.java"]
