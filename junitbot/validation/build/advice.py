"""Which test dependencies a module lacks for the generated tests, as pom entries the report shows (pure).

A module without JUnit Jupiter cannot compile any generated test; Mockito without `mockito-junit-jupiter`
leaves tests without `MockitoExtension` and its strict stubs; `@ParameterizedTest` needs
`junit-jupiter-params` (issue "Real Maven builds and the modern Java test stack"). Versions follow the
related jar the classpath has (mockito-junit-jupiter at mockito-core's version, params at Jupiter's);
where there is none, a version that runs on the module's Java release.
"""

from __future__ import annotations

from junitbot.validation.build.models import DependencyAdvice, Frameworks

# Without a related jar to follow: JUnit 5.11 and Mockito 4.11 run on Java 8; Mockito 5 needs Java 11.
DEFAULT_JUPITER = "5.11.4"
DEFAULT_MOCKITO = "5.14.2"
DEFAULT_MOCKITO_JAVA_8 = "4.11.0"
_JUPITER = "org.junit.jupiter"
_MOCKITO = "org.mockito"


def missing_test_dependencies(
    frameworks: Frameworks, *, release: int | None = None, parameterized: bool = False, mocking: bool = False,
) -> list[DependencyAdvice]:
    """The dependencies to add so the generated tests compile and run as written.

    `parameterized`: a test would use `@ParameterizedTest`; `mocking`: a class was not tested because the
    classpath has no Mockito to mock its collaborators; `release` is the module's Java release.
    """
    advice: list[DependencyAdvice] = []
    if frameworks.junit_jupiter is None:
        advice.append(DependencyAdvice(
            group_id=_JUPITER, artifact_id="junit-jupiter", version=DEFAULT_JUPITER,
            reason="the test classpath has no JUnit Jupiter: no generated test compiles without it"))
    elif parameterized and not frameworks.junit_params:
        advice.append(DependencyAdvice(
            group_id=_JUPITER, artifact_id="junit-jupiter-params", version=_full(frameworks.junit_jupiter,
                                                                                  DEFAULT_JUPITER),
            reason="a generated test uses @ParameterizedTest, which junit-jupiter-params provides"))
    mockito = frameworks.mockito
    if mockito is None and mocking:
        version = DEFAULT_MOCKITO_JAVA_8 if release is not None and release < 11 else DEFAULT_MOCKITO
        advice.append(DependencyAdvice(
            group_id=_MOCKITO, artifact_id="mockito-core", version=version,
            reason="the test classpath has no Mockito: classes with collaborators were not tested"))
        advice.append(_extension(version, "Mockito's JUnit 5 extension (MockitoExtension, strict stubs)"))
    elif mockito is not None and not frameworks.mockito_extension:
        advice.append(_extension(_full(mockito, DEFAULT_MOCKITO),
                                 f"Mockito {mockito} is there without its JUnit 5 extension: the tests set mocks up "
                                 "by hand instead of @ExtendWith(MockitoExtension.class) with strict stubs"))
    return advice


def _extension(version: str, reason: str) -> DependencyAdvice:
    return DependencyAdvice(group_id=_MOCKITO, artifact_id="mockito-junit-jupiter", version=version, reason=reason)


def _full(version: str, default: str) -> str:
    """The jar's version when the classpath told it (`5.14.2`); a bare major (`5`, a guess) is not one."""
    return version if "." in version else default
