"""JaCoCo's exec format read in Python: which probes of which class ran, without starting a JVM.

The format, as JaCoCo's ExecutionDataWriter and CompactDataOutput write it (version 0x1007, JaCoCo 0.7.5 and
later), is a sequence of blocks, each a one-byte tag and its fields:

- 0x01 header: char magic 0xC0C0, char format version 0x1007; it comes first, and again wherever dumps were
  appended to one file;
- 0x10 session info: UTF id, long start and dump timestamps;
- 0x11 execution data: long class id (a CRC64 of the class file), UTF class name (binary, `com/acme/Foo$1`),
  the probes as a boolean array.

Numbers are big-endian; a UTF is Java's modified UTF-8 behind an unsigned 2-byte length; a boolean array is
its length as a var-int (7 bits a byte, low bits first, 0x80 set while more follow), then the values packed
8 a byte, the first in the lowest bit. The writer leaves out classes none of whose probes ran.
"""

from __future__ import annotations

from pathlib import Path

from junitbot.errors import JunitbotError

ClassKey = tuple[str, int]
"""(binary class name with '/', JaCoCo's class id): another build of a class is another class, its probes too."""

_HEADER, _SESSION_INFO, _EXECUTION_DATA = 0x01, 0x10, 0x11
_MAGIC, _VERSION = 0xC0C0, 0x1007


def read_exec_file(path: Path) -> dict[ClassKey, frozenset[int]]:
    """The probes that ran per class in the exec file at `path` (see `read_exec`)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise JunitbotError(f"cannot read JaCoCo exec file {path}: {e}") from e
    try:
        return read_exec(data)
    except JunitbotError as e:
        raise JunitbotError(f"{path}: {e}") from e


def read_exec(data: bytes) -> dict[ClassKey, frozenset[int]]:
    """The indexes of the probes that ran, per class, in exec data; blocks of one class are merged.

    Raises JunitbotError on anything but JaCoCo's exec format 0x1007: no header first, another version, an
    unknown block, data that ends inside a block, one class with two probe counts.
    """
    if not data:
        raise JunitbotError("empty JaCoCo exec data: not even a header")
    reader = _Reader(data)
    probes: dict[ClassKey, frozenset[int]] = {}
    lengths: dict[ClassKey, int] = {}
    while not reader.done:
        tag = reader.byte()
        if reader.offset == 1 and tag != _HEADER:
            raise JunitbotError(f"not JaCoCo exec data: it starts with 0x{tag:02x}, not a header block (0x01)")
        if tag == _HEADER:
            magic, version = reader.unsigned(2), reader.unsigned(2)
            if magic != _MAGIC:
                raise JunitbotError(f"not JaCoCo exec data: magic number 0x{magic:04x}, not 0xc0c0")
            if version != _VERSION:
                raise JunitbotError(f"JaCoCo exec format version 0x{version:04x} is not supported "
                                    "(JaCoCo 0.7.5 and later write 0x1007)")
        elif tag == _SESSION_INFO:
            reader.utf()
            reader.skip(16)
        elif tag == _EXECUTION_DATA:
            class_id = reader.signed(8)
            name = reader.utf()
            length, hits = reader.probes()
            if lengths.setdefault((name, class_id), length) != length:
                raise JunitbotError(f"class {name} (id {class_id:#x}) has {lengths[(name, class_id)]} probes in one "
                                    f"block and {length} in another")
            probes[(name, class_id)] = probes.get((name, class_id), frozenset()) | hits
        else:
            raise JunitbotError(f"unknown JaCoCo exec block type 0x{tag:02x} at byte {reader.offset - 1}")
    return probes


class _Reader:
    """A cursor over exec data that says where it ran out."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offset = 0

    @property
    def done(self) -> bool:
        return self.offset >= len(self.data)

    def take(self, count: int) -> bytes:
        end = self.offset + count
        if end > len(self.data):
            raise JunitbotError(f"JaCoCo exec data ends inside a block: {count} bytes wanted at byte {self.offset}, "
                                f"{len(self.data) - self.offset} left (a truncated file?)")
        chunk = self.data[self.offset : end]
        self.offset = end
        return chunk

    def skip(self, count: int) -> None:
        self.take(count)

    def byte(self) -> int:
        return self.take(1)[0]

    def unsigned(self, size: int) -> int:
        return int.from_bytes(self.take(size), "big")

    def signed(self, size: int) -> int:
        return int.from_bytes(self.take(size), "big", signed=True)

    def utf(self) -> str:
        raw = self.take(self.unsigned(2))
        try:
            # Modified UTF-8: NUL as C0 80, characters beyond the BMP as two 3-byte surrogates (CESU-8).
            text = raw.replace(b"\xc0\x80", b"\x00").decode("utf-8", "surrogatepass")
            return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeError as e:
            raise JunitbotError(f"JaCoCo exec data holds a malformed string before byte {self.offset}: {e}") from e

    def var_int(self) -> int:
        value, shift = 0, 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 28:
                raise JunitbotError(f"JaCoCo exec data holds a malformed length before byte {self.offset}")

    def probes(self) -> tuple[int, frozenset[int]]:
        """(probe count, indexes of the probes set) of a boolean array."""
        length = self.var_int()
        bits = int.from_bytes(self.take((length + 7) // 8), "little") & ((1 << length) - 1)
        hits = []
        while bits:
            lowest = bits & -bits
            hits.append(lowest.bit_length() - 1)
            bits ^= lowest
        return length, frozenset(hits)
