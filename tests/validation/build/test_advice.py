"""Which test dependencies a module lacks for the generated tests, with the pom entries that add them."""

from __future__ import annotations

from junitbot.validation import Frameworks, detect_frameworks, missing_test_dependencies
from junitbot.validation.build.classpath import system_jars

MOCKITO_5 = Frameworks(junit_jupiter="5.11.4", junit_params=True, mockito="5.14.2", mockito_extension=True,
                       mockito_inline=True)


def _coordinates(frameworks: Frameworks, **options: object) -> list[str]:
    return [a.coordinates for a in missing_test_dependencies(frameworks, **options)]  # type: ignore[arg-type]


def test_a_complete_modern_stack_needs_nothing() -> None:
    assert missing_test_dependencies(MOCKITO_5, parameterized=True, mocking=True) == []


def test_mockito_without_its_extension_gets_the_extension_at_mockito_s_version() -> None:
    (advice,) = missing_test_dependencies(Frameworks(junit_jupiter="5.9.2", mockito="4.11.0"))
    assert advice.coordinates == "org.mockito:mockito-junit-jupiter:4.11.0"
    assert "MockitoExtension" in advice.reason
    assert advice.pom_snippet == (
        "<dependency>\n    <groupId>org.mockito</groupId>\n    <artifactId>mockito-junit-jupiter</artifactId>\n"
        "    <version>4.11.0</version>\n    <scope>test</scope>\n</dependency>")
    assert advice.gradle_line == 'testImplementation("org.mockito:mockito-junit-jupiter:4.11.0")'


def test_no_jupiter_at_all_and_parameterized_tests_without_params() -> None:
    assert _coordinates(Frameworks()) == ["org.junit.jupiter:junit-jupiter:5.11.4"]
    junit4_and_mockito = Frameworks(mockito="2.23.0")
    assert _coordinates(junit4_and_mockito) == ["org.junit.jupiter:junit-jupiter:5.11.4",
                                                "org.mockito:mockito-junit-jupiter:2.23.0"]
    api_only = MOCKITO_5.model_copy(update={"junit_params": False})
    assert _coordinates(api_only) == []  # no test used @ParameterizedTest
    assert _coordinates(api_only, parameterized=True) == ["org.junit.jupiter:junit-jupiter-params:5.11.4"]


def test_no_mockito_when_collaborators_needed_mocks_follows_the_release() -> None:
    plain = Frameworks(junit_jupiter="5.11.4", junit_params=True)
    assert _coordinates(plain) == []
    assert _coordinates(plain, mocking=True) == ["org.mockito:mockito-core:5.14.2",
                                                 "org.mockito:mockito-junit-jupiter:5.14.2"]
    assert _coordinates(plain, mocking=True, release=8) == ["org.mockito:mockito-core:4.11.0",
                                                            "org.mockito:mockito-junit-jupiter:4.11.0"]
    guessed = Frameworks(junit_jupiter="5", mockito="4")  # versions the jars' names did not tell
    assert _coordinates(guessed) == ["org.mockito:mockito-junit-jupiter:5.14.2"]


def test_the_classpath_says_whether_junit_jupiter_params_is_there() -> None:
    debian = detect_frameworks(system_jars())  # the console launcher bundles params
    assert debian.junit_params and not debian.mockito_extension
    assert _coordinates(debian, parameterized=True) == [f"org.mockito:mockito-junit-jupiter:{debian.mockito}"]
