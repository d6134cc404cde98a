"""ImportSet: the imports of one generated Java file and the name each type is written as, without clashes.

The first type to use a simple name gets it (imported unless it is in `java.lang` or the file's own
package); a later type with the same simple name is written fully qualified, so
`java.util.Currency` and `com.acme.shop.domain.Currency` can share one test class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

_IMPLICIT_PACKAGE = "java.lang"


def split_fqn(fqn: str, *, package: str | None = None) -> tuple[str, tuple[str, ...]]:
    """`java.util.Map.Entry` → (`java.util`, (`Map`, `Entry`)): the package and the chain of type names.

    Without `package`, the package is the run of segments before the first capitalised one (the Java
    naming convention); pass it when it is known (ClassInfo.package) to handle unconventional names.
    """
    parts = fqn.split(".")
    if package is not None and (fqn == package or fqn.startswith(package + ".")):
        count = len(package.split(".")) if package else 0
    else:
        count = next((i for i, part in enumerate(parts) if part[:1].isupper()), len(parts) - 1)
    return ".".join(parts[:count]), tuple(parts[count:])


class ImportSet:
    """Collects the single-type and static imports of one Java file and decides how each type is written.

    `reserved` are simple names that already mean something in the file (the test class itself);
    `local(fqn)` says whether a type exists in the file's package, which matters because such a type
    hides a `java.lang` type of the same simple name.
    """

    def __init__(self, package: str, *, reserved: Iterable[str] = (),
                 local: Callable[[str], bool] | None = None) -> None:
        self.package = package
        self._local = local
        self._claims: dict[str, str] = {name: _join(package, name) for name in reserved}
        self._imports: set[str] = set()
        self._static: set[str] = set()

    @classmethod
    def restore(cls, package: str, *, imports: Iterable[str], static_imports: Iterable[str],
                claims: Iterable[tuple[str, str]], local: Callable[[str], bool] | None = None) -> ImportSet:
        """An ImportSet in the state a TestShell recorded, to add the imports of more test code."""
        restored = cls(package, local=local)
        restored._claims = dict(claims)
        restored._imports = set(imports)
        restored._static = set(static_imports)
        return restored

    def name(self, fqn: str, *, package: str | None = None) -> str:
        """How to write the type `fqn` in this file: its simple (or `Outer.Inner`) name, or the FQN on a clash."""
        type_package, chain = split_fqn(fqn, package=package)
        if not chain:
            return fqn
        top = _join(type_package, chain[0])
        owner = self._claims.get(chain[0])
        if owner is None and not self._hidden(type_package, chain[0]):
            self._claims[chain[0]] = owner = top
            if type_package not in (_IMPLICIT_PACKAGE, self.package) and type_package:
                self._imports.add(top)
        return ".".join(chain) if owner == top else fqn

    def import_for(self, fqn: str, *, package: str | None = None) -> str | None:
        """The single-type import that lets this file write `fqn` by a short name, if there is one."""
        type_package, chain = split_fqn(fqn, package=package)
        top = _join(type_package, chain[0]) if chain else fqn
        return top if top in self._imports else None

    def add_static(self, member: str) -> None:
        """Add a static import, e.g. `org.junit.jupiter.api.Assertions.*`."""
        self._static.add(member)

    @property
    def imports(self) -> tuple[str, ...]:
        return tuple(sorted(self._imports))

    @property
    def static_imports(self) -> tuple[str, ...]:
        return tuple(sorted(self._static))

    @property
    def claims(self) -> tuple[tuple[str, str], ...]:
        """(simple name, FQN) for every simple name this file uses, so a restored set makes the same choices."""
        return tuple(sorted(self._claims.items()))

    def lines(self) -> list[str]:
        """The import statements: static ones first, a blank line, then the others, each group sorted."""
        static = [f"import static {member};" for member in self.static_imports]
        regular = [f"import {fqn};" for fqn in self.imports]
        return [*static, *([""] if static and regular else []), *regular]

    def fork(self) -> ImportSet:
        """A copy to try something on; `adopt` it when the attempt succeeds, drop it otherwise."""
        return ImportSet.restore(self.package, imports=self._imports, static_imports=self._static,
                                 claims=self._claims.items(), local=self._local)

    def adopt(self, fork: ImportSet) -> None:
        """Take over the state of a fork made from this set."""
        self._claims, self._imports, self._static = dict(fork._claims), set(fork._imports), set(fork._static)

    def _hidden(self, type_package: str, simple: str) -> bool:
        """A `java.lang` type is hidden by a type of the same simple name in the file's own package."""
        if type_package != _IMPLICIT_PACKAGE or self._local is None or self.package == _IMPLICIT_PACKAGE:
            return False
        return self._local(_join(self.package, simple))


def _join(package: str, name: str) -> str:
    return f"{package}.{name}" if package else name
