"""Java literals for recorded values, read back by the real JDK."""

from __future__ import annotations

import subprocess
from pathlib import Path

from junitbot.generation.literals import java_char, java_string

_CHARS = ("a", "\x00", "\u00e9", "\n", "\r", "\t", "'", "\\", '"', "~", "\u2028", "\u007f")


def test_char_literals_are_the_characters_javac_reads_and_no_string_is_indexed(tmp_path: Path) -> None:
    # RefinedSoundex's `getMappingCode('é')` returns '\0': it was asserted as `"\u0000".charAt(0)`.
    assert java_char("\x00") == "'\\u0000'" and java_char("a") == "'a'"
    lines = "\n".join(f"        System.out.println((int) {java_char(c)});" for c in _CHARS)
    source = tmp_path / "Chars.java"
    source.write_text(f"class Chars {{\n    public static void main(String[] args) {{\n{lines}\n"
                      f"        System.out.println({java_string('é' + chr(10))}.length());\n    }}\n}}\n",
                      encoding="ascii")
    shown = subprocess.run(["java", str(source)], capture_output=True, text=True, check=True, timeout=120).stdout
    assert shown.split() == [*(str(ord(c)) for c in _CHARS), "2"]
