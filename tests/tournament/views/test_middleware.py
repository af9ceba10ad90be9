"""The request's way in: hand-made query strings become values the views can use, and the client
address behind a proxy is the one the proxy saw, not one the client made up."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.test import RequestFactory, override_settings

from tournament.core.query import PAGE_MAX, clean_query
from tournament.middleware import client_address


def cleaned(query: str) -> dict[str, list[str]]:
    return dict(clean_query(QueryDict(query)).lists())


@pytest.mark.parametrize(
    "query",
    ["page=99999999999999999999", "page=0", "page=-1", "page=abc", "page=1e9", "page=%00"],
)
def test_a_page_number_that_is_no_page_is_dropped(query: str) -> None:
    assert cleaned(query) == {}


def test_a_page_number_in_range_is_kept() -> None:
    assert cleaned(f"page=3&q=x&page={PAGE_MAX}") == {"page": ["3", str(PAGE_MAX)], "q": ["x"]}


@pytest.mark.parametrize(
    ("given", "kept"),
    [("99999999999999999999", None), ("100000", "500"), ("3", "10"), ("50", "50"), ("all", "all")],
)
def test_the_page_size_is_all_or_10_to_500_rows(given: str, kept: str | None) -> None:
    assert cleaned(f"per_page={given}") == ({"per_page": [kept]} if kept else {})


def test_nul_characters_are_removed_from_every_value_and_name() -> None:
    assert cleaned("q=%00ab&so%00rt=-total%00") == {"q": ["ab"], "sort": ["-total"]}


def test_other_parameters_pass_unchanged() -> None:
    assert cleaned("category=damen&sort=-total&q=M%C3%BCller") == {
        "category": ["damen"],
        "sort": ["-total"],
        "q": ["Müller"],
    }


def request_from(remote: str, forwarded: str | None = None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().post("/anmelden/", REMOTE_ADDR=remote, **extra)


@override_settings(PROXY_COUNT=0)
def test_without_a_proxy_the_forwarded_header_is_ignored() -> None:
    assert client_address(request_from("192.0.2.10", "203.0.113.5")) == "192.0.2.10"


@override_settings(PROXY_COUNT=1)
@pytest.mark.parametrize(
    ("forwarded", "client"),
    [
        ("203.0.113.5", "203.0.113.5"),
        # whatever the client put in front of the proxy's entry is not trusted
        ("1.2.3.4, 203.0.113.5", "203.0.113.5"),
        ("2001:db8::7", "2001:db8::7"),
        # a request that did not pass the proxy, or a garbled entry: the connection's address
        (None, "10.0.0.2"),
        ("", "10.0.0.2"),
        ("not-an-address", "10.0.0.2"),
    ],
)
def test_behind_one_proxy_the_client_is_the_proxys_entry(forwarded: str | None, client: str):
    assert client_address(request_from("10.0.0.2", forwarded)) == client


@override_settings(PROXY_COUNT=2)
def test_behind_two_proxies_the_client_is_the_second_entry_from_the_right() -> None:
    request = request_from("10.0.0.3", "6.6.6.6, 203.0.113.5, 10.0.0.2")
    assert client_address(request) == "203.0.113.5"
