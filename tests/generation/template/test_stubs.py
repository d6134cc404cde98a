"""Which call a Mockito stub sets up, in each form a stub is written, so unmatched stubs are left out."""

from __future__ import annotations

from junitbot.generation.template.stubs import stubbed_call, unused_stub


def test_every_form_of_stub_names_its_mock_method_and_arity() -> None:
    assert stubbed_call("when(orders.find(any(OrderId.class))).thenReturn(Optional.empty());") == (
        "orders", "find", 1)
    assert stubbed_call('when(pricing.price(any(), anyInt())).thenThrow(new IllegalStateException("a, b"));') == (
        "pricing", "price", 2)
    assert stubbed_call('doThrow(new IllegalStateException("collaborator failed")).when(events).publish(any());') == (
        "events", "publish", 1)
    assert stubbed_call("doReturn(1L).when(time).now();") == ("time", "now", 0)
    assert stubbed_call("doAnswer(i -> i.getArgument(0)).when(codec).encode(anyString(), eq(\"x)\"));") == (
        "codec", "encode", 2)
    assert stubbed_call("doNothing().when(events).publish(any());") == ("events", "publish", 1)
    assert stubbed_call("lenient().when(clock.instant()).thenReturn(NOW);") == ("clock", "instant", 0)
    assert stubbed_call("Mockito.when(repo.save(\n        any(Order.class)))\n    .thenReturn(order)\n"
                        "    .thenThrow(new RuntimeException());") == ("repo", "save", 1)
    assert stubbed_call("given(repo.load(any())).willReturn(order);") == ("repo", "load", 1)
    assert stubbed_call("willThrow(new IOException()).given(store).flush();") == ("store", "flush", 0)


def test_only_stubs_no_call_matched_are_unused() -> None:
    used = {("orders", "find", 1)}
    assert not unused_stub("when(orders.find(any(OrderId.class))).thenReturn(Optional.empty());", used)
    assert unused_stub("when(orders.find(any(), any())).thenReturn(Optional.empty());", used)  # the other overload
    assert unused_stub("doThrow(new IllegalStateException()).when(events).publish(any());", used)
    assert not unused_stub('String sku = "ABC-1234";', used)  # no stub at all
    assert not unused_stub("verify(orders).find(any());", used)
    assert stubbed_call("whenReady(orders.find(x));") is None
