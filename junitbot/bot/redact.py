"""Keeping the token out of every output: a text redactor and a logging filter for the length of a run."""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

MASK = "***"


def secret_forms(token: str) -> tuple[str, ...]:
    """The token and the encodings of it that git and HTTP carry (basic-auth header values)."""
    if not token:
        return ()
    basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    return tuple(dict.fromkeys((token, basic)))


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret (longest first, so no secret is revealed by a shorter one) masked."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


class RedactingFilter(logging.Filter):
    """Masks secrets in a record's rendered message (and drops its args, already rendered)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message, self.secrets)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            cleaned_exc = redact(text, self.secrets)
            if cleaned_exc != text:
                record.exc_info, record.exc_text = None, cleaned_exc
        return True


@contextmanager
def redacting(secrets: Iterable[str]) -> Iterator[RedactingFilter]:
    """Install a RedactingFilter on every handler of the root logger (where all records end) for a block."""
    log_filter = RedactingFilter(secrets)
    handlers = list(logging.getLogger().handlers)
    if logging.lastResort is not None:
        handlers.append(logging.lastResort)
    for handler in handlers:
        handler.addFilter(log_filter)
    try:
        yield log_filter
    finally:
        for handler in handlers:
            handler.removeFilter(log_filter)
