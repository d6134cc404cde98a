"""Fixtures of the model-backend tests: the chat server double, the tiny model, an indexed shop."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.validation import Frameworks
from tests.generation.conftest import Indexed, copy_shop, index
from tests.generation.llm.doubles import ChatServer, serve
from tests.generation.llm.tiny_model import build_tiny_model

INVENTORY = "com.acme.shop.application.InventoryService"
INVENTORY_TEST = "src/test/java/com/acme/shop/application/InventoryServiceGeneratedTest.java"
MONEY = "com.acme.shop.domain.Money"
MONEY_TEST = "src/test/java/com/acme/shop/domain/MoneyGeneratedTest.java"
# The Debian classpath of these machines: Mockito 2.23 without MockitoExtension.
FRAMEWORKS = Frameworks(junit_jupiter="5.9.2", mockito="2.23.0", assertj="3.14.0", hamcrest="2")

GOOD_METHODS = """Here are the tests.

```java
import java.util.List;

@Test
void skusToReorder_whenNothingIsLow_returnsEmpty() {
    // Arrange
    when(products.findLowStock(5)).thenReturn(List.of());
    // Act
    List<String> result = inventoryService.skusToReorder(5);
    // Assert
    assertEquals(List.of(), result);
}
```
"""
# A made-up method no deterministic repair renames (none of the class's is close): the model must fix it.
BROKEN_METHODS = GOOD_METHODS.replace("inventoryService.skusToReorder(5)", "inventoryService.reorderableSkus(5)")
PROSE = "I'm sorry, I cannot write tests for this class without more information about its behaviour."


@pytest.fixture(scope="session")
def chat_server() -> Iterator[ChatServer]:
    yield from serve()


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Llama and its BPE tokenizer (trained on the example sources), saved in a folder."""
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")


@pytest.fixture(scope="package")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    """The example shop indexed, validated with one run per class (enough for these tests)."""
    root = copy_shop(tmp_path_factory.mktemp("llm") / "shop")
    yield from index(root, config_text="validation:\n  repetitions: 1\n")


@pytest.fixture(autouse=True)
def _quiet_transformers() -> None:
    logging.getLogger("transformers").setLevel(logging.ERROR)
