"""A deterministic synthetic Maven repository of Java sources, for benchmarking the code graph.

`generate_repo(root, files, seed=0)` writes `files` Java files (one top-level type each, some with nested
types) into a multi-module Maven layout:

    pom.xml
    module-N/pom.xml
    module-N/src/main/java/com/gen/mN/<domain|application|infrastructure>/<feature>/<Type>.java
    module-N/src/test/java/com/gen/mN/<layer>/<feature>/<Type>Test.java

Types play DDD roles (entities, value records, status enums, repository ports, services, use cases,
adapters, controllers, clients, mappers, utility classes, exceptions, events, tests) and depend on each
other the way such code bases do: downwards through the layers, mostly inside a feature, sometimes across
features and onto lower-numbered modules. Method bodies call collaborators held in fields and parameters,
call static helpers of other generated classes, create records with `new`, compare against literals,
switch over enums and strings, catch generated exceptions and use generics, so every reference kind the
indexer extracts occurs with a realistic frequency. Imports are single-type, some wildcard (`.*`) and some
static; clashing simple names are written fully qualified.

The output is a pure function of (files, seed). The generated code is syntactically valid Java; it is
meant to be parsed, not compiled, although it is close to compiling.

    python bench/generate_repo.py OUT_DIR --files 5000 --seed 0
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

LAYERS = ("domain", "application", "infrastructure")
# Which layers a layer may depend on (never upwards).
_ALLOWED_LAYERS = {
    "domain": ("domain",),
    "application": ("domain", "application"),
    "infrastructure": ("domain", "application", "infrastructure"),
}
FEATURES: dict[str, tuple[str, ...]] = {
    "order": ("Order", "OrderLine", "Cart", "Checkout", "Fulfillment"),
    "customer": ("Customer", "Contact", "Address", "Profile", "Segment"),
    "billing": ("Invoice", "Charge", "Statement", "Ledger", "Payment"),
    "inventory": ("Stock", "Item", "Reservation", "Sku", "Batch"),
    "shipping": ("Shipment", "Parcel", "Carrier", "Route", "Delivery"),
    "pricing": ("Price", "Tariff", "Discount", "Quote", "Rate"),
    "catalog": ("Product", "Category", "Variant", "Listing", "Brand"),
    "account": ("Account", "Balance", "Transfer", "Limit", "Holder"),
    "notification": ("Notification", "Template", "Channel", "Recipient", "Digest"),
    "reporting": ("Report", "Metric", "Dashboard", "Snapshot", "Export"),
    "identity": ("User", "Role", "Permission", "Session", "Credential"),
    "loyalty": ("Reward", "Tier", "Points", "Campaign", "Voucher"),
    "warehouse": ("Warehouse", "Bin", "Pallet", "Dock", "Picking"),
    "subscription": ("Subscription", "Plan", "Renewal", "Trial", "Usage"),
    "tax": ("TaxRule", "TaxRate", "Jurisdiction", "Exemption", "Filing"),
    "audit": ("AuditEntry", "Trail", "Change", "Actor", "Retention"),
    "returns": ("Return", "Refund", "Claim", "Inspection", "Restock"),
    "scheduling": ("Slot", "Booking", "Calendar", "Shift", "Window"),
}
QUALIFIERS = ("", "", "", "", "Default", "Cached", "Bulk", "Regional", "Scheduled", "Priority", "Composite",
              "Legacy", "Standard", "Internal", "External", "Batch", "Partial", "Express", "Seasonal", "Global",
              "Local", "Pending", "Archived", "Primary", "Secondary", "Draft", "Verified", "Manual", "Automatic")
VERBS = ("Create", "Cancel", "Approve", "Update", "Import", "Sync", "Close", "Reopen", "Merge", "Split", "Register",
         "Refresh", "Archive", "Publish", "Schedule", "Reconcile", "Assign", "Release", "Confirm", "Expire")
METHOD_VERBS = ("process", "validate", "calculate", "register", "update", "cancel", "approve", "resolve", "refresh",
                "archive", "publish", "load", "apply", "merge", "schedule", "reconcile", "assign", "release",
                "confirm", "evaluate", "prepare", "collect", "summarize", "estimate", "verify", "enrich")
CONSTANTS = ("ACTIVE", "PENDING", "CLOSED", "SUSPENDED", "ARCHIVED", "DRAFT", "APPROVED", "REJECTED", "EXPIRED",
             "STANDARD", "PREMIUM", "BASIC", "OPEN", "BLOCKED", "SETTLED", "PARTIAL", "UNKNOWN", "MANUAL")
STRING_LITERALS = ("EU", "US", "APAC", "EXPRESS", "STANDARD", "internal", "external", "v2", "legacy", "N/A", "default",
                   "PRIMARY", "backup", "retry", "manual", "auto")

# role -> (kind, name templates, weight within its layer); {Q} qualifier, {N} noun, {V} verb.
ROLES: dict[str, dict[str, tuple[str, tuple[str, ...], int]]] = {
    "domain": {
        "entity": ("class", ("{Q}{N}",), 6),
        "value": ("record", ("{N}Id", "{N}Amount", "{Q}{N}Details", "{N}Snapshot", "{Q}{N}Summary", "{N}Key",
                             "{N}Range", "{Q}{N}Line"), 5),
        "status": ("enum", ("{N}Status", "{N}Type", "{Q}{N}Mode", "{N}Level", "{N}Reason"), 2),
        "repository": ("interface", ("{Q}{N}Repository",), 3),
        "domain_service": ("class", ("{Q}{N}Service", "{Q}{N}Calculator", "{N}Allocator", "{Q}{N}Evaluator"), 4),
        "exception": ("exception", ("{N}NotFoundException", "{Q}{N}Exception", "{N}ConflictException"), 2),
        "event": ("record", ("{N}CreatedEvent", "{N}UpdatedEvent", "{N}CancelledEvent", "{Q}{N}ExpiredEvent"), 2),
        "policy": ("util", ("{N}Rules", "{Q}{N}Policies", "{N}Utils"), 2),
        "spec": ("interface", ("{Q}{N}Specification", "{N}Criteria"), 1),
    },
    "application": {
        "usecase": ("class", ("{V}{N}UseCase", "{V}{N}Handler", "{V}{Q}{N}Interactor"), 5),
        "command": ("record", ("{V}{N}Command", "{V}{N}Request"), 3),
        "view": ("record", ("{N}View", "{Q}{N}Dto", "{N}Response"), 2),
        "port": ("interface", ("{N}Port", "{Q}{N}Gateway", "{N}EventPublisher"), 2),
        "mapper": ("class", ("{N}Mapper", "{Q}{N}Assembler"), 2),
        "app_service": ("class", ("{N}ApplicationService", "{Q}{N}Facade", "{N}Coordinator"), 3),
        "validator": ("class", ("{Q}{N}Validator",), 1),
    },
    "infrastructure": {
        "adapter": ("class", ("Jdbc{N}Repository", "{Q}{N}RepositoryAdapter", "{N}GatewayAdapter"), 4),
        "controller": ("class", ("{N}Controller", "{Q}{N}RestController", "{N}Resource"), 3),
        "client": ("class", ("{N}Client", "Http{Q}{N}Client"), 2),
        "jpa_entity": ("class", ("{N}Entity", "{Q}{N}Row"), 2),
        "config": ("class", ("{N}Configuration", "{Q}{N}Properties"), 1),
        "listener": ("class", ("{N}EventListener", "{Q}{N}Consumer"), 2),
        "infra_mapper": ("class", ("{N}EntityMapper", "{Q}{N}RowMapper"), 1),
    },
}
# Collaborators a role receives through its constructor (stored in fields).
_COLLAB_ROLES: dict[str, tuple[tuple[str, ...], int, int]] = {
    "domain_service": (("repository", "domain_service", "spec"), 1, 4),
    "usecase": (("repository", "port", "domain_service", "mapper", "validator"), 2, 5),
    "app_service": (("usecase", "port", "repository", "mapper"), 2, 5),
    "adapter": (("client", "infra_mapper", "config"), 1, 3),
    "controller": (("usecase", "app_service", "mapper"), 1, 4),
    "client": (("config",), 0, 1),
    "listener": (("usecase", "app_service"), 1, 3),
    "mapper": (("validator",), 0, 1),
    "validator": (("repository",), 0, 1),
}
# Types a role mentions in signatures and bodies (values, enums, events, exceptions, static helpers).
_USE_ROLES: dict[str, tuple[tuple[str, ...], int, int]] = {
    "entity": (("value", "status", "entity", "exception", "policy", "event"), 3, 7),
    "value": (("value", "status", "policy"), 1, 3),
    "status": ((), 0, 0),
    "repository": (("entity", "value", "status"), 1, 3),
    "domain_service": (("entity", "value", "status", "exception", "policy", "event"), 3, 7),
    "exception": (("exception",), 0, 1),
    "event": (("value", "entity", "status"), 1, 3),
    "policy": (("value", "status", "exception"), 1, 4),
    "spec": (("entity", "value", "status"), 1, 3),
    "usecase": (("entity", "value", "status", "exception", "event", "command", "view", "policy"), 3, 8),
    "command": (("value", "status"), 1, 3),
    "view": (("value", "status", "view"), 1, 3),
    "port": (("event", "entity", "value", "view"), 1, 3),
    "mapper": (("entity", "view", "value", "command", "status"), 2, 5),
    "app_service": (("entity", "view", "command", "exception", "value", "status"), 2, 6),
    "validator": (("command", "value", "exception", "policy", "status"), 2, 4),
    "adapter": (("entity", "value", "jpa_entity", "exception", "status"), 2, 5),
    "controller": (("command", "view", "exception", "value", "status"), 2, 5),
    "client": (("view", "value", "exception"), 1, 3),
    "jpa_entity": (("status", "value"), 1, 3),
    "config": ((), 0, 0),
    "listener": (("event", "command", "exception"), 1, 3),
    "infra_mapper": (("entity", "jpa_entity", "value", "status"), 2, 4),
}
_TESTABLE = ("domain_service", "usecase", "app_service", "adapter", "controller", "mapper", "validator", "entity",
             "policy", "listener")

JDK_IMPORTS = {
    "List": "java.util", "ArrayList": "java.util", "Map": "java.util", "HashMap": "java.util",
    "LinkedHashMap": "java.util", "Optional": "java.util", "Objects": "java.util", "UUID": "java.util",
    "Set": "java.util", "HashSet": "java.util", "Collections": "java.util", "Collection": "java.util",
    "BigDecimal": "java.math", "RoundingMode": "java.math", "Instant": "java.time", "LocalDate": "java.time",
    "Duration": "java.time", "Collectors": "java.util.stream", "Function": "java.util.function",
    "Predicate": "java.util.function", "Supplier": "java.util.function",
}
_SCALARS = ("String", "int", "long", "boolean", "BigDecimal", "Instant", "LocalDate", "UUID", "Duration")


# -- the plan ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class J:
    """A type expression: a JDK/primitive name or a generated type, with generic arguments."""

    base: str | Spec
    args: tuple[J, ...] = ()

    def key(self) -> str:
        head = self.base.fqn if isinstance(self.base, Spec) else self.base
        return head + ("<" + ",".join(a.key() for a in self.args) + ">" if self.args else "")

    def specs(self) -> Iterator[Spec]:
        if isinstance(self.base, Spec):
            yield self.base
        for arg in self.args:
            yield from arg.specs()

    @property
    def head(self) -> str:
        return self.base.name if isinstance(self.base, Spec) else self.base


@dataclass(eq=False)
class Method:
    name: str
    ret: J | None
    params: list[tuple[J, str]]
    static: bool = False


@dataclass(eq=False)
class Spec:
    """One generated top-level type and what it will contain."""

    module: int
    layer: str
    feature: str
    role: str
    kind: str  # class | interface | record | enum | exception | util | test
    name: str
    noun: str
    is_test: bool = False
    subject: Spec | None = None
    collabs: list[Spec] = field(default_factory=list)
    uses: list[Spec] = field(default_factory=list)
    implements: Spec | None = None
    extends: Spec | None = None
    api: list[Method] = field(default_factory=list)
    components: list[tuple[J, str]] = field(default_factory=list)
    constants: list[str] = field(default_factory=list)
    nested: list[str] = field(default_factory=list)
    target_lines: int = 100
    entity: Spec | None = None  # the aggregate a repository/adapter/mapper is about

    @property
    def package(self) -> str:
        return f"com.gen.m{self.module}.{self.layer}.{self.feature}"

    @property
    def fqn(self) -> str:
        return f"{self.package}.{self.name}"

    @property
    def path(self) -> str:
        source_set = "test" if self.is_test else "main"
        return f"module-{self.module}/src/{source_set}/java/{self.package.replace('.', '/')}/{self.name}.java"

    @property
    def type_count(self) -> int:
        return 1 + len(self.nested)


@dataclass
class Plan:
    specs: list[Spec]
    modules: int
    by_package: dict[str, list[Spec]]

    @property
    def type_count(self) -> int:
        return sum(s.type_count for s in self.specs)

    def most_used(self) -> Spec:
        """The main-source type that the most other types name (a hub, for impact queries)."""
        counts: dict[int, int] = {}
        for spec in self.specs:
            for dep in {id(d): d for d in (*spec.collabs, *spec.uses)}.values():
                counts[id(dep)] = counts.get(id(dep), 0) + 1
        by_id = {id(s): s for s in self.specs}
        best = max(counts.items(), key=lambda item: (item[1], -by_id[item[0]].module))
        return by_id[best[0]]


def _lower(name: str) -> str:
    return name[:1].lower() + name[1:]


def plan_repo(files: int, *, seed: int = 0) -> Plan:
    """Decide every type, its dependencies and its API; no files are written."""
    if files < 1:
        raise ValueError("files must be at least 1")
    rng = random.Random(seed)
    modules = max(1, min(40, round(files / 400)))
    feature_names = list(FEATURES)
    specs: list[Spec] = []
    names_in: dict[str, set[str]] = {}
    per_module = [files // modules + (1 if m < files % modules else 0) for m in range(modules)]
    tests_wanted: list[tuple[int, int]] = []  # (module, how many)
    for module, count in enumerate(per_module):
        features = rng.sample(feature_names, k=min(len(feature_names), 3 + rng.randint(0, 3)))
        n_tests = round(count * 0.14) if count >= 8 else 0
        tests_wanted.append((module, n_tests))
        for _ in range(count - n_tests):
            layer = rng.choices(LAYERS, weights=(40, 30, 30))[0]
            feature = rng.choice(features)
            roles = ROLES[layer]
            role = rng.choices(list(roles), weights=[w for _, _, w in roles.values()])[0]
            kind, templates, _ = roles[role]
            noun = rng.choice(FEATURES[feature])
            package = f"com.gen.m{module}.{layer}.{feature}"
            taken = names_in.setdefault(package, set())
            name = ""
            for attempt in range(40):
                name = rng.choice(templates).format(Q=rng.choice(QUALIFIERS), N=noun, V=rng.choice(VERBS))
                if attempt > 20:
                    name = f"{name}{attempt}"
                if name not in taken:
                    break
            taken.add(name)
            specs.append(Spec(module=module, layer=layer, feature=feature, role=role, kind=kind, name=name, noun=noun,
                              target_lines=rng.randint(45, 135)))
    # Pools for dependency choices.
    pools: dict[tuple[int, str, str], list[Spec]] = {}
    feature_pools: dict[tuple[int, str, str, str], list[Spec]] = {}
    for spec in specs:
        pools.setdefault((spec.module, spec.layer, spec.role), []).append(spec)
        feature_pools.setdefault((spec.module, spec.layer, spec.feature, spec.role), []).append(spec)

    def pick(spec: Spec, roles: tuple[str, ...], count: int) -> list[Spec]:
        chosen: dict[int, Spec] = {}
        for _ in range(count * 4):
            if len(chosen) >= count or not roles:
                break
            role = rng.choice(roles)
            layer = next((lay for lay, rs in ROLES.items() if role in rs), "domain")
            if layer not in _ALLOWED_LAYERS[spec.layer]:
                continue
            where = rng.random()
            if where < 0.62:
                pool = feature_pools.get((spec.module, layer, spec.feature, role), [])
            elif where < 0.85 or spec.module == 0:
                pool = pools.get((spec.module, layer, role), [])
            else:
                # a lower module: mostly the one just below, sometimes the shared kernel (module 0)
                lower = spec.module - 1 if rng.random() < 0.6 else rng.randrange(0, spec.module)
                pool = pools.get((lower, layer, role), [])
            if not pool:
                continue
            candidate = rng.choice(pool)
            if candidate is not spec:
                chosen[id(candidate)] = candidate
        return list(chosen.values())

    for spec in specs:
        wanted, low, high = _COLLAB_ROLES.get(spec.role, ((), 0, 0))
        spec.collabs = pick(spec, wanted, rng.randint(low, high))
        wanted, low, high = _USE_ROLES.get(spec.role, ((), 0, 0))
        spec.uses = [u for u in pick(spec, wanted, rng.randint(low, high)) if u not in spec.collabs]
        if spec.role in ("repository", "spec", "mapper", "infra_mapper", "adapter") and not any(
                u.role == "entity" for u in spec.uses):
            spec.uses = [*pick(spec, ("entity",), 1), *spec.uses]  # the aggregate it is about
        entities = [u for u in spec.uses if u.role in ("entity", "jpa_entity")]
        spec.entity = entities[0] if entities else None
        if spec.role == "adapter":
            targets = pick(spec, ("repository", "port"), 1)
            spec.implements = targets[0] if targets else None
        elif spec.role == "exception":
            parents = [u for u in spec.uses if u.role == "exception"]
            spec.extends = parents[0] if parents and rng.random() < 0.5 else None
        elif spec.role == "domain_service" and rng.random() < 0.15:
            parents = pick(spec, ("domain_service",), 1)
            spec.extends = parents[0] if parents else None
        elif spec.role == "usecase" and rng.random() < 0.2:
            ports = pick(spec, ("port",), 1)  # an inbound port the use case implements
            spec.implements = ports[0] if ports else None
        if spec.implements is spec or spec.extends is spec:
            spec.implements = spec.extends = None
        # The type that a cycle in `extends` could form is harmless for parsing, but keep it acyclic:
        if spec.extends is not None and spec.extends.extends is spec:
            spec.extends = None
        spec.nested = _nested_for(spec, rng)
    for spec in specs:
        _plan_api(spec, rng)
    # Tests: one per chosen testable class of the module, in the same package under src/test/java.
    for module, n_tests in tests_wanted:
        testable = [s for s in specs if s.module == module and s.role in _TESTABLE and not s.is_test]
        rng.shuffle(testable)
        made = 0
        for subject in testable:
            if made >= n_tests:
                break
            name = f"{subject.name}Test"
            taken = names_in.setdefault(subject.package + "#test", set())
            if name in taken:
                continue
            taken.add(name)
            specs.append(Spec(module=module, layer=subject.layer, feature=subject.feature, role="test", kind="test",
                              name=name, noun=subject.noun, is_test=True, subject=subject,
                              target_lines=rng.randint(50, 120), nested=["fixture"] if rng.random() < 0.2 else []))
            made += 1
        for extra in range(n_tests - made):  # too few classes to test: test utility classes instead
            subject = specs[rng.randrange(len(specs))]
            name = f"{subject.name}Extra{extra}Test"
            specs.append(Spec(module=module, layer=subject.layer, feature=subject.feature, role="test", kind="test",
                              name=name, noun=subject.noun, is_test=True, subject=subject,
                              target_lines=rng.randint(50, 120)))
    by_package: dict[str, list[Spec]] = {}
    for spec in specs:
        if not spec.is_test:
            by_package.setdefault(spec.package, []).append(spec)
    return Plan(specs=specs, modules=modules, by_package=by_package)


def _nested_for(spec: Spec, rng: random.Random) -> list[str]:
    nested: list[str] = []
    if spec.role in ("entity", "jpa_entity") and rng.random() < 0.45:
        nested.append("builder")
    if spec.role in ("usecase", "app_service") and rng.random() < 0.5:
        nested.append("result")
    if spec.role in ("usecase", "domain_service", "client") and rng.random() < 0.25:
        nested.append("mode")
    if spec.role in ("controller",) and rng.random() < 0.5:
        nested.append("error_body")
    if spec.role in ("repository", "port") and rng.random() < 0.3:
        nested.append("page")
    if spec.role in ("command", "view") and rng.random() < 0.25:
        nested.append("item")
    return nested


def _scalar(rng: random.Random) -> J:
    return J(rng.choice(_SCALARS))


def _boxed(j: J) -> J:
    """Generic arguments cannot be primitives."""
    boxed = {"int": "Integer", "long": "Long", "boolean": "Boolean"}.get(j.head)
    return J(boxed) if boxed and not isinstance(j.base, Spec) else j


def _value_type(spec: Spec, rng: random.Random, *, allow_collections: bool = True) -> J:
    """A type for a field, parameter or return: a used generated type, a scalar, or a collection of one."""
    candidates = [u for u in spec.uses if u.kind in ("record", "enum", "class") and u.role != "policy"]
    roll = rng.random()
    if candidates and roll < 0.55:
        base = J(rng.choice(candidates))
        if allow_collections and rng.random() < 0.25:
            return J("List", (base,)) if rng.random() < 0.7 else J("Optional", (base,))
        return base
    if allow_collections and roll < 0.62:
        return J("Map", (J("String"), _boxed(_scalar(rng))))
    return _scalar(rng)


def _method_name(spec: Spec, rng: random.Random, taken: set[str]) -> str:
    for _ in range(20):
        name = rng.choice(METHOD_VERBS) + rng.choice(("", spec.noun, "All", "Pending", "Batch", "Totals", "Items"))
        if name not in taken:
            taken.add(name)
            return name
    name = f"{rng.choice(METHOD_VERBS)}{len(taken)}"
    taken.add(name)
    return name


def _plan_api(spec: Spec, rng: random.Random) -> None:
    """The members other types can call on this one."""
    taken: set[str] = set()
    role = spec.role
    if spec.kind == "record":
        count = rng.randint(2, 5)
        names: set[str] = set()
        for _ in range(count):
            j = _value_type(spec, rng, allow_collections=role in ("view", "command", "event"))
            base = _lower(j.head) if isinstance(j.base, Spec) else rng.choice(
                ("code", "amount", "label", "createdAt", "quantity", "region", "reference", "count", "note", "active"))
            name = base
            while name in names:
                name = f"{base}{len(names)}"
            names.add(name)
            spec.components.append((j, name))
        spec.api = [Method(n, j, []) for j, n in spec.components]
        spec.api.append(Method("of", J(spec), list(spec.components), static=True))
        spec.api.append(Method("isEmpty", J("boolean"), []))
    elif spec.kind == "enum":
        spec.constants = rng.sample(CONSTANTS, k=rng.randint(3, 6))
        spec.api = [Method("code", J("String"), []), Method("isTerminal", J("boolean"), []),
                    Method("fromCode", J(spec), [(J("String"), "code")], static=True)]
    elif role == "repository":
        entity = J(spec.entity) if spec.entity else _boxed(_value_type(spec, rng, allow_collections=False))
        spec.api = [
            Method("findById", J("Optional", (entity,)), [(J("String"), "id")]),
            Method("findAll", J("List", (entity,)), []),
            Method("save", J("void"), [(entity, "item")]),
            Method("existsById", J("boolean"), [(J("String"), "id")]),
            Method("count", J("long"), []),
        ]
        for _ in range(rng.randint(0, 3)):
            spec.api.append(Method("findBy" + rng.choice(("Status", "Region", "Owner", "Reference", "CreatedAfter")),
                                   J("List", (entity,)), [(_scalar(rng), "criterion")]))
            spec.api[-1].name += str(len(spec.api))
    elif spec.kind == "util":
        for _ in range(rng.randint(3, 6)):
            params = [(_value_type(spec, rng, allow_collections=False), f"arg{i}") for i in range(rng.randint(1, 3))]
            spec.api.append(Method(_method_name(spec, rng, taken), _value_type(spec, rng), params, static=True))
    elif spec.kind == "exception":
        spec.api = []
    else:
        for _ in range(rng.randint(2, 5)):
            params = [(_value_type(spec, rng), f"p{i}") for i in range(rng.randint(0, 3))]
            ret = J("void") if rng.random() < 0.25 else _value_type(spec, rng)
            spec.api.append(Method(_method_name(spec, rng, taken), ret, params))
        if role == "entity":
            spec.api.append(Method("getId", J("String"), []))
            spec.api.append(Method("isActive", J("boolean"), []))
    # Name the parameters after their types, as people do.
    for method in spec.api:
        seen: set[str] = set()
        renamed = []
        for j, name in method.params:
            if name.startswith(("p", "arg")) and name[-1].isdigit():
                base = _lower(j.head) if isinstance(j.base, Spec) else {
                    "String": "code", "int": "limit", "long": "amountCents", "boolean": "force",
                    "BigDecimal": "amount", "Instant": "at", "LocalDate": "date", "UUID": "requestId",
                    "Duration": "timeout", "List": "items", "Optional": "maybe", "Map": "attributes",
                }.get(j.head, "value")
                name = base
                while name in seen:
                    name = f"{base}{len(seen)}"
            seen.add(name)
            renamed.append((j, name))
        method.params = renamed


# -- rendering ---------------------------------------------------------------------------------------------


class FileContext:
    """Imports of one file: simple names when unambiguous, else fully qualified names."""

    def __init__(self, spec: Spec, plan: Plan, rng: random.Random) -> None:
        self.spec = spec
        self.plan = plan
        self.rng = rng
        self.package = spec.package
        self.same_package = {s.name: s for s in plan.by_package.get(spec.package, [])}
        self.bound: dict[str, Spec] = {spec.name: spec}
        self.reserved = {"Builder", "Result", "Mode", "ErrorBody", "Page", "Item", "Fixture"}
        self.single: set[str] = set()
        self.wildcards: dict[str, bool] = {}  # package -> imported with .*
        self.jdk: set[str] = set()
        self.jdk_wildcard = rng.random() < 0.12
        self.statics: list[str] = []
        self.extra: set[str] = set()  # other non-JDK imports (frameworks)

    def ref(self, spec: Spec) -> str:
        if spec is self.spec:
            return spec.name
        name = spec.name
        if spec.package == self.package:
            if self.bound.get(name, spec) is spec and name not in self.reserved:
                return name
            return spec.fqn
        if name in self.reserved or name in self.same_package:
            return spec.fqn
        bound = self.bound.get(name)
        if bound is spec:
            return name
        if bound is not None:
            return spec.fqn
        self.bound[name] = spec
        package = spec.package
        if package not in self.wildcards:
            names = [s.name for s in self.plan.by_package.get(package, [])]
            safe = not any(n in self.bound and self.bound[n].package != package for n in names) and not any(
                n in self.same_package or n in self.reserved for n in names)
            self.wildcards[package] = safe and self.rng.random() < 0.15
        clash = any(
            wild and other != package and any(s.name == name for s in self.plan.by_package.get(other, []))
            for other, wild in self.wildcards.items()
        )
        if not self.wildcards[package] or clash:
            self.single.add(spec.fqn)
        return name

    def type(self, j: J) -> str:
        head = self.ref(j.base) if isinstance(j.base, Spec) else self.jdk_name(j.base)
        if j.args:
            head += "<" + ", ".join(self.type(a) for a in j.args) + ">"
        return head

    def jdk_name(self, name: str) -> str:
        if name in JDK_IMPORTS:
            self.jdk.add(name)
        return name

    def import_block(self) -> list[str]:
        own: list[str] = []
        wild_packages = sorted(p for p, w in self.wildcards.items() if w)
        own.extend(f"import {p}.*;" for p in wild_packages)
        own.extend(f"import {fqn};" for fqn in sorted(self.single) if fqn.rsplit(".", 1)[0] not in wild_packages)
        frameworks = [f"import {name};" for name in sorted(self.extra)]
        jdk_packages = sorted({JDK_IMPORTS[n] for n in self.jdk})
        if self.jdk_wildcard:
            jdk = [f"import {p}.*;" for p in jdk_packages]
        else:
            jdk = [f"import {JDK_IMPORTS[n]}.{n};" for n in sorted(self.jdk, key=lambda n: (JDK_IMPORTS[n], n))]
        statics = [f"import static {s};" for s in sorted(set(self.statics))]
        blocks = [b for b in (sorted(own), frameworks, jdk, statics) if b]
        out: list[str] = []
        for block in blocks:
            out.extend(block)
            out.append("")
        return out


@dataclass
class Var:
    name: str
    type: J
    is_field: bool = False


class Body:
    """Statements for one method or constructor body, using what is in scope."""

    def __init__(self, ctx: FileContext, rng: random.Random, fields: list[Var], params: list[Var],
                 indent: int = 2) -> None:
        self.ctx = ctx
        self.rng = rng
        self.fields = fields
        self.params = params
        self.locals: list[Var] = []
        self.lines: list[str] = []
        self.indent = indent
        self.counter = 0
        self.depth = 0
        self.ret: J | None = None

    # helpers
    def emit(self, text: str, extra: int = 0) -> None:
        self.lines.append("    " * (self.indent + extra) + text)

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def vars(self) -> list[Var]:
        return [*self.params, *self.locals, *self.fields]

    def access(self, var: Var) -> str:
        return f"this.{var.name}" if var.is_field and self.rng.random() < 0.5 else var.name

    def literal(self, j: J) -> str:
        rng = self.rng
        head = j.head
        if isinstance(j.base, Spec):
            spec = j.base
            if spec.kind == "enum" and spec.constants:
                return f"{self.ctx.ref(spec)}.{rng.choice(spec.constants)}"
            if spec.kind == "record" and self.depth < 2 and rng.random() < 0.3:
                self.depth += 1
                text = f"{self.ctx.ref(spec)}.of({', '.join(self.argument(p) for p, _ in spec.components)})"
                self.depth -= 1
                return text
            same = [v for v in self.vars() if v.type.key() == j.key()]
            return same[0].name if same else "null"
        return {
            "String": f'"{rng.choice(STRING_LITERALS)}"',
            "int": str(rng.randint(0, 500)),
            "long": f"{rng.randint(0, 100000)}L",
            "boolean": rng.choice(("true", "false")),
            "BigDecimal": rng.choice(
                ("BigDecimal.ZERO", "BigDecimal.ONE", f'new BigDecimal("{rng.randint(1, 999)}.50")')),
            "Instant": "Instant.now()",
            "LocalDate": "LocalDate.now()",
            "UUID": "UUID.randomUUID()",
            "Duration": f"Duration.ofSeconds({rng.randint(1, 90)})",
            "List": "List.of()",
            "Optional": "Optional.empty()",
            "Map": "Map.of()",
            "void": "",
        }.get(head, "null")

    def argument(self, j: J) -> str:
        same = [v for v in self.vars() if v.type.key() == j.key()]
        if same and self.rng.random() < 0.8:
            return self.access(self.rng.choice(same))
        if j.head in JDK_IMPORTS:
            self.ctx.jdk_name(j.head)
        for arg in j.args:
            self.ctx.type(arg)
        return self.literal(j)

    def call_args(self, method: Method) -> str:
        return ", ".join(self.argument(j) for j, _ in method.params)

    # statements
    def guard(self) -> bool:
        candidates = [p for p in self.params if p.type.head not in ("int", "long", "boolean")]
        if not candidates:
            return False
        p = self.rng.choice(candidates)
        if self.rng.random() < 0.5:
            self.ctx.jdk_name("Objects")
            self.emit(f'Objects.requireNonNull({p.name}, "{p.name} must not be null");')
        else:
            self.emit(f"if ({p.name} == null) {{")
            self.emit(f'throw new IllegalArgumentException("{p.name} is required");', 1)
            self.emit("}")
        return True

    def collaborator_call(self) -> bool:
        options = [(v, m) for v in self.vars() if isinstance(v.type.base, Spec)
                   for m in v.type.base.api if not m.static]
        options = [(v, m) for v, m in options if not v.type.args]
        if not options:
            return False
        var, method = self.rng.choice(options)
        call = f"{self.access(var)}.{method.name}({self.call_args(method)})"
        if method.ret is None or method.ret.head == "void":
            self.emit(call + ";")
            return True
        local = self.fresh(_lower(method.ret.head) if isinstance(method.ret.base, Spec) else method.name[:1] + "v")
        if self.rng.random() < 0.2:
            self.emit(f"var {local} = {call};")
        else:
            self.emit(f"{self.ctx.type(method.ret)} {local} = {call};")
        self.locals.append(Var(local, method.ret))
        return True

    def static_call(self) -> bool:
        helpers = [(s, m) for s in self.ctx.spec.uses for m in s.api if m.static]
        if not helpers:
            return False
        spec, method = self.rng.choice(helpers)
        call = f"{self.ctx.ref(spec)}.{method.name}({self.call_args(method)})"
        if method.ret is None or method.ret.head == "void":
            self.emit(call + ";")
        else:
            local = self.fresh("computed")
            self.emit(f"{self.ctx.type(method.ret)} {local} = {call};")
            self.locals.append(Var(local, method.ret))
        return True

    def create(self) -> bool:
        records = [u for u in self.ctx.spec.uses if u.kind == "record"]
        rng = self.rng
        if records and rng.random() < 0.7:
            spec = rng.choice(records)
            args = ", ".join(self.argument(j) for j, _ in spec.components)
            local = self.fresh(_lower(spec.name))
            self.emit(f"{self.ctx.ref(spec)} {local} = new {self.ctx.ref(spec)}({args});")
            self.locals.append(Var(local, J(spec)))
            return True
        element = _boxed(_value_type(self.ctx.spec, rng, allow_collections=False))
        local = self.fresh("items")
        self.ctx.jdk_name("ArrayList")
        self.emit(f"{self.ctx.type(J('List', (element,)))} {local} = new ArrayList<>();")
        self.locals.append(Var(local, J("List", (element,))))
        return True

    def compare(self) -> bool:
        rng = self.rng
        scalars = [v for v in self.vars() if v.type.head in ("int", "long", "String", "BigDecimal", "boolean")]
        body_line = rng.choice((
            'throw new IllegalStateException("limit exceeded");',
            "return" + self.return_tail(),
            f'attempts{self.counter} = {rng.randint(1, 9)};',
        ))
        if "attempts" in body_line:
            name = f"attempts{self.counter}"
            self.emit(f"int {name} = 0;")
        if not scalars:
            records = [v for v in self.vars() if isinstance(v.type.base, Spec) and v.type.base.kind == "record"
                       and not v.type.args and v.type.base.components]
            if not records:
                return False
            v = rng.choice(records)
            _, comp = rng.choice(v.type.base.components)  # type: ignore[union-attr]
            self.emit(f"if ({self.access(v)}.{comp}() == null) {{")
        else:
            v = rng.choice(scalars)
            head = v.type.head
            ref = self.access(v)
            if head in ("int", "long"):
                op = rng.choice((">", ">=", "<", "==", "!="))
                self.emit(f"if ({ref} {op} {rng.randint(0, 1000)}{'L' if head == 'long' else ''}) {{")
            elif head == "String":
                form = rng.random()
                if form < 0.5:
                    self.emit(f'if ("{rng.choice(STRING_LITERALS)}".equals({ref})) {{')
                elif form < 0.8:
                    self.emit(f'if ({ref} != null && {ref}.startsWith("{rng.choice(STRING_LITERALS)}")) {{')
                else:
                    self.emit(f"if ({ref} == null || {ref}.isBlank()) {{")
            elif head == "BigDecimal":
                self.emit(f"if ({ref}.compareTo(BigDecimal.ZERO) <= 0) {{")
            else:
                self.emit(f"if ({'!' if rng.random() < 0.5 else ''}{ref}) {{")
        self.emit(body_line, 1)
        self.emit("}")
        return True

    def switch(self) -> bool:
        rng = self.rng
        enums = [u for u in self.ctx.spec.uses if u.kind == "enum" and u.constants]
        enum_vars = [v for v in self.vars() if isinstance(v.type.base, Spec) and v.type.base.kind == "enum"
                     and not v.type.args]
        if enum_vars or enums:
            if enum_vars:
                var = rng.choice(enum_vars)
                spec = var.type.base
                subject = self.access(var)
            else:
                spec = rng.choice(enums)
                subject = self.fresh("status")
                self.emit(f'{self.ctx.ref(spec)} {subject} = {self.ctx.ref(spec)}.fromCode("{spec.constants[0]}");')
                self.locals.append(Var(subject, J(spec)))
            assert isinstance(spec, Spec)
            cases = spec.constants[: rng.randint(1, len(spec.constants))]
            local = self.fresh("weight")
            self.emit(f"int {local} = switch ({subject}) {{")
            for i, constant in enumerate(cases):
                self.emit(f"case {constant} -> {i * 10 + rng.randint(1, 9)};", 1)
            self.emit("default -> 0;", 1)
            self.emit("};")
            self.locals.append(Var(local, J("int")))
            return True
        strings = [v for v in self.vars() if v.type.head == "String" and not v.is_field]
        if not strings:
            return False
        var = rng.choice(strings)
        local = self.fresh("label")
        self.emit(f'String {local} = "none";')
        self.emit(f"switch ({var.name}) {{")
        for literal in rng.sample(STRING_LITERALS, k=rng.randint(2, 4)):
            self.emit(f'case "{literal}":', 1)
            self.emit(f'{local} = "{literal.lower()}";', 2)
            self.emit("break;", 2)
        self.emit("default:", 1)
        self.emit(f"{local} = {var.name};", 2)
        self.emit("}")
        self.locals.append(Var(local, J("String")))
        return True

    def try_catch(self) -> bool:
        rng = self.rng
        exceptions = [u for u in self.ctx.spec.uses if u.kind == "exception"]
        caught = self.ctx.ref(rng.choice(exceptions)) if exceptions and rng.random() < 0.7 else rng.choice(
            ("IllegalStateException", "IllegalArgumentException", "RuntimeException"))
        self.emit("try {")
        self.indent += 1
        in_scope = len(self.locals)
        if not (self.collaborator_call() or self.static_call()):
            self.emit("Thread.onSpinWait();")
        del self.locals[in_scope:]  # declared inside the try block
        self.indent -= 1
        self.emit(f"}} catch ({caught} e) {{")
        wrap = [u for u in self.ctx.spec.uses if u.kind == "exception"]
        if wrap and rng.random() < 0.5:
            self.emit(f'throw new {self.ctx.ref(rng.choice(wrap))}("failed: " + e.getMessage(), e);', 1)
        else:
            self.emit('throw new IllegalStateException("could not complete the operation", e);', 1)
        self.emit("}")
        return True

    def loop(self) -> bool:
        lists = [v for v in self.vars() if v.type.head == "List" and v.type.args]
        if not lists:
            return False
        var = self.rng.choice(lists)
        element = var.type.args[0]
        item = self.fresh("item")
        count = self.fresh("count")
        self.emit(f"int {count} = 0;")
        self.emit(f"for ({self.ctx.type(element)} {item} : {self.access(var)}) {{")
        self.emit(f"if ({item} == null) {{", 1)
        self.emit("continue;", 2)
        self.emit("}", 1)
        self.emit(f"{count}++;", 1)
        self.emit("}")
        self.locals.append(Var(count, J("int")))
        return True

    def stream(self) -> bool:
        lists = [v for v in self.vars() if v.type.head == "List" and v.type.args]
        if not lists:
            return False
        var = self.rng.choice(lists)
        local = self.fresh("filtered")
        self.ctx.jdk_name("Objects")
        self.ctx.jdk_name("Collectors")
        self.emit(f"{self.ctx.type(var.type)} {local} = {self.access(var)}.stream()")
        self.emit(".filter(Objects::nonNull)", 2)
        if self.rng.random() < 0.5:
            self.emit(f".limit({self.rng.randint(5, 100)})", 2)
        self.emit(".collect(Collectors.toList());", 2)
        self.locals.append(Var(local, var.type))
        return True

    def statement(self) -> None:
        choices = (
            (self.collaborator_call, 30), (self.compare, 14), (self.static_call, 10), (self.create, 10),
            (self.switch, 6), (self.try_catch, 7), (self.loop, 6), (self.stream, 4), (self.guard, 5),
        )
        for _ in range(6):
            fn = self.rng.choices([c for c, _ in choices], weights=[w for _, w in choices])[0]
            if fn():
                return
        self.create()

    def return_tail(self) -> str:
        """` <expr>;` for the method's return type, or `;`."""
        return ";" if self.ret is None or self.ret.head == "void" else f" {self.expression(self.ret)};"

    def expression(self, j: J) -> str:
        same = [v for v in self.vars() if v.type.key() == j.key()]
        if same:
            return self.access(self.rng.choice(same))
        if isinstance(j.base, Spec) and j.base.kind == "record" and not j.args and self.depth < 2:
            spec = j.base
            self.depth += 1
            text = f"new {self.ctx.ref(spec)}({', '.join(self.argument(c) for c, _ in spec.components)})"
            self.depth -= 1
            return text
        if j.head == "boolean":
            ints = [v for v in self.vars() if v.type.head == "int"]
            return f"{ints[0].name} > 0" if ints else self.rng.choice(("true", "false"))
        if j.head in JDK_IMPORTS:
            self.ctx.jdk_name(j.head)
        for arg in j.args:
            self.ctx.type(arg)
        return self.literal(j)


def _signature(ctx: FileContext, method: Method, modifiers: str = "public") -> str:
    params = ", ".join(f"{ctx.type(j)} {name}" for j, name in method.params)
    ret = ctx.type(method.ret) if method.ret is not None else "void"
    mods = f"{modifiers} static" if method.static else modifiers
    return f"{mods} {ret} {method.name}({params})".strip()


def _method_block(ctx: FileContext, rng: random.Random, method: Method, fields: list[Var], *,
                  modifiers: str = "public", override: bool = False, annotations: Iterable[str] = ()) -> list[str]:
    out = []
    if rng.random() < 0.35:
        out.append(f"    /** {method.name[:1].upper()}{method.name[1:]} for the given input; never returns null. */")
    out.extend(f"    {a}" for a in annotations)
    if override:
        out.append("    @Override")
    throws = " throws IllegalStateException" if rng.random() < 0.08 else ""
    out.append(f"    {_signature(ctx, method, modifiers)}{throws} {{")
    body = Body(ctx, rng, [] if method.static else fields, [Var(n, j) for j, n in method.params])
    body.ret = method.ret
    if method.params and rng.random() < 0.6:
        body.guard()
    for _ in range(rng.randint(1, 4)):
        body.statement()
    if method.ret is not None and method.ret.head != "void":
        body.emit("return" + body.return_tail())
    out.extend(body.lines)
    out.append("    }")
    out.append("")
    return out


def _extra_method(spec: Spec, rng: random.Random, taken: set[str]) -> Method:
    params = [(_value_type(spec, rng), f"value{i}") for i in range(rng.randint(0, 2))]
    ret = J("void") if rng.random() < 0.3 else _value_type(spec, rng)
    return Method(_method_name(spec, rng, taken), ret, params)


def _fill_methods(ctx: FileContext, rng: random.Random, spec: Spec, lines: list[str], fields: list[Var],
                  target: int, *, modifiers: str = "private") -> None:
    """Private helper methods until the file reaches its target length."""
    taken = {m.name for m in spec.api}
    guard = 0
    while len(lines) < target and guard < 12:
        guard += 1
        lines.extend(_method_block(ctx, rng, _extra_method(spec, rng, taken), fields, modifiers=modifiers))


def _nested_lines(ctx: FileContext, rng: random.Random, spec: Spec, kind: str) -> list[str]:
    if kind == "builder":
        comps = [(j, n) for j, n in ((_value_type(spec, rng, allow_collections=False), f"field{i}")
                                      for i in range(rng.randint(2, 4)))]
        out = ["    public static final class Builder {", ""]
        for j, n in comps:
            out.append(f"        private {ctx.type(j)} {n};")
        out.append("")
        for j, n in comps:
            out += [f"        public Builder {n}({ctx.type(j)} {n}) {{", f"            this.{n} = {n};",
                    "            return this;", "        }", ""]
        out += [f"        public {spec.name} build() {{", f"            return new {spec.name}();", "        }",
                "    }"]
        return out
    if kind == "result":
        return ["    public record Result(boolean success, String message, int affected) {",
                "        public static Result ok(int affected) {",
                '            return new Result(true, "ok", affected);', "        }",
                "", "        public static Result failed(String message) {",
                "            return new Result(false, message, 0);", "        }", "    }"]
    if kind == "mode":
        constants = ", ".join(rng.sample(("STRICT", "LENIENT", "DRY_RUN", "FAST", "SAFE", "BATCH"), k=3))
        return ["    enum Mode {", f"        {constants}", "    }"]
    if kind == "error_body":
        return ["    record ErrorBody(String code, String message) {",
                "        static ErrorBody of(RuntimeException e) {",
                '            return new ErrorBody("ERR-" + e.getClass().getSimpleName(), e.getMessage());',
                "        }", "    }"]
    if kind == "page":
        return ["    record Page(int number, int size) {", "        public Page {",
                "            if (size <= 0) {", '                throw new IllegalArgumentException("size");',
                "            }", "        }", "    }"]
    if kind == "item":
        j = _value_type(spec, rng, allow_collections=False)
        return [f"    public record Item({ctx.type(j)} value, int quantity) {{", "    }"]
    if kind == "fixture":
        return ["    static final class Fixture {", '        static final String ID = "id-1";',
                "        static final int LIMIT = 10;", "    }"]
    return []


def _class_lines(ctx: FileContext, rng: random.Random, spec: Spec) -> list[str]:
    """Behaviour classes: services, use cases, adapters, controllers, clients, mappers, entities, configs."""
    role = spec.role
    head: list[str] = []
    annotation = {
        "domain_service": None, "usecase": "Service", "app_service": "Service", "adapter": "Repository",
        "controller": "RestController", "client": "Component", "listener": "Component", "mapper": "Component",
        "config": "Configuration", "jpa_entity": "Entity", "validator": "Component", "infra_mapper": "Component",
    }.get(role)
    framework = {
        "Service": "org.springframework.stereotype.Service", "Repository": "org.springframework.stereotype.Repository",
        "RestController": "org.springframework.web.bind.annotation.RestController",
        "Component": "org.springframework.stereotype.Component",
        "Configuration": "org.springframework.context.annotation.Configuration",
        "Entity": "jakarta.persistence.Entity",
    }
    if annotation and rng.random() < 0.8:
        ctx.extra.add(framework[annotation])
        head.append(f"@{annotation}")
        if role == "controller":
            ctx.extra.add("org.springframework.web.bind.annotation.RequestMapping")
            head.append(f'@RequestMapping("/api/{spec.feature}/{spec.noun.lower()}")')
    decl = f"public class {spec.name}"
    if spec.extends is not None:
        decl += f" extends {ctx.ref(spec.extends)}"
    if spec.implements is not None:
        decl += f" implements {ctx.ref(spec.implements)}"
    lines: list[str] = [*head, decl + " {", ""]
    fields: list[Var] = []
    # constants
    if rng.random() < 0.6:
        lines.append(f"    private static final int MAX_ATTEMPTS = {rng.randint(2, 9)};")
        lines.append(f'    private static final String DEFAULT_REGION = "{rng.choice(STRING_LITERALS)}";')
        lines.append("")
    used_names: set[str] = set()
    for collab in spec.collabs:
        name = _lower(collab.name)
        while name in used_names:
            name += "2"
        used_names.add(name)
        fields.append(Var(name, J(collab), is_field=True))
    state_fields = []
    if role in ("entity", "jpa_entity", "config") or rng.random() < 0.3:
        state_fields.append(Var("id", J("String"), is_field=True))
        for _ in range(rng.randint(2, 6)):
            j = _value_type(spec, rng)
            base = _lower(j.head) if isinstance(j.base, Spec) else rng.choice(
                ("createdAt", "total", "region", "label", "version", "limit", "enabled", "note", "quantity"))
            name = base
            while name in used_names or name == "id":
                name = f"{base}{len(used_names)}"
            used_names.add(name)
            state_fields.append(Var(name, j, is_field=True))
    for var in fields:
        lines.append(f"    private final {ctx.type(var.type)} {var.name};")
    for var in state_fields:
        lines.append(f"    private {ctx.type(var.type)} {var.name};")
    lines.append("")
    # constructor
    if fields or rng.random() < 0.5:
        params = ", ".join(f"{ctx.type(v.type)} {v.name}" for v in fields)
        lines.append(f"    public {spec.name}({params}) {{")
        if spec.extends is not None and spec.extends.kind == "class" and spec.extends.collabs:
            lines.append("        super(" + ", ".join("null" for _ in spec.extends.collabs) + ");")
        for var in fields:
            if rng.random() < 0.6:
                ctx.jdk_name("Objects")
                lines.append(f'        this.{var.name} = Objects.requireNonNull({var.name}, "{var.name}");')
            else:
                lines.append(f"        this.{var.name} = {var.name};")
        if state_fields:
            lines.append(f'        this.id = "{spec.noun.lower()}-" + System.nanoTime();')
        lines.append("    }")
        lines.append("")
    all_fields = fields + state_fields
    # the implemented interface's methods first
    if spec.implements is not None:
        for method in spec.implements.api:
            if not method.static:
                lines.extend(_method_block(ctx, rng, method, all_fields, override=True))
    for method in spec.api:
        annotations: list[str] = []
        if role == "controller" and rng.random() < 0.7:
            verb = rng.choice(("GetMapping", "PostMapping", "PutMapping"))
            ctx.extra.add(f"org.springframework.web.bind.annotation.{verb}")
            annotations.append(f'@{verb}("/{method.name.lower()}")')
        elif role in ("usecase", "app_service") and rng.random() < 0.3:
            ctx.extra.add("org.springframework.transaction.annotation.Transactional")
            annotations.append("@Transactional")
        lines.extend(_method_block(ctx, rng, method, all_fields, annotations=annotations))
    for var in state_fields[1:3]:
        getter = "is" if var.type.head == "boolean" else "get"
        lines += [f"    public {ctx.type(var.type)} {getter}{var.name[:1].upper()}{var.name[1:]}() {{",
                  f"        return {var.name};", "    }", ""]
    nested = [n for kind in spec.nested for n in (*_nested_lines(ctx, rng, spec, kind), "")]
    _fill_methods(ctx, rng, spec, lines, all_fields, spec.target_lines - len(nested) - 12)
    lines.extend(nested)
    while lines and lines[-1] == "":
        lines.pop()
    lines.append("}")
    return lines


def _interface_lines(ctx: FileContext, rng: random.Random, spec: Spec) -> list[str]:
    generic = spec.role == "spec" and rng.random() < 0.5
    lines = [f"public interface {spec.name}{'<T>' if generic else ''} {{", ""]
    for method in spec.api:
        lines.append(f"    /** {method.name[:1].upper()}{method.name[1:]}; implementations must be thread-safe. */")
        params = ", ".join(f"{ctx.type(j)} {n}" for j, n in method.params)
        lines.append(f"    {ctx.type(method.ret) if method.ret else 'void'} {method.name}({params});")
        lines.append("")
    taken = {m.name for m in spec.api}
    while len(lines) < spec.target_lines - 10:
        method = _extra_method(spec, rng, taken)
        block = _method_block(ctx, rng, method, [], modifiers="default")
        lines.extend(line.replace("    public default", "    default") for line in block)
        if len(taken) > 14:
            break
    if spec.role == "spec":
        lines += ["    default boolean isSatisfiedBy(Object candidate) {", "        return candidate != null;",
                  "    }", ""]
    for kind in spec.nested:
        lines.extend(_nested_lines(ctx, rng, spec, kind))
        lines.append("")
    while lines[-1] == "":
        lines.pop()
    lines.append("}")
    return lines


def _record_lines(ctx: FileContext, rng: random.Random, spec: Spec) -> list[str]:
    comps = ", ".join(f"{ctx.type(j)} {n}" for j, n in spec.components)
    implements = ""
    if spec.role == "event" and rng.random() < 0.3:
        implements = " implements java.io.Serializable"
    lines = [f"public record {spec.name}({comps}){implements} {{", ""]
    # compact constructor with validation
    lines.append(f"    public {spec.name} {{")
    for j, n in spec.components:
        if j.head in ("int", "long"):
            lines += [f"        if ({n} < 0) {{", f'            throw new IllegalArgumentException("{n} < 0");',
                      "        }"]
        elif j.head == "List":
            lines.append(f"        {n} = {n} == null ? List.of() : List.copyOf({n});")
        elif j.head not in ("boolean",) and rng.random() < 0.6:
            ctx.jdk_name("Objects")
            lines.append(f'        Objects.requireNonNull({n}, "{n}");')
    lines += ["    }", ""]
    # static factory
    params = ", ".join(f"{ctx.type(j)} {n}" for j, n in spec.components)
    names = ", ".join(n for _, n in spec.components)
    lines += [f"    public static {spec.name} of({params}) {{", f"        return new {spec.name}({names});", "    }",
              ""]
    # withers
    for j, n in spec.components[: rng.randint(1, len(spec.components))]:
        others = ", ".join(c if c != n else n for _, c in spec.components)
        lines += [f"    public {spec.name} with{n[:1].upper()}{n[1:]}({ctx.type(j)} {n}) {{",
                  f"        return new {spec.name}({others});", "    }", ""]
    lines += ["    public boolean isEmpty() {"]
    checks = [f"{n} == null" for j, n in spec.components if j.head not in ("int", "long", "boolean")]
    lines += [f"        return {' && '.join(checks) if checks else 'false'};", "    }", ""]
    fields = [Var(n, j, is_field=True) for j, n in spec.components]
    _fill_methods(ctx, rng, spec, lines, fields, spec.target_lines - 8, modifiers="public")
    for kind in spec.nested:
        lines.extend(_nested_lines(ctx, rng, spec, kind))
        lines.append("")
    while lines[-1] == "":
        lines.pop()
    lines.append("}")
    return lines


def _enum_lines(ctx: FileContext, rng: random.Random, spec: Spec) -> list[str]:
    lines = [f"public enum {spec.name} {{", ""]
    for i, constant in enumerate(spec.constants):
        end = ";" if i == len(spec.constants) - 1 else ","
        lines.append(f'    {constant}("{constant[:3]}{i}", {str(i >= len(spec.constants) - 2).lower()}){end}')
    lines += ["", "    private final String code;", "    private final boolean terminal;", "",
              f"    {spec.name}(String code, boolean terminal) {{", "        this.code = code;",
              "        this.terminal = terminal;", "    }", "",
              "    public String code() {", "        return code;", "    }", "",
              "    public boolean isTerminal() {", "        return terminal;", "    }", "",
              f"    public static {spec.name} fromCode(String code) {{",
              f"        for ({spec.name} value : values()) {{", "            if (value.code.equals(code)) {",
              "                return value;", "            }", "        }",
              '        throw new IllegalArgumentException("unknown code: " + code);', "    }", "",
              f"    public {spec.name} next() {{", "        return switch (this) {"]
    for a, b in zip(spec.constants, [*spec.constants[1:], spec.constants[0]], strict=True):
        lines.append(f"            case {a} -> {b};")
    lines += ["        };", "    }", ""]
    for constant in spec.constants[:3]:
        lines += [f"    public boolean is{constant.title()}() {{", f"        return this == {constant};", "    }", ""]
    _fill_methods(ctx, rng, spec, lines, [Var("code", J("String"), True)], spec.target_lines - 20)
    while lines[-1] == "":
        lines.pop()
    lines.append("}")
    return lines


def _exception_lines(ctx: FileContext, rng: random.Random, spec: Spec) -> list[str]:
    parent = ctx.ref(spec.extends) if spec.extends is not None else "RuntimeException"
    lines = [f"public class {spec.name} extends {parent} {{", "",
             "    private static final long serialVersionUID = 1L;", "",
             "    private final String code;", "",
             f"    public {spec.name}(String message) {{", '        this(message, "GEN-000", null);', "    }", "",
             f"    public {spec.name}(String message, Throwable cause) {{", '        this(message, "GEN-001", cause);',
             "    }", "",
             f"    public {spec.name}(String message, String code, Throwable cause) {{",
             "        super(message, cause);", "        this.code = code;", "    }", "",
             "    public String code() {", "        return code;", "    }", "",
             "    public boolean isRetryable() {", '        return code != null && code.startsWith("GEN-0");', "    }",
             ""]
    _fill_methods(ctx, rng, spec, lines, [Var("code", J("String"), True)], spec.target_lines - 30)
    while lines[-1] == "":
        lines.pop()
    lines.append("}")
    return lines


def _util_lines(ctx: FileContext, rng: random.Random, spec: Spec) -> list[str]:
    lines = [f"public final class {spec.name} {{", "",
             f"    private static final int SCALE = {rng.randint(2, 6)};", "",
             f"    private {spec.name}() {{", '        throw new AssertionError("no instances");', "    }", ""]
    for method in spec.api:
        lines.extend(_method_block(ctx, rng, method, []))
    while len(lines) < spec.target_lines - 6:
        taken = {m.name for m in spec.api}
        extra = _extra_method(spec, rng, taken)
        extra.static = True
        spec.api.append(extra)  # never called by others: they were planned before rendering
        lines.extend(_method_block(ctx, rng, extra, [], modifiers="private"))
    while lines[-1] == "":
        lines.pop()
    lines.append("}")
    return lines


def _test_lines(ctx: FileContext, rng: random.Random, spec: Spec) -> list[str]:
    subject = spec.subject
    assert subject is not None
    ctx.extra.update({"org.junit.jupiter.api.Test", "org.junit.jupiter.api.BeforeEach",
                      "org.junit.jupiter.api.extension.ExtendWith", "org.mockito.Mock",
                      "org.mockito.junit.jupiter.MockitoExtension"})
    if rng.random() < 0.5:
        ctx.statics.append("org.junit.jupiter.api.Assertions.*")
    else:
        ctx.statics += ["org.junit.jupiter.api.Assertions.assertEquals",
                        "org.junit.jupiter.api.Assertions.assertNotNull",
                        "org.junit.jupiter.api.Assertions.assertThrows",
                        "org.junit.jupiter.api.Assertions.assertTrue"]
    ctx.statics += ["org.mockito.Mockito.*", "org.mockito.ArgumentMatchers.any"]
    lines = ["@ExtendWith(MockitoExtension.class)", f"class {spec.name} {{", ""]
    mocks = [Var(_lower(c.name), J(c), True) for c in subject.collabs]
    for mock in mocks:
        lines += ["    @Mock", f"    private {ctx.type(mock.type)} {mock.name};", ""]
    subject_ref = ctx.ref(subject)
    instance = _lower(subject.name)
    lines += [f"    private {subject_ref} {instance};", "", "    @BeforeEach", "    void setUp() {"]
    if subject.kind in ("util",):
        lines.append(f"        {instance} = null;")
    else:
        lines.append(f"        {instance} = new {subject_ref}({', '.join(m.name for m in mocks)});")
    lines += ["    }", ""]
    subject_var = Var(instance, J(subject), True)
    methods = [m for m in subject.api if not m.static] or subject.api
    index = 0
    while len(lines) < spec.target_lines - 6 and methods and index < 12:
        method = methods[index % len(methods)]
        index += 1
        scenario = rng.choice(("returnsResult", "rejectsNull", "handlesEmptyInput", "usesCollaborator", "isStable"))
        lines += ["    @Test", f"    void {method.name}_{scenario}{index}() {{"]
        body = Body(ctx, rng, [subject_var, *mocks], [], indent=2)
        for mock in mocks[:2]:
            stubs = [m for m in mock.type.base.api if not m.static and m.ret is not None  # type: ignore[union-attr]
                     and m.ret.head != "void"]
            if stubs:
                stub = rng.choice(stubs)
                assert stub.ret is not None
                args = ", ".join("any()" for _ in stub.params)
                body.emit(f"when({mock.name}.{stub.name}({args})).thenReturn({body.expression(stub.ret)});")
        call = f"{'' if method.static else instance + '.'}{method.name}({body.call_args(method)})"
        if method.static:
            call = f"{subject_ref}.{call}"
        if scenario == "rejectsNull" and method.params:
            body.emit(f"assertThrows(RuntimeException.class, () -> {call});")
        elif method.ret is None or method.ret.head == "void":
            body.emit(call + ";")
            if mocks:
                body.emit(f"verify({mocks[0].name}, atLeast(0));")
        else:
            body.emit(f"{ctx.type(method.ret)} result = {call};")
            if method.ret.head == "boolean":
                body.emit("assertTrue(result || !result);")
            elif method.ret.head in ("int", "long"):
                body.emit(f"assertEquals(result, result, \"{method.name} is deterministic\");")
            else:
                body.emit("assertNotNull(result);")
        lines.extend(body.lines)
        lines += ["    }", ""]
    for kind in spec.nested:
        lines.extend(_nested_lines(ctx, rng, spec, kind))
        lines.append("")
    while lines[-1] == "":
        lines.pop()
    lines.append("}")
    return lines


def render(spec: Spec, plan: Plan, seed: int) -> str:
    """The Java source of one spec (deterministic: its own RNG is seeded from the seed and its path)."""
    rng = random.Random(f"{seed}:{spec.path}")
    ctx = FileContext(spec, plan, rng)
    body = {
        "class": _class_lines, "interface": _interface_lines, "record": _record_lines, "enum": _enum_lines,
        "exception": _exception_lines, "util": _util_lines, "test": _test_lines,
    }[spec.kind](ctx, rng, spec)
    doc = ["/**", f" * {spec.name}: {spec.role.replace('_', ' ')} of the {spec.feature} feature "
           f"(module {spec.module}, {spec.layer} layer).", " *",
           " * Generated by bench/generate_repo.py for benchmarks; not meant to be compiled.", " */"]
    header = [f"package {spec.package};", "", *ctx.import_block()]
    return "\n".join([*header, *doc, *body]) + "\n"


def _pom(artifact: str, modules: list[str] | None = None, parent: bool = False) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<project xmlns="http://maven.apache.org/POM/4.0.0">',
             "  <modelVersion>4.0.0</modelVersion>"]
    if parent:
        lines += ["  <parent>", "    <groupId>com.gen</groupId>", "    <artifactId>gen-parent</artifactId>",
                  "    <version>1.0.0-SNAPSHOT</version>", "  </parent>"]
    lines += ["  <groupId>com.gen</groupId>", f"  <artifactId>{artifact}</artifactId>",
              "  <version>1.0.0-SNAPSHOT</version>"]
    if modules is not None:
        lines.append("  <packaging>pom</packaging>")
        lines.append("  <modules>")
        lines += [f"    <module>{m}</module>" for m in modules]
        lines.append("  </modules>")
    lines.append("</project>")
    return "\n".join(lines) + "\n"


def write_plan(root: Path, plan: Plan, *, seed: int = 0) -> list[str]:
    """Write the plan's files under `root`; returns the Java paths, relative to `root`."""
    root.mkdir(parents=True, exist_ok=True)
    module_names = [f"module-{m}" for m in range(plan.modules)]
    (root / "pom.xml").write_text(_pom("gen-parent", module_names), encoding="utf-8")
    for name in module_names:
        (root / name).mkdir(exist_ok=True)
        (root / name / "pom.xml").write_text(_pom(name, parent=True), encoding="utf-8")
    paths = []
    made: set[Path] = set()
    for spec in plan.specs:
        target = root / spec.path
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_text(render(spec, plan, seed), encoding="utf-8")
        paths.append(spec.path)
    return paths


def generate_repo(root: Path, files: int, *, seed: int = 0) -> list[str]:
    """Write a synthetic multi-module Maven repository of `files` Java files; returns their relative paths."""
    return write_plan(Path(root), plan_repo(files, seed=seed), seed=seed)


def files_for_types(types: int, *, seed: int = 0) -> int:
    """The smallest file count (searched coarsely) whose plan declares at least `types` types."""
    files = max(1, int(types / 1.5))
    while plan_repo(files, seed=seed).type_count < types:
        files = int(files * 1.03) + 1
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the repository into")
    parser.add_argument("--files", type=int, default=1000, help="number of Java files (default 1000)")
    parser.add_argument("--min-types", type=int, default=0,
                        help="instead of --files: the fewest files declaring at least this many types (with nested)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    files = files_for_types(args.min_types, seed=args.seed) if args.min_types else args.files
    plan = plan_repo(files, seed=args.seed)
    paths = write_plan(args.out, plan, seed=args.seed)
    size = sum((args.out / p).stat().st_size for p in paths)
    lines = sum((args.out / p).read_text(encoding="utf-8").count("\n") for p in paths)
    print(f"wrote {len(paths)} Java files ({plan.type_count} types, {plan.modules} modules, "
          f"{lines:,} lines, {size / 1e6:.1f} MB) to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
