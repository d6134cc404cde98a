"""Try/catch blocks and documented exceptions read from Java source text."""

from __future__ import annotations

from junitbot.generation.template.catches import blank_literals_and_comments, documented_throws, handlers

_SOURCE = """class Shop {
    String buy() {
        String note = "try { not code }"; // try { nor this
        try (Lock lock = locks.take()) {
            return payments.charge();
        } catch (DeclinedException | TimeoutException e) {
            stock.release();
            throw e;
        } catch (final IllegalStateException e) {
            return "failed";
        }
    }
}
"""


def test_handlers_find_each_catch_with_the_lines_of_its_try() -> None:
    found = handlers(_SOURCE)
    assert [h.caught for h in found] == [("DeclinedException", "TimeoutException"), ("IllegalStateException",)]
    first = found[0]
    assert first.guards(5) and not first.guards(7)  # `payments.charge()` is tried, `stock.release()` handles
    assert first.handles(7) and not first.handles(10)
    assert found[1].handles(10)


def test_blanking_keeps_lines_and_hides_literals_and_comments() -> None:
    blank = blank_literals_and_comments(_SOURCE)
    assert blank.count("\n") == _SOURCE.count("\n")
    assert "not code" not in blank and "nor this" not in blank


def test_documented_throws_reads_the_javadoc_right_before_a_member() -> None:
    source = """interface Payments {
    /**
     * Charges the card.
     * @throws com.acme.DeclinedException if refused
     * @exception TimeoutException when slow
     */
    @Deprecated
    String charge();

    String refund();
}
"""
    charge = source.index("    @Deprecated")
    refund = source.index("    String refund")
    assert documented_throws(source, len(source[:charge].encode())) == {"DeclinedException", "TimeoutException"}
    assert documented_throws(source, len(source[:refund].encode())) == set()
