"""The token in any form is masked in text and in every log record while a run is on."""

from __future__ import annotations

import base64
import logging

import pytest

from junitbot.bot import redact, redacting, secret_forms

TOKEN = "ghs_abcdefghijklmnopqrstuvwxyz0123456789"


def test_secret_forms_include_the_basic_auth_encoding() -> None:
    basic = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
    assert secret_forms(TOKEN) == (TOKEN, basic) and secret_forms("") == ()
    assert redact(f"Authorization: basic {basic} for {TOKEN}!", secret_forms(TOKEN)) == \
        "Authorization: basic *** for ***!"


def test_log_records_are_redacted_while_the_block_runs(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("junitbot.bot.test")
    caplog.set_level(logging.DEBUG)
    with redacting(secret_forms(TOKEN)):
        log.info("token %s in args", TOKEN)
        log.warning("in the message " + TOKEN)
        try:
            raise RuntimeError(f"failed with {TOKEN}")
        except RuntimeError:
            log.exception("boom")
    assert TOKEN not in caplog.text and caplog.text.count("***") >= 3
    assert all(TOKEN not in record.getMessage() for record in caplog.records)
    log.info("after %s", "the block")
    assert caplog.records[-1].getMessage() == "after the block"
    assert not any(isinstance(f, logging.Filter) and type(f).__name__ == "RedactingFilter"
                   for h in logging.getLogger().handlers for f in h.filters)
