"""Shared inputs for the static passes' tests: the example shop and a small billing repo, indexed once, and a
good candidate (tests/fixtures/static/PlaceOrderServiceTest.java) that each test edits to plant one defect.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

import pytest

from junitbot.analysis import ClassInfo, CodeGraph, DependencyAnalyzer, extract_file, update_graph
from junitbot.analysis import TestContext as Context
from junitbot.config import JunitbotConfig, ValidationSettings, load_config
from junitbot.state import StateDir
from junitbot.validation.build.models import Frameworks
from junitbot.validation.models import Severity, ValidationIssue
from junitbot.validation.models import TestCandidate as Candidate
from junitbot.validation.static import KnownTypes, passed, run_static_checks
from tests.conftest import PROJECT

WrittenBy = Literal["junitbot", "person"]

GOOD = (PROJECT / "tests" / "fixtures" / "static" / "PlaceOrderServiceTest.java").read_text(encoding="utf-8")
SUBJECT = "com.acme.shop.application.PlaceOrderService"
TEST_PATH = "src/test/java/com/acme/shop/application/PlaceOrderServiceTest.java"

EXTENSION = Frameworks(junit_jupiter="5.10.2", mockito="5.11.0", mockito_extension=True)
MOCKITO_5 = Frameworks(junit_jupiter="5.10.2", mockito="5.11.0")
MOCKITO_2 = Frameworks(junit_jupiter="5.10.2", mockito="2.28.2")
INLINE = EXTENSION.model_copy(update={"mockito_inline": True})


@dataclass(frozen=True)
class Repo:
    """An indexed repository: every type's ClassInfo by FQN, and a way to get a class's test context."""

    infos: dict[str, ClassInfo]
    contexts: dict[str, Context]

    def check(self, source: str, *, subject: str = SUBJECT, path: str = TEST_PATH,
              frameworks: Frameworks = EXTENSION, settings: ValidationSettings | None = None,
              known_packages: tuple[str, ...] = (), written_by: WrittenBy = "junitbot") -> list[ValidationIssue]:
        return run_static_checks(
            Candidate(path=path, source=source, target=subject, written_by=written_by),
            subject=self.infos[subject],
            context=self.contexts[subject],
            frameworks=frameworks,
            settings=settings or ValidationSettings(),
            known=KnownTypes(self.infos.get, known_packages),
        )

    def check_without_subject(self, source: str, *, path: str = TEST_PATH,
                              written_by: WrittenBy = "junitbot") -> list[ValidationIssue]:
        """The passes over a test that names no class of the repository."""
        return run_static_checks(Candidate(path=path, source=source, written_by=written_by), subject=None,
                                 context=None,
                                 frameworks=EXTENSION, settings=ValidationSettings(), known=KnownTypes(self.infos.get))

    def with_types(self, sources: dict[str, str]) -> Repo:
        """This repo with more types (a base test class), parsed from source; `sources` maps FQN to source."""
        infos = dict(self.infos)
        for fqn, source in sources.items():
            facts = extract_file(source.encode("utf-8"), fqn.replace(".", "/") + ".java", is_test=True)
            infos.update({info.fqn: info for info in facts.classes})
        return Repo(infos=infos, contexts=self.contexts)


def _index(root: Path, state: StateDir, config: JunitbotConfig, subjects: tuple[str, ...]) -> Repo:
    update_graph(root, state, config)
    with CodeGraph.open(state.graph_db) as graph:
        infos = {fqn: info for fqn in graph.all_fqns() if (info := graph.class_info(fqn)) is not None}
        analyzer = DependencyAnalyzer(graph)
        return Repo(infos=infos, contexts={s: analyzer.test_context_for(s) for s in subjects})


@pytest.fixture(scope="package")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    """The bundled example shop, indexed once for the package (the passes never change it)."""
    root = tmp_path_factory.mktemp("static") / "shop"
    ignore = shutil.ignore_patterns(".junitbot", "*GeneratedTest.java")
    shutil.copytree(PROJECT / "examples" / "shop", root, ignore=ignore)
    state = StateDir(tmp_path_factory.mktemp("static-state"))
    return _index(root, state, load_config(root, environ={}), (SUBJECT,))


BILLING = {
    "src/main/java/com/acme/billing/InvoiceRepository.java": """
        package com.acme.billing;
        public interface InvoiceRepository { Invoice save(Invoice invoice); }
    """,
    "src/main/java/com/acme/billing/TaxService.java": """
        package com.acme.billing;
        public final class TaxService { public long taxFor(long cents) { return cents / 5; } }
    """,
    "src/main/java/com/acme/billing/Invoice.java": """
        package com.acme.billing;
        public record Invoice(String id, long cents) {}
    """,
    "src/main/java/com/acme/billing/LineItem.java": """
        package com.acme.billing;
        @lombok.Builder
        public class LineItem { private final String sku; private final int quantity; }
    """,
    "src/main/java/com/acme/billing/InvoiceService.java": """
        package com.acme.billing;
        public class InvoiceService {
            private final InvoiceRepository invoices;
            private final TaxService taxes;
            public InvoiceService(InvoiceRepository invoices, TaxService taxes) {
                this.invoices = invoices;
                this.taxes = taxes;
            }
            public Invoice issue(String id, long cents) {
                return invoices.save(new Invoice(id, cents + taxes.taxFor(cents)));
            }
        }
    """,
}
BILLING_SUBJECT = "com.acme.billing.InvoiceService"
BILLING_PATH = "src/test/java/com/acme/billing/InvoiceServiceTest.java"
BILLING_TEST = """\
package com.acme.billing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class InvoiceServiceTest {

    @Mock
    private InvoiceRepository invoices;
    @Mock
    private TaxService taxes;

    @Test
    void addsTheTax() {
        LineItem item = LineItem.builder().sku("KEY-0001").quantity(2).build();
        when(taxes.taxFor(100)).thenReturn(20L);
        when(invoices.save(any(Invoice.class))).thenAnswer(call -> call.getArgument(0));

        Invoice invoice = new InvoiceService(invoices, taxes).issue("I-1", 100);

        assertEquals(new Invoice("I-1", 120), invoice);
    }
}
"""


@pytest.fixture
def billing(make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
            state_for: Callable[[Path], StateDir]) -> Repo:
    """A small billing repo with a final class, a record and a Lombok builder, indexed for one test."""
    root = make_java_repo({path: _dedent(text) for path, text in BILLING.items()})
    return _index(root, state_for(root), config_for(root), (BILLING_SUBJECT,))


OPTIONS = {
    "src/main/java/org/acme/cli/Converter.java": """
        package org.acme.cli;
        public interface Converter { Object apply(String text); }
    """,
    "src/main/java/org/acme/cli/Option.java": """
        package org.acme.cli;
        import java.util.function.Supplier;
        public final class Option {
            private final String longOpt;
            private Converter converter;
            private Option(Builder builder) { this.longOpt = builder.longOpt; this.converter = builder.converter; }
            public static Builder builder() { return new Builder(); }
            public String getLongOpt() { return longOpt; }
            public void setConverter(Converter converter) { this.converter = converter; }
            public static final class Builder implements Supplier<Option> {
                private String longOpt;
                private Converter converter;
                public Builder longOpt(String longOpt) { this.longOpt = longOpt; return this; }
                public Builder converter(Converter converter) { this.converter = converter; return this; }
                public Option build() { return get(); }
                @Override public Option get() { return new Option(this); }
            }
        }
    """,
    "src/main/java/org/acme/cli/Parser.java": """
        package org.acme.cli;
        public class Parser {
            private final boolean strict;
            private Parser(boolean strict) { this.strict = strict; }
            public static Builder builder() { return new Builder(); }
            public String parse(String line) { return strict ? line.trim() : line; }
            public static class Builder {
                private boolean strict;
                public Builder strict(boolean strict) { this.strict = strict; return this; }
                public Parser build() { return new Parser(strict); }
            }
        }
    """,
}
OPTION_SUBJECT = "org.acme.cli.Option"
OPTION_PATH = "src/test/java/org/acme/cli/OptionTest.java"


@pytest.fixture
def options(make_java_repo: Callable[..., Path], config_for: Callable[[Path], JunitbotConfig],
            state_for: Callable[[Path], StateDir]) -> Repo:
    """A small command-line library: a value object with a hand-written builder (which is also a Supplier) and
    a setter-injected interface, and a parser built by its builder."""
    root = make_java_repo({path: _dedent(text) for path, text in OPTIONS.items()})
    return _index(root, state_for(root), config_for(root), (OPTION_SUBJECT,))


def _dedent(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines()) + "\n"


def variant(old: str, new: str, source: str = GOOD) -> str:
    """`source` with its one occurrence of `old` replaced: one deliberate defect."""
    assert source.count(old) == 1, f"{old!r} occurs {source.count(old)} times"
    return source.replace(old, new)


def line_of(source: str, snippet: str) -> int:
    """The line of `source` that `snippet` starts on."""
    assert snippet in source, snippet
    return source[: source.index(snippet)].count("\n") + 1


def summary(issues: list[ValidationIssue]) -> list[tuple[str, str, int | None]]:
    """(severity, category, line) of each issue: what most assertions compare."""
    return [(issue.severity.value, issue.category, issue.line) for issue in issues]


# -- planting one defect -----------------------------------------------------------------------------

T1, T2, T3 = "placesTheOrderAndChargesTheCustomer", "releasesTheStockWhenThePaymentIsDeclined", "rejectsANullCommand"
NULL_COMMAND = "        assertThrows(NullPointerException.class, () -> service.placeOrder(null));\n"
SUBJECT_NEW = "new PlaceOrderService(orders, products, customers, new PricingService(), payments, events, time)"
PLACE = "OrderId id = service.placeOrder(command(2));"
DUE_THEN_THROW = ("Money due = Money.of(\"60.00\", Currency.EUR);\n"
                  "        when(payments.charge(any(CustomerId.class), any(Money.class)))\n                .thenThrow")
DUE_THEN_RETURN = DUE_THEN_THROW.replace("thenThrow", "thenReturn")
ERROR, WARNING = Severity.ERROR, Severity.WARNING


class Defect(NamedTuple):
    """Edits to the good candidate, and the one kind of issue they must cause: a WARNING unless it is dangerous or
    certainly wrong (issue 18)."""

    edits: tuple[tuple[str, str], ...]
    category: str
    at: str  # a snippet on the line the (first) issue points at
    method: str | None = None
    severity: Severity = WARNING


def edit(old: str, new: str, category: str, at: str, method: str | None = None,
         severity: Severity = WARNING) -> Defect:
    """One replacement in the good candidate."""
    return Defect(((old, new),), category, at, method, severity)


def in_t3(statements: str, category: str, at: str, severity: Severity = WARNING) -> Defect:
    """Statements appended to rejectsANullCommand."""
    return edit(NULL_COMMAND, NULL_COMMAND + statements, category, at, T3, severity)


def t3_body(statements: str, category: str, at: str, severity: Severity = WARNING) -> Defect:
    """Statements replacing the body of rejectsANullCommand."""
    return edit(NULL_COMMAND, statements, category, at, T3, severity)


def assert_only_issue(repo: Repo, defect: Defect, *passes: str) -> None:
    """The good candidate with `defect`'s edits yields issues of its category only, from one of `passes`."""
    source = GOOD
    for old, new in defect.edits:
        source = variant(old, new, source)

    issues = repo.check(source)

    assert {issue.category for issue in issues} == {defect.category}, summary(issues)
    first = issues[0]
    expected = (defect.severity, line_of(source, defect.at), defect.method)
    assert (first.severity, first.line, first.method) == expected, summary(issues)
    assert {issue.pass_name for issue in issues} <= set(passes), summary(issues)
    assert first.message and first.suggestion
    assert passed(issues) is (defect.severity is not ERROR)
