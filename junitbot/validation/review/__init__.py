"""A reviewer's lint over generated JUnit 5 test classes: what a maintainer would reject in review (pure).

Source text in, `ReviewFinding`s out (issue 14, "tests a maintainer merges"). Each rule fires only on the
evidence written below, so a good test is not flagged; recall is given up where the source alone cannot
tell an accident from intent. A "mock" is a `@Mock` variable or a `mock(..)` call (a spy runs real code);
the "subject" is an `@InjectMocks` variable, or one whose value is built from mocks (`new S(repo)`,
`S.of(repo)`, nested). The "reach" of a test is its body, the helpers it calls and the set-up methods.

- `npe-from-mock-default` (drops the method): the test expects a NullPointerException (`assertThrows`,
  `assertThatThrownBy(..).isInstanceOf`, `assertThatNullPointerException().isThrownBy`, a try/fail/catch)
  from an act that reaches a mock or the subject, while its reach writes no `null` (no literal, no field
  left unassigned in the act), throws nothing through a stub and answers nothing (`thenAnswer`): the NPE
  can only come from a mock's default answer, an accident of the set-up, not behaviour.
- `null-from-unstubbed-mock` (drops the method): the test asserts that a value a call on the subject
  returned is null (`assertNull`, `assertEquals(null, ..)`, `assertThat(..).isNull()`), its reach writes no
  other `null` nor answers, and it verifies a mock call it never stubbed: the null is that mock's default
  answer passed through. (Without such a verification a null may be the code's own, e.g. a field a new
  entity leaves unset, so the rule stays quiet.)
- `asserts-mock-return`: an assertion's actual value is what a mock returns (`assertEquals(2, repo.count())`),
  or an accessor of an object a stub returns read back against the value it was built with
  (`when(..).thenReturn(order)`, then `assertEquals("o-1", order.id())`), outside a test that expects an
  exception (there "unchanged" is the compensation being tested). Drops the method when every check is one.
- `weak-oracle`: every check of the test (its own, at least one, and its helpers') says nothing about
  values: `assertNotNull`, `assertThat(x).isNotNull()`, `assertTrue(x != null)`, `assertDoesNotThrow`,
  `assertThatCode(..).doesNotThrowAnyException()`, and verifications whose arguments are all `any(..)`-style
  matchers (`never()`/`times(0)` excepted: they say everything there is to say), and a value asserted equal to
  the very argument the call was given (`assertEquals(input, f(input))`: any method returning its argument
  passes; a round trip through another call is not one). A test that also drives a
  fluent test client (MockMvc's `andExpect`, WebTestClient's `expectStatus`) is left alone.
- `duplicate-body` (drops the method): a test's parameters, data annotations and body are token for token
  those of an earlier test of the same class (whitespace and comments aside); the later one is reported.
- `unused-variable`: a local that nothing reads after its declaration (a result never asserted).
- `unread-thrown`: the exception `assertThrows`/`catchThrowable` returns is kept in a local that nothing
  reads: assert on its message, or drop the variable.
- `unused-mock`: a `@Mock`/`@Spy` field no method mentions (in a class without `@InjectMocks`, which hands
  every mock over), a `mock(..)` local or a `@Mock` parameter nothing reads.
- `unused-import`: an import nothing uses, as `analysis.unused_imports` decides.
- `numbered-sibling`: a test named like another with a number added (`applyThrows2` beside `applyThrows`): the
  name should say what its scenario differs in.
- `placeholder-inputs`: every literal a test passes outside its checks is a placeholder: some placeholder text
  ("text", "foo"), beside it at most unsigned numbers; the inputs exercise nothing in particular.

A source with syntax errors is not reviewed: javac judges it first.
"""

from __future__ import annotations

from junitbot.validation.review.lint import methods_to_drop, review_sources, review_test_class, summarize
from junitbot.validation.review.models import REVIEW_RULES, ReviewFinding, ReviewRule, ReviewSummary

__all__ = [
    "REVIEW_RULES",
    "ReviewFinding",
    "ReviewRule",
    "ReviewSummary",
    "methods_to_drop",
    "review_sources",
    "review_test_class",
    "summarize",
]
