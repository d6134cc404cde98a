"""junitbot: keeps Java code bases covered by JUnit 5 + Mockito unit tests, automatically."""

from __future__ import annotations

__version__ = "0.1.0"
