"""The forbidden pass: no Spring context, sleeps, exits, processes, network, files or private reflection (pure)."""

from __future__ import annotations

import fnmatch
from typing import NamedTuple

from junitbot.analysis import Node
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import (
    ERROR,
    CheckInput,
    compact,
    issue_at,
    name_of,
    simple_name,
    type_name,
)

_SPRING_ANNOTATIONS = frozenset({
    "SpringBootTest", "ContextConfiguration", "WebMvcTest", "DataJpaTest", "JdbcTest", "WebFluxTest",
    "DataMongoTest", "RestClientTest", "JsonTest", "MockBean", "SpyBean", "SpringJUnitConfig",
})
_SPRING_RUNNERS = frozenset({"SpringExtension", "SpringRunner", "SpringJUnit4ClassRunner"})


class _Forbidden(NamedTuple):
    category: str
    receivers: tuple[str, ...] | None  # fnmatch patterns on the receiver as written; None: any receiver
    names: tuple[str, ...] | None  # method names; None: every method of those receivers


_FORBIDDEN_CALLS = (
    _Forbidden("thread-sleep", ("Thread", "*.Thread", "TimeUnit.*", "*.TimeUnit.*"), ("sleep",)),
    _Forbidden("system-exit", ("System", "*.System", "Runtime.getRuntime()", "*.Runtime.getRuntime()"),
               ("exit", "halt")),
    _Forbidden("process-spawn", ("Runtime.getRuntime()", "*.Runtime.getRuntime()"), ("exec",)),
    _Forbidden("network-access", None, ("openConnection",)),
    # `getResource(..).openStream()` reads the classpath; only a URL's stream reaches the network.
    _Forbidden("network-access", ("*[Uu][Rr][Ll]*",), ("openStream",)),
    _Forbidden("network-access", ("HttpClient", "*.HttpClient"), ("newHttpClient", "newBuilder")),
    _Forbidden("network-access", ("HttpClients", "*.HttpClients"), ("createDefault", "createSystem", "custom")),
    _Forbidden("network-access", ("InetAddress", "*.InetAddress"), ("getByName", "getAllByName", "getLocalHost")),
    _Forbidden("file-access", ("Files", "*.Files"), (
        "write", "writeString", "createFile", "createDirectory", "createDirectories", "createTempFile",
        "createTempDirectory", "delete", "deleteIfExists", "copy", "move", "newOutputStream", "newBufferedWriter",
        "readString", "readAllLines", "readAllBytes", "lines", "newInputStream", "newBufferedReader")),
    _Forbidden("database-access", ("DriverManager", "*.DriverManager"), ("getConnection",)),
    _Forbidden("private-reflection", None, (
        "setAccessible", "getDeclaredField", "getDeclaredFields", "getDeclaredMethod", "getDeclaredMethods",
        "getDeclaredConstructor", "getDeclaredConstructors")),
    _Forbidden("private-reflection", ("ReflectionTestUtils", "Whitebox", "FieldUtils", "*.ReflectionTestUtils"),
               None),
)
_FORBIDDEN_NEW = {
    "Socket": "network-access", "ServerSocket": "network-access", "DatagramSocket": "network-access",
    "ProcessBuilder": "process-spawn", "File": "file-access", "FileWriter": "file-access",
    "FileOutputStream": "file-access", "FileInputStream": "file-access", "FileReader": "file-access",
    "RandomAccessFile": "file-access",
}
# category -> (why it is forbidden, what to do instead)
_FORBIDDEN_WHY = {
    "spring-context": ("starts a Spring context; unit tests construct the class with mocks",
                       "drop the Spring annotations and use @ExtendWith(MockitoExtension.class) with @Mock fields"),
    "thread-sleep": ("sleeps, which makes tests slow and flaky", "drive time through a mocked clock or TimeSource"),
    "system-exit": ("stops the JVM that runs the tests", "assert on the code's result or exception instead"),
    "process-spawn": ("starts an operating-system process", "mock the collaborator that starts processes"),
    "network-access": ("reaches the network", "mock the client or gateway that talks to the network"),
    "file-access": ("touches the real file system", "use an in-memory value or a @TempDir directory"),
    "database-access": ("opens a real database connection", "mock the repository or DAO instead"),
    "private-reflection": ("reaches into private members by reflection",
                           "test through the public API; pass collaborators through the constructor"),
}



def check_forbidden(inp: CheckInput) -> list[ValidationIssue]:
    """No Spring context, sleeping, exiting, processes, network, files, databases or private reflection."""
    test = inp.test
    allowed: set[str] = set()
    if inp.settings.allow_reflection:
        allowed.add("private-reflection")
    if any(simple_name(compact(a.child_by_field_name("name"))) == "TempDir" for a in test.nodes("annotation")):
        allowed.add("file-access")  # JUnit's @TempDir is the sanctioned place for files
    found: list[tuple[str, Node, str]] = []
    for node in test.nodes("annotation"):
        name = simple_name(compact(node.child_by_field_name("name")))
        if name in _SPRING_ANNOTATIONS:
            found.append(("spring-context", node, f"@{name}"))
    for node in test.nodes("class_literal"):
        name = simple_name(type_name(node.named_children[0]))
        if name in _SPRING_RUNNERS:
            found.append(("spring-context", node, name))
    for call in test.nodes("call"):
        receiver = compact(call.child_by_field_name("object"))
        for rule in _FORBIDDEN_CALLS:
            if (rule.names is None or name_of(call) in rule.names) and (
                    rule.receivers is None or any(fnmatch.fnmatchcase(receiver, p) for p in rule.receivers)):
                found.append((rule.category, call, f"{receiver}.{name_of(call)}" if receiver else name_of(call)))
                break
    for node in test.nodes("new"):
        name = simple_name(type_name(node.child_by_field_name("type")))
        if name in _FORBIDDEN_NEW:
            found.append((_FORBIDDEN_NEW[name], node, f"new {name}"))
    issues = []
    for category, node, what in sorted(found, key=lambda f: f[1].start_byte):
        if category not in allowed:
            why, instead = _FORBIDDEN_WHY[category]
            issues.append(issue_at("forbidden", ERROR, category, f"{what} {why}", node, instead))
    return issues

