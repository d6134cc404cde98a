"""JavaLevel: the Java release generated tests must compile at, and which language and JDK features it allows.

A library compiled with `--release 8` (issue "Real Maven builds and the modern Java test stack") rejects
`var`, `List.of`, records and text blocks in its tests. The level travels as a small value from the
module's classpath (`Classpath.release`) to everything that writes Java; None means the JDK's own release,
so nothing is restricted.
"""

from __future__ import annotations

from typing import Literal

from junitbot.records import Record

Feature = Literal[
    "collection_factories", "var", "path_of", "optional_is_empty", "string_is_blank", "switch_expressions",
    "text_blocks", "records", "instanceof_patterns", "stream_to_list",
]
# The release each feature first compiles at, without preview flags.
_SINCE: dict[Feature, int] = {
    "collection_factories": 9,  # List.of, Set.of, Map.of
    "var": 10,
    "path_of": 11,
    "optional_is_empty": 11,
    "string_is_blank": 11,
    "switch_expressions": 14,
    "text_blocks": 15,
    "records": 16,
    "instanceof_patterns": 16,
    "stream_to_list": 16,
}
# What a model is told not to write, in the order a reader meets them, with the feature that allows each.
_WORDS: tuple[tuple[Feature, str], ...] = (
    ("var", "`var`"),
    ("collection_factories", "`List.of`/`Set.of`/`Map.of`"),
    ("path_of", "`Path.of`"),
    ("optional_is_empty", "`Optional.isEmpty`"),
    ("string_is_blank", "`String.isBlank`"),
    ("switch_expressions", "switch expressions"),
    ("text_blocks", "text blocks"),
    ("records", "records"),
    ("instanceof_patterns", "`instanceof` patterns"),
    ("stream_to_list", "`Stream.toList`"),
)


class JavaLevel(Record):
    """The release generated Java compiles at; `release` None is the JDK's own (everything allowed)."""

    release: int | None = None

    def allows(self, feature: Feature) -> bool:
        """Whether code at this level may use `feature`."""
        return self.release is None or self.release >= _SINCE[feature]

    def forbidden(self) -> tuple[str, ...]:
        """What code at this level must not use, in words for a prompt (`var`, `List.of`/..., records)."""
        return tuple(words for feature, words in _WORDS if not self.allows(feature))

    def describe(self) -> str | None:
        """`Java 8: no var, List.of/..., records, text blocks, ...`; None when nothing is restricted."""
        missing = self.forbidden()
        if self.release is None or not missing:
            return None
        return f"Java {self.release}: no {', '.join(missing)}"


MODERN = JavaLevel()
"""No restriction: the JDK's own release (the default where the build says nothing)."""
