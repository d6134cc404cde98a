"""JaCoCo's exec format read in Python: a fixture the JaCoCo 0.8.15 agent wrote (two appended sessions), a live
agent run checked against JaCoCo's own `execinfo`, and malformed data refused with a message saying what is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.measure.execdata import read_exec, read_exec_file
from junitbot.validation.measure.jacoco import agent_option
from junitbot.validation.process import run_process
from junitbot.validation.run.launcher import run_junit
from junitbot.validation.run.models import JvmLaunch, RunConditions
from junitbot.validation.run.sandbox import detect_isolation
from tests.validation.run.test_launcher import TEST_JARS, compile_java

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "jacoco"
FIXTURE = FIXTURES / "bucket.exec"


def _signed(hex_id: str) -> int:
    """A class id as JaCoCo prints it (unsigned hex) as the Java long the format stores."""
    value = int(hex_id, 16)
    return value - (1 << 64) if value >= 1 << 63 else value


def test_the_fixture_reads_as_jacoco_reads_it() -> None:
    # JaCoCo's ExecFileLoader on the same file (tests/fixtures/jacoco/README.md): the two sessions merged.
    assert read_exec_file(FIXTURE) == {
        ("com/acme/fixture/Bucket", _signed("b4ca51bdf6dbdc8c")): frozenset({4, 9}),
        ("com/acme/fixture/Bucket$Label", _signed("fe30a3b11ea76bf5")): frozenset({1}),
        ("com/acme/fixture/BucketTest", _signed("8e3916333c3bda37")): frozenset({0, 1, 2}),
    }


def test_one_session_of_the_fixture_holds_only_its_own_test() -> None:
    data = FIXTURE.read_bytes()
    first_session = data[: data.index(b"\x01\xc0\xc0\x10\x07", 1)]
    assert read_exec(first_session) == {
        ("com/acme/fixture/Bucket", _signed("b4ca51bdf6dbdc8c")): frozenset({4}),
        ("com/acme/fixture/BucketTest", _signed("8e3916333c3bda37")): frozenset({0, 1}),
    }


def test_a_live_agent_run_reads_as_jacocos_execinfo_says(fetched: Path, tmp_path: Path) -> None:
    sources = {f"com/acme/fixture/{name}": (FIXTURES / name).read_text() for name in ("Bucket.java", "BucketTest.java")}
    classes = compile_java(sources, tmp_path / "classes")
    exec_file = tmp_path / "work" / "jacoco.exec"
    settings = ValidationSettings()
    option = agent_option(exec_file=exec_file, includes=["com.acme.fixture.*"], cache_dir=tmp_path / "cache",
                          settings=settings, tools_dir=fetched)
    result = run_junit(test_classes=["com.acme.fixture.BucketTest"], classpath=[str(classes), *TEST_JARS],
                       workdir=tmp_path / "work", conditions=RunConditions(),
                       launch=JvmLaunch(settings=settings, isolation=detect_isolation(), agent=option,
                                        tools_dir=fetched))
    assert {c.status for c in result.cases} == {"passed"}, result.output_tail

    probes = read_exec_file(exec_file)
    # What ran, by the source: Bucket's "small" and "immense" returns, Label.of, the test's constructor and methods.
    assert {name: hits for (name, _), hits in probes.items()} == {
        "com/acme/fixture/Bucket": frozenset({4, 9}),
        "com/acme/fixture/Bucket$Label": frozenset({1}),
        "com/acme/fixture/BucketTest": frozenset({0, 1, 2}),
    }
    cli = fetched / "jacoco-cli-0.8.15" / "org.jacoco.cli-0.8.15-nodeps.jar"
    info = run_process(["java", "-jar", str(cli), "execinfo", str(exec_file)], cwd=tmp_path, timeout_s=60,
                       max_output_bytes=100_000)
    assert info.ok, info.stderr
    # execinfo: "<id hex>  <hits> of <probes>  <class name>" per class.
    rows = re.findall(r"^([0-9a-f]{16})\s+(\d+) of\s+\d+\s+(\S+)$", info.stdout, re.MULTILINE)
    assert sorted((name, _signed(hex_id), int(hits)) for hex_id, hits, name in rows) == sorted(
        (name, class_id, len(hits)) for (name, class_id), hits in probes.items())


def _block(tag: int, payload: bytes) -> bytes:
    return bytes([tag]) + payload


HEADER = _block(0x01, b"\xc0\xc0\x10\x07")
SESSION = _block(0x10, b"\x00\x02id" + bytes(16))


def _class_block(name: bytes, probes: bytes) -> bytes:
    return _block(0x11, (7).to_bytes(8, "big") + len(name).to_bytes(2, "big") + name + probes)


@pytest.mark.parametrize(("data", "message"), [
    (b"", "empty JaCoCo exec data"),
    (b"PK\x03\x04", "starts with 0x50, not a header block"),
    (_block(0x01, b"\xca\xfe\x10\x07"), "magic number 0xcafe"),
    (_block(0x01, b"\xc0\xc0\x10\x06"), "version 0x1006 is not supported"),
    (HEADER + SESSION + b"\x42", "unknown JaCoCo exec block type 0x42 at byte 26"),
    (HEADER + SESSION + _class_block(b"a/B", b"\x0a\x01"), "ends inside a block"),  # 10 probes need 2 bytes
    (HEADER + _class_block(b"a/B", b"\x80\x80\x80\x80\x80\x01"), "malformed length"),
    (HEADER + _class_block(b"a/B", b"\x02\x01") + _class_block(b"a/B", b"\x03\x01"),
     "class a/B .* has 2 probes in one block and 3 in another"),
])
def test_malformed_data_is_refused_with_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(JunitbotError, match=message):
        read_exec(data)


def test_a_truncated_real_file_is_refused_wherever_it_was_cut() -> None:
    data = FIXTURE.read_bytes()
    block_ends = {len(data)}
    for cut in range(1, len(data)):
        try:
            read_exec(data[:cut])
        except JunitbotError as e:
            assert "ends inside a block" in str(e), (cut, e)
        else:
            block_ends.add(cut)
    # Only the ends of whole blocks read: 2 headers, 2 sessions, 5 class blocks.
    assert len(block_ends) == 9


def test_an_unreadable_file_names_itself(tmp_path: Path) -> None:
    with pytest.raises(JunitbotError, match=r"cannot read JaCoCo exec file .*none\.exec"):
        read_exec_file(tmp_path / "none.exec")
    (tmp_path / "text.exec").write_text("not exec data")
    with pytest.raises(JunitbotError, match=r"text.exec: not JaCoCo exec data"):
        read_exec_file(tmp_path / "text.exec")


def test_modified_utf8_names_decode_as_java_writes_them() -> None:
    # Java's writeUTF: NUL as C0 80, a character beyond the BMP as two 3-byte surrogates.
    name = "a/\u00e9\U0001f600\x00"
    encoded = b"a/\xc3\xa9\xed\xa0\xbd\xed\xb8\x80\xc0\x80"
    assert read_exec(HEADER + _class_block(encoded, b"\x01\x01")) == {(name, 7): frozenset({0})}
