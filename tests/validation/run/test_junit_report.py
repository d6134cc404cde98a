"""parse_junit_xml: the legacy JUnit XML report read into cases (statuses, messages, times, the failing line)."""

from __future__ import annotations

import pytest

from junitbot.errors import JunitbotError
from junitbot.validation.run.junit_report import parse_junit_xml

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="JUnit Jupiter" tests="6" skipped="1" failures="2" errors="2" time="2.175">
<testcase name="fails()" classname="com.acme.CalcTest" time="0.002">
<failure message="math ==&gt; expected: &lt;3&gt; but was: &lt;2&gt;"
 type="org.opentest4j.AssertionFailedError"><![CDATA[
org.opentest4j.AssertionFailedError: math ==> expected: <3> but was: <2>
	at com.acme.CalcTest.fails(CalcTest.java:6)
]]></failure>
<system-out><![CDATA[unique-id: [engine:junit-jupiter]/[class:com.acme.CalcTest]/[method:fails()]]]></system-out>
</testcase>
<testcase name="one()" classname="com.acme.StaticTest" time="0">
<error type="java.lang.ExceptionInInitializerError"><![CDATA[java.lang.ExceptionInInitializerError
	at com.acme.StaticTest.one(StaticTest.java:5)
Caused by: java.lang.NumberFormatException: For input string: "nope"
	... 75 more
]]></error>
</testcase>
<testcase name="assume()" classname="com.acme.Aborted" time="0.002">
<skipped><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: no
	at org.junit.jupiter.api.Assumptions.throwAssumptionFailed(Assumptions.java:316)
]]></skipped>
</testcase>
<testcase name="p(int)[2]" classname="com.acme.OtherTest" time="0.013">
<failure message="expected: &lt;1&gt; but was: &lt;2&gt;" type="org.opentest4j.AssertionFailedError"/>
</testcase>
<testcase name="loops()" classname="com.acme.CalcTest" time="2.008">
<error message="loops() timed out after 2 seconds" type="java.util.concurrent.TimeoutException"><![CDATA[
java.util.concurrent.TimeoutException: loops() timed out after 2 seconds
]]></error>
</testcase>
<testcase name="deep()" classname="com.acme.OtherTest$Inner" time="0.008"/>
</testsuite>
"""


def test_parse_junit_xml_reads_statuses_messages_and_times() -> None:
    cases = parse_junit_xml(REPORT)
    assert [(c.test_class, c.method, c.status, c.message, c.seconds) for c in cases] == [
        ("com.acme.CalcTest", "fails", "failed", "math ==> expected: <3> but was: <2>", 0.002),
        (
            "com.acme.StaticTest", "one", "error",
            "java.lang.ExceptionInInitializerError; "
            'Caused by: java.lang.NumberFormatException: For input string: "nope"',
            0.0,
        ),
        ("com.acme.Aborted", "assume", "skipped", "org.opentest4j.TestAbortedException: Assumption failed: no", 0.002),
        ("com.acme.OtherTest", "p", "failed", "[2] expected: <1> but was: <2>", 0.013),
        (
            "com.acme.CalcTest", "loops", "timeout",
            "java.util.concurrent.TimeoutException: loops() timed out after 2 seconds", 2.008,
        ),
        ("com.acme.OtherTest$Inner", "deep", "passed", None, 0.008),
    ]
    assert parse_junit_xml(REPORT.encode("utf-8")) == cases


@pytest.mark.parametrize("text", ["<testsuite><testcase", "<html><body/></html>", ""])
def test_parse_junit_xml_rejects_what_is_not_a_report(text: str) -> None:
    with pytest.raises(JunitbotError, match="JUnit XML report"):
        parse_junit_xml(text)


# From a real JUnit 1.14 report (cut after the frames that matter): a nested class's failure, and AssertJ's
# hasMessage, whose message quotes the thrown exception's own frames.
REPORT_WITH_LINES = """<testsuite name="JUnit Jupiter">
<testcase name="nested()" classname="p.MsgTest$Inner" time="0">
<failure message="expected: &lt;1&gt; but was: &lt;2&gt;" type="org.opentest4j.AssertionFailedError">\
org.opentest4j.AssertionFailedError: expected: &lt;1&gt; but was: &lt;2&gt;
\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:531)
\tat p.MsgTest$Inner.nested(MsgTest.java:33)
</failure>
</testcase>
<testcase name="ajMessage()" classname="p.MsgTest" time="0">
<failure message="&#10;Expecting message to be:&#10;  &quot;a&quot;&#10;but was:&#10;  &quot;b&quot;&#10;\
&#10;Throwable that failed the check:&#10;&#10;java.lang.IllegalArgumentException: b&#10;\
&#9;at p.MsgTest.lambda$ajMessage$3(MsgTest.java:23)" type="org.opentest4j.AssertionFailedError">\
org.opentest4j.AssertionFailedError: \nExpecting message to be:
  "a"
but was:
  "b"

Throwable that failed the check:

java.lang.IllegalArgumentException: b
\tat p.MsgTest.lambda$ajMessage$3(MsgTest.java:23)
\tat org.assertj.core.api.ThrowableAssert.catchThrowable(ThrowableAssert.java:63)
\tat p.MsgTest.ajMessage(MsgTest.java:23)
</failure>
</testcase>
<testcase name="passes()" classname="p.MsgTest" time="0"/>
</testsuite>
"""


def test_a_failure_keeps_the_test_classs_line_and_its_whole_message() -> None:
    nested, assertj, passing = parse_junit_xml(REPORT_WITH_LINES)
    assert (nested.line, nested.detail) == (33, "expected: <1> but was: <2>")
    assert assertj.line == 23
    assert assertj.detail is not None and assertj.detail.startswith('\nExpecting message to be:\n  "a"\nbut was:')
    assert (passing.line, passing.detail) == (None, None)
