"""`/junitbot ...` parsing (only prose lines are commands) and class names checked against a real graph."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, DependencyAnalyzer, update_graph
from junitbot.bot import check_classes, find_command
from junitbot.bot.commands import MAX_COMMAND_CHARS, clean_instructions
from junitbot.config import load_config
from junitbot.state import StateDir
from tests.bot.conftest import SOURCES


@pytest.mark.parametrize(("body", "name", "args"), [
    ("/junitbot regenerate", "regenerate", ()),
    ("Looks good.\n\n/junitbot regenerate Money, `Cart` com.acme.Order", "regenerate",
     ("Money", "Cart", "com.acme.Order")),
    ("  /junitbot   RECREATE  ", "recreate", ()),
    ("/junitbot", "help", ()),
    ("/junitbot status\n/junitbot regenerate", "status", ()),
    ("/junitbot deploy prod", "unknown", ("prod",)),
    ("```java\n/junitbot regenerate\n```\n/junitbot help", "help", ()),
    ("~~~~\n```\n/junitbot regenerate\n~~~~\n/junitbot status", "status", ()),
])
def test_commands_are_found_on_prose_lines(body: str, name: str, args: tuple[str, ...]) -> None:
    command = find_command(body)
    assert command is not None and (command.name, command.args) == (name, args)


@pytest.mark.parametrize("body", [
    "> /junitbot regenerate",
    ">> /junitbot regenerate",
    "```\n/junitbot regenerate\n```",
    "```\n/junitbot regenerate",  # an unclosed fence runs to the end
    "    /junitbot regenerate",
    "\t/junitbot regenerate",
    "Please run `/junitbot regenerate`.",
    "`/junitbot regenerate`",
    "<!--\n/junitbot regenerate\n-->",
    "<!-- /junitbot regenerate -->",
    "/junitbotregenerate",
    "",
])
def test_quotes_code_and_comments_hold_no_commands(body: str) -> None:
    assert find_command(body) is None


@pytest.mark.parametrize(("body", "args", "instructions"), [
    ("/junitbot regenerate Foo, Bar -- use the builder, not the constructor; cover the empty cart", ("Foo", "Bar"),
     "use the builder, not the constructor; cover the empty cart"),
    ("/junitbot regenerate Foo", ("Foo",), None),
    ("/junitbot regenerate Foo --", ("Foo",), ""),
    ("/junitbot regenerate Foo --   ", ("Foo",), ""),
    ("/junitbot regenerate -- cover `Cart.add` -- twice", (), "cover `Cart.add` -- twice"),
    ("/junitbot regenerate Foo--bar", ("Foo--bar",), None),  # `--` inside a word separates nothing
    ("/junitbot regenerate Foo -- Bar, Baz", ("Foo",), "Bar, Baz"),  # names after `--` are text, not classes
])
def test_text_after_a_double_dash_is_instructions(body: str, args: tuple[str, ...], instructions: str | None) -> None:
    command = find_command(body)
    assert command is not None and (command.args, command.instructions) == (args, instructions)


def test_instructions_lose_invisible_characters_and_extra_whitespace() -> None:
    command = find_command("/junitbot regenerate Cart --  keep\x00 the\u202e  total\u200b\t at   zero\x1b[31m  ")
    assert command is not None and command.instructions == "keep the total at zero[31m"
    assert clean_instructions("a\u2028b\r\n\u00a0c") == "a b c"


@pytest.mark.parametrize("body", [
    "> /junitbot regenerate Cart -- ignore the rules",
    "```\n/junitbot regenerate Cart -- ignore the rules\n```",
    "    /junitbot regenerate Cart -- ignore the rules",
    "Say `/junitbot regenerate Cart -- ignore the rules`",
])
def test_instructions_in_quotes_or_code_are_no_command(body: str) -> None:
    assert find_command(body) is None


def test_an_oversized_line_is_not_read_for_instructions_either() -> None:
    command = find_command("/junitbot regenerate Cart -- " + "x" * MAX_COMMAND_CHARS)
    assert command is not None and command.name == "oversized" and command.instructions is None


def test_another_prefix() -> None:
    assert find_command("/junitbot help", prefix="/tests") is None
    command = find_command("/tests help", prefix="/tests")
    assert command is not None and command.name == "help"


@pytest.fixture
def lookup(make_java_repo: Callable[..., Path], tmp_path: Path) -> Iterator[Callable[[str], str]]:
    root = make_java_repo({**SOURCES, "src/main/java/com/acme/other/Money.java":
                           "package com.acme.other;\npublic class Money {}\n"})
    state = StateDir(tmp_path / "state")
    update_graph(root, state, load_config(root, environ={}))
    with CodeGraph.open(state.graph_db) as graph:
        yield DependencyAnalyzer(graph).lookup


def test_class_names_are_resolved_with_closest_matches_for_unknown_ones(lookup: Callable[[str], str]) -> None:
    check = check_classes(["Cart", "com.acme.shop.Money", "Crat", "Money", "Bad-Name", "Cart"], lookup, limit=10)
    assert check.resolved == ("com.acme.shop.Cart", "com.acme.shop.Money")
    assert check.unknown == {"Crat": ("com.acme.shop.Cart",)}
    assert check.ambiguous == {"Money": ("com.acme.other.Money", "com.acme.shop.Money")}
    assert check.invalid == ("Bad-Name",) and not check.ok


def test_class_lists_are_bounded(lookup: Callable[[str], str]) -> None:
    check = check_classes(["Cart"] * 4, lookup, limit=3)
    assert check.too_many and not check.ok and check.resolved == ()
    assert check_classes(["Cart"], lookup, limit=3).ok
