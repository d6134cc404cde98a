"""The no-model generator's oracles end to end: real probes, real JUnit, on a small checkout service.

What a maintainer would merge: no test pins an accident of a mock (an NPE from a default answer, an unread
`thrown`), what the code passes to a collaborator is captured and asserted, a compensation path is exercised,
a boundary family is one parameterized test.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator

import pytest

from junitbot.analysis import parse_test_class
from junitbot.generation import GenerationJob, GenerationResult, Target
from junitbot.generation.template import generate_tests
from junitbot.validation import Classpath, detect_frameworks
from tests.conftest import flow_only_yaml
from tests.generation.conftest import Indexed, index, write_files

_MAIN = "src/main/java/shop"
SOURCES = {
    f"{_MAIN}/PaymentDeclinedException.java": """package shop;

public class PaymentDeclinedException extends RuntimeException {
    public PaymentDeclinedException(String reason) {
        super("payment declined: " + reason);
    }
}
""",
    f"{_MAIN}/Payments.java": """package shop;

public interface Payments {
    /**
     * @throws PaymentDeclinedException if the provider refuses the charge
     */
    String charge(String customer, int cents);
}
""",
    f"{_MAIN}/Stock.java": """package shop;

public interface Stock {
    void reserve(String sku, int quantity);

    void release(String sku, int quantity);
}
""",
    f"{_MAIN}/Customer.java": """package shop;

public class Customer {
    private final String name;
    private int points;

    public Customer(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public int points() {
        return points;
    }

    public void addPoints(int more) {
        points += more;
    }
}
""",
    f"{_MAIN}/Customers.java": """package shop;

public interface Customers {
    void save(Customer customer);

    Customer find(String name);
}
""",
    f"{_MAIN}/Money.java": """package shop;

public final class Money {
    private final int cents;

    private Money(int cents) {
        this.cents = cents;
    }

    public static Money of(int cents) {
        return new Money(cents);
    }

    public int cents() {
        return cents;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Money && ((Money) other).cents == cents;
    }

    @Override
    public int hashCode() {
        return cents;
    }
}
""",
    f"{_MAIN}/Checkout.java": """package shop;

public class Checkout {
    private final Payments payments;
    private final Stock stock;
    private final Customers customers;

    public Checkout(Payments payments, Stock stock, Customers customers) {
        this.payments = payments;
        this.stock = stock;
        this.customers = customers;
    }

    public String checkout(String sku, int quantity, String customer) {
        stock.reserve(sku, quantity);
        try {
            return payments.charge(customer, quantity * 100);
        } catch (PaymentDeclinedException e) {
            stock.release(sku, quantity);
            throw e;
        }
    }

    public void register(String name) {
        Customer customer = new Customer(name);
        customer.addPoints(50);
        customers.save(customer);
    }

    public int pointsOf(String name) {
        return customers.find(name).points();
    }

    public Money price(int quantity) {
        if (quantity < 0 || quantity > 100) {
            throw new IllegalArgumentException("quantity out of range: " + quantity);
        }
        return Money.of(quantity * 250);
    }
}
""",
    f"{_MAIN}/Door.java": """package shop;

public class Door {
    private boolean locked = true;
    private boolean open;

    public void unlock() {
        locked = false;
    }

    public void open() {
        if (locked) {
            throw new IllegalStateException("the door is locked");
        }
        open = true;
    }

    public boolean isLocked() {
        return locked;
    }

    public boolean isOpen() {
        return open;
    }
}
""",
    f"{_MAIN}/Receipt.java": """package shop;

import java.io.IOException;

public class Receipt {
    private int width = 1;
    private char fill = '.';
    private int copies = 1;

    public int getWidth() {
        return width;
    }

    public void setWidth(int width) {
        this.width = width;
    }

    public char getFillCharacter() {
        return fill;
    }

    public void setFillCharacter(char fill) {
        this.fill = fill;
    }

    public int getCopies() {
        return copies;
    }

    public Receipt setCopies(int copies) {
        this.copies = copies;
        return this;
    }

    public void render(Appendable out, String item) throws IOException {
        out.append(item);
        for (int i = item.length(); i < width; i++) {
            out.append(fill);
        }
        out.append(';');
    }
}
""",
    f"{_MAIN}/Tally.java": """package shop;

import java.util.ArrayList;
import java.util.List;

public class Tally {
    private final List<String> names = new ArrayList<>();

    public void add(String name) {
        names.add(name);
    }

    public String last() {
        return names.isEmpty() ? "none" : names.get(names.size() - 1);
    }
}
""",
}
# Mockito 5 with its JUnit 5 extension, Jupiter with its params, and a launcher of the same Jupiter.
_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>junitbot.test</groupId><artifactId>oracles</artifactId><version>0</version><packaging>pom</packaging>
<dependencies>
<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-api</artifactId><version>5.11.4</version>
</dependency>
<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-params</artifactId><version>5.11.4</version>
</dependency>
<dependency><groupId>org.mockito</groupId><artifactId>mockito-junit-jupiter</artifactId><version>5.14.2</version>
</dependency>
<dependency><groupId>org.junit.platform</groupId><artifactId>junit-platform-console-standalone</artifactId>
<version>1.11.4</version></dependency>
</dependencies></project>
"""


# One module fixture, one worker: building it is the expensive part (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("oracles")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[GenerationResult, str]]:
    """The Checkout's, the Door's and the Receipt's generated tests, validated (one generation for the module)."""
    folder = tmp_path_factory.mktemp("oracles-classpath")
    (folder / "pom.xml").write_text(_POM)
    done = subprocess.run(["mvn", "-q", "-B", "dependency:build-classpath", "-Dmdep.outputFile=cp.txt"],
                          cwd=folder, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = tuple((folder / "cp.txt").read_text().strip().split(":"))
    classpath = Classpath(entries=entries, source="config", frameworks=detect_frameworks(entries))
    assert classpath.frameworks.junit_params and classpath.frameworks.mock_setup == "extension"
    root = tmp_path_factory.mktemp("oracles") / "checkout"
    write_files(root, SOURCES)
    config = flow_only_yaml()
    for repo in index(root, config_text=config, use_git=False):
        yield _generate(repo, classpath), root.name


def _generate(repo: Indexed, classpath: Classpath) -> GenerationResult:
    infos = [repo.info(f"shop.{name}") for name in ("Checkout", "Door", "Receipt", "Tally")]
    job = GenerationJob(root=repo.root, graph=repo.graph, config=repo.config, state=repo.state)
    return generate_tests([Target(fqn=i.fqn, file=i.file, reason="named") for i in infos], job, classpath=classpath)


def _kept(result: GenerationResult, target: str = "shop.Checkout") -> str:
    assert result.validation is not None
    (verdict,) = [v for v in result.validation.verdicts if v.target == target]
    assert verdict.kept, verdict
    return verdict.source or ""


def _methods(source: str) -> dict[str, str]:
    parsed = parse_test_class(source)
    lines = source.splitlines()
    return {m.name: "\n".join(lines[m.span.start_line - 1:m.span.end_line]) for m in parsed.methods if m.is_test}


def test_an_npe_from_a_mocks_default_answer_is_no_test_but_the_stubbed_scenario_is(
        generated: tuple[GenerationResult, str]) -> None:
    source = _kept(generated[0])
    methods = _methods(source)
    assert "NullPointerException" not in source, source
    points = [body for name, body in methods.items() if name.startswith("pointsOf")]
    # The scenario that died on `customers.find` answering null ran again with the call stubbed.
    assert points and all("when(customers.find(" in body for body in points), methods
    assert any("assertEquals(0, result);" in body for body in points), points


def test_what_the_code_saves_is_captured_and_its_state_asserted(generated: tuple[GenerationResult, str]) -> None:
    methods = _methods(_kept(generated[0]))
    register = "\n".join(body for name, body in methods.items() if name.startswith("register"))
    assert "ArgumentCaptor<Customer> customerCaptor = ArgumentCaptor.forClass(Customer.class);" in register
    assert "verify(customers).save(customerCaptor.capture());" in register
    assert "assertEquals(50, customerCaptor.getValue().points());" in register
    assert "register_savesCustomer" in methods


def test_a_caught_collaborator_exception_gets_its_compensation_test(generated: tuple[GenerationResult, str]) -> None:
    methods = _methods(_kept(generated[0]))
    name = "checkout_whenPaymentDeclined_releasesStockAndRethrows"
    assert name in methods, list(methods)
    body = methods[name]
    assert "thenThrow(new PaymentDeclinedException(" in body
    # Past 120 columns with its declaration, the statement is wrapped after its first argument.
    assert ("assertThrows(PaymentDeclinedException.class, () -> checkout.checkout(sku, quantity, customer));"
            in " ".join(body.split())), body
    assert re.search(r"verify\(stock\)\.release\(\"[^\"]*\", \d+\);", body), body


def test_boundary_cases_are_one_parameterized_test(generated: tuple[GenerationResult, str]) -> None:
    source = _kept(generated[0])
    methods = _methods(source)
    rejects = methods.get("price_rejectsInvalidQuantity", "")
    assert "@ParameterizedTest" in rejects and "@CsvSource(" in rejects, list(methods)
    assert "void price_rejectsInvalidQuantity(int quantity, String message)" in rejects, rejects
    assert "'quantity out of range: -1'" in rejects and "'quantity out of range: 101'" in rejects
    # The value class is compared with an equal value built by its own factory.
    assert re.search(r"assertEquals\(Money\.of\(\w+\), result\);", source), source


def test_no_unread_variable_nor_duplicate_body(generated: tuple[GenerationResult, str]) -> None:
    source = _kept(generated[0])
    methods = _methods(source)
    for name, body in methods.items():
        assert "thrown =" not in body or "thrown.getMessage()" in body, body
        assert "ReturnsValue" not in name and "returnsValue" not in name
    bodies = [re.sub(r"\s+", "", body.split("{", 1)[1]) for body in methods.values()]
    assert len(bodies) == len(set(bodies))


def test_a_call_that_fails_alone_is_tested_after_the_calls_that_unlock_it(
        generated: tuple[GenerationResult, str]) -> None:
    methods = _methods(_kept(generated[0], "shop.Door"))
    body = methods.get("open_afterUnlock_changesOpenToTrue", "")
    assert "door.unlock();\n" in body and "door.open();" in body, list(methods)
    assert "assertTrue(door.isOpen());" in body
    # Alone, the call is refused: that stays a test of its own.
    assert 'assertEquals("the door is locked", thrown.getMessage());' in methods.get("open_throwsIllegalState", "")


def test_what_the_code_writes_into_a_sink_is_asserted(generated: tuple[GenerationResult, str]) -> None:
    methods = _methods(_kept(generated[0], "shop.Receipt"))
    render = "\n".join(body for name, body in methods.items() if name.startswith("render"))
    # The Appendable is the JDK's StringBuilder, and what the code wrote into it is compared, never a mock's calls.
    assert "Appendable out = new StringBuilder();" in render, methods
    assert re.search(r'assertEquals\("[^"]*;", out\.toString\(\)\);', render), render
    assert "assertDoesNotThrow" not in render and "mock(" not in render


def test_a_setter_is_read_back_through_its_getter(generated: tuple[GenerationResult, str]) -> None:
    methods = _methods(_kept(generated[0], "shop.Receipt"))
    setters = {name: body for name, body in methods.items() if name.startswith("setWidth")}
    assert setters, list(methods)
    for body in setters.values():
        # Even the value the object already held (1) is read back: no setter test only says it did not throw.
        assert "receipt.getWidth()" in body and "assertDoesNotThrow" not in body, body


def test_a_property_is_read_back_through_a_getter_not_named_after_its_field(
        generated: tuple[GenerationResult, str]) -> None:
    # `fill` is read through `getFillCharacter()` (joda-money's `positiveCharacter` through
    # `getPositiveSignCharacter()`): the setter's effect is asserted, not only that it did not throw.
    methods = _methods(_kept(generated[0], "shop.Receipt"))
    setters = [body for name, body in methods.items() if name.startswith("setFillCharacter")]
    assert setters, list(methods)
    assert all("receipt.getFillCharacter()" in body and "assertDoesNotThrow" not in body for body in setters), setters


def test_a_fluent_setter_is_read_back_through_its_getter_too(generated: tuple[GenerationResult, str]) -> None:
    # `setCopies` returns the receipt itself (StringSubstitutor's setters): that it did says nothing of what it set,
    # so each test reads the property back, the value the receipt already held (1) too.
    (candidate,) = [c for c in generated[0].candidates if c.target == "shop.Receipt"]
    setters = {name: body for name, body in _methods(candidate.source).items() if name.startswith("setCopies")}
    assert setters, list(_methods(candidate.source))
    for body in setters.values():
        assert "assertSame(receipt, result);" in body and "receipt.getCopies()" in body, body


def test_a_query_is_asked_again_after_a_call_that_changed_the_object(generated: tuple[GenerationResult, str]) -> None:
    # On a fresh Tally, last() answers "none"; after add(..) it reads the state add built (Randoop's feedback).
    methods = _methods(_kept(generated[0], "shop.Tally"))
    after = [body for name, body in methods.items() if name.startswith("last_afterAdd")]
    assert after, list(methods)
    assert re.search(r"tally\.add\(\w+\);", after[0]) and 'assertEquals("text", result);' in after[0], after[0]
