"""The forbidden pass: no Spring context, sleeps, exits, processes, network, file writes or private reflection (pure).

What is dangerous (a Spring context, a sleep, an exit, a process, the network, a database connection, a write to
the file system) is an ERROR: the gate never runs it. Reading a fixture is not dangerous and is not reported;
private reflection is only a WARNING, for the repair prompt (issue 18: a whole file of human tests was lost to
one test of a private constructor).
"""

from __future__ import annotations

import fnmatch
from typing import NamedTuple

from junitbot.analysis import Node
from junitbot.validation.models import Severity, ValidationIssue
from junitbot.validation.static.facts import CheckInput
from junitbot.validation.static.nodes import (
    ERROR,
    WARNING,
    arguments_of,
    compact,
    issue_at,
    name_of,
    simple_name,
    text_of,
    type_name,
    variable_name,
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
    severity: Severity = ERROR


_FORBIDDEN_CALLS = (
    _Forbidden("thread-sleep", ("Thread", "*.Thread", "TimeUnit.*", "*.TimeUnit.*"), ("sleep",)),
    _Forbidden("system-exit", ("System", "*.System", "Runtime.getRuntime()", "*.Runtime.getRuntime()"),
               ("exit", "halt")),
    _Forbidden("process-spawn", ("Runtime.getRuntime()", "*.Runtime.getRuntime()"), ("exec",)),
    _Forbidden("network-access", None, ("openConnection",)),
    # `getResource(..).openStream()` reads the classpath; only a URL's stream reaches the network.
    _Forbidden("network-access", ("*[Uu][Rr][Ll]*",), ("openStream", "getContent")),
    _Forbidden("network-access", ("HttpClient", "*.HttpClient"), ("newHttpClient", "newBuilder")),
    _Forbidden("network-access", ("HttpClients", "*.HttpClients"), ("createDefault", "createSystem", "custom")),
    # A name lookup opens no connection (the local host's name, an address literal): reported, not refused.
    _Forbidden("network-access", ("InetAddress", "*.InetAddress"), ("getByName", "getAllByName", "getLocalHost"),
               WARNING),
    # Only writes: reading a fixture (`Files.readAllBytes`, `new File(..)`, `FileInputStream`) harms nothing.
    _Forbidden("file-access", ("Files", "*.Files"), (
        "write", "writeString", "createFile", "createDirectory", "createDirectories", "createTempFile",
        "createTempDirectory", "createLink", "createSymbolicLink", "delete", "deleteIfExists", "copy", "move",
        "newOutputStream", "newBufferedWriter", "setAttribute", "setLastModifiedTime", "setPosixFilePermissions")),
    _Forbidden("database-access", ("DriverManager", "*.DriverManager"), ("getConnection",)),
    _Forbidden("private-reflection", None, (
        "setAccessible", "getDeclaredField", "getDeclaredFields", "getDeclaredMethod", "getDeclaredMethods",
        "getDeclaredConstructor", "getDeclaredConstructors")),
    _Forbidden("private-reflection", ("ReflectionTestUtils", "Whitebox", "FieldUtils", "*.ReflectionTestUtils"),
               None),
)
_FORBIDDEN_NEW = {
    "Socket": "network-access", "ServerSocket": "network-access", "DatagramSocket": "network-access",
    "ProcessBuilder": "process-spawn", "FileWriter": "file-access", "FileOutputStream": "file-access",
    "RandomAccessFile": "file-access",
}
# `java.io.File`'s own writes, on a variable declared as a File.
_FILE_WRITES = frozenset({"createNewFile", "delete", "deleteOnExit", "mkdir", "mkdirs", "renameTo", "setExecutable",
                          "setLastModified", "setReadOnly", "setReadable", "setWritable"})
_SEVERITY = {"private-reflection": WARNING}  # every other category is dangerous: ERROR, unless a rule says
# category -> (why it is forbidden, what to do instead)
_FORBIDDEN_WHY = {
    "spring-context": ("starts a Spring context; unit tests construct the class with mocks",
                       "drop the Spring annotations and use @ExtendWith(MockitoExtension.class) with @Mock fields"),
    "thread-sleep": ("sleeps, which makes tests slow and flaky", "drive time through a mocked clock or TimeSource"),
    "system-exit": ("stops the JVM that runs the tests", "assert on the code's result or exception instead"),
    "process-spawn": ("starts an operating-system process", "mock the collaborator that starts processes"),
    "network-access": ("reaches the network", "mock the client or gateway that talks to the network"),
    "file-access": ("writes to the real file system", "use an in-memory value or a @TempDir directory"),
    "database-access": ("opens a real database connection", "mock the repository or DAO instead"),
    "private-reflection": ("reaches into private members by reflection",
                           "test through the public API; pass collaborators through the constructor"),
}



def check_forbidden(inp: CheckInput) -> list[ValidationIssue]:
    """No Spring context, sleeping, exiting, processes, network, file writes, databases or private reflection."""
    test = inp.test
    allowed: set[str] = set()
    if inp.settings.allow_reflection:
        allowed.add("private-reflection")
    if any(simple_name(compact(a.child_by_field_name("name"))) == "TempDir" for a in test.nodes("annotation")):
        allowed.add("file-access")  # JUnit's @TempDir is the sanctioned place for files
    found: list[tuple[str, Node, str, Severity]] = []
    for node in test.nodes("annotation"):
        name = simple_name(compact(node.child_by_field_name("name")))
        if name in _SPRING_ANNOTATIONS:
            found.append(("spring-context", node, f"@{name}", ERROR))
    for node in test.nodes("class_literal"):
        name = simple_name(type_name(node.named_children[0]))
        if name in _SPRING_RUNNERS:
            found.append(("spring-context", node, name, ERROR))
    for call in test.nodes("call"):
        receiver = compact(call.child_by_field_name("object"))
        what = f"{receiver}.{name_of(call)}" if receiver else name_of(call)
        for rule in _FORBIDDEN_CALLS:
            if (rule.names is None or name_of(call) in rule.names) and (
                    rule.receivers is None or any(fnmatch.fnmatchcase(receiver, p) for p in rule.receivers)):
                found.append((rule.category, call, what, _SEVERITY.get(rule.category, rule.severity)))
                break
        else:
            if name_of(call) in _FILE_WRITES and _is_file(inp, call.child_by_field_name("object")):
                found.append(("file-access", call, what, ERROR))
    for node in test.nodes("new"):
        name = simple_name(type_name(node.child_by_field_name("type")))
        if name in _FORBIDDEN_NEW and not _reads_only(name, node):
            found.append((_FORBIDDEN_NEW[name], node, f"new {name}", ERROR))
    issues = []
    for category, node, what, severity in sorted(found, key=lambda f: f[1].start_byte):
        if category not in allowed:
            why, instead = _FORBIDDEN_WHY[category]
            issues.append(issue_at("forbidden", severity, category, f"{what} {why}", node, instead))
    return issues


def _is_file(inp: CheckInput, receiver: Node | None) -> bool:
    """A `java.io.File`: `new File(..)` or a variable declared as one."""
    if receiver is None:
        return False
    if receiver.type == "object_creation_expression":
        return simple_name(type_name(receiver.child_by_field_name("type"))) == "File"
    name = variable_name(receiver)
    var = inp.test.var_at(name, receiver) if name is not None else None
    return var is not None and simple_name(var.type) == "File"


def _reads_only(name: str, node: Node) -> bool:
    """`new RandomAccessFile(f, "r")` only reads."""
    args = arguments_of(node)
    return name == "RandomAccessFile" and len(args) == 2 and text_of(args[1]) == '"r"'

