"""Masking text with e-mails and URLs must not touch the network (tldextract uses its bundled snapshot)."""

from __future__ import annotations

import ipaddress
import socket
import time

import pytest

from governance.privacy import engine
from governance.privacy.recognizers import ensure_offline_tldextract

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_loopback(host) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode()
    host = str(host).strip("[]")
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@pytest.fixture
def no_network(monkeypatch):
    """Refuse (and record) every DNS lookup or connection to a non-loopback address."""
    attempts: list[str] = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo
    real_create_connection = socket.create_connection

    def guard(host, what):
        if not _is_loopback(host):
            attempts.append(f"{what} {host}")
            raise OSError(f"network access blocked in tests: {what} {host}")

    def connect(self, address):
        if isinstance(address, tuple):
            guard(address[0], "connect")
        return real_connect(self, address)

    def connect_ex(self, address):
        if isinstance(address, tuple):
            guard(address[0], "connect_ex")
        return real_connect_ex(self, address)

    def getaddrinfo(host, *args, **kwargs):
        guard(host, "getaddrinfo")
        return real_getaddrinfo(host, *args, **kwargs)

    def create_connection(address, *args, **kwargs):
        guard(address[0], "create_connection")
        return real_create_connection(address, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    return attempts


def test_guard_detects_a_default_tldextract(no_network, tmp_path):
    """Sanity check of the guard: a stock extractor with an empty cache does try to fetch the suffix list."""
    import tldextract

    stock = tldextract.TLDExtract(cache_dir=str(tmp_path))  # default suffix_list_urls
    stock("www.example.co.uk")  # falls back to the snapshot after the blocked fetch
    assert no_network, "the guard did not see tldextract's download attempt"


def test_offline_extractor_is_installed_where_presidio_looks():
    import tldextract.tldextract as tld_module
    from presidio_analyzer.predefined_recognizers.generic import email_recognizer

    extractor = ensure_offline_tldextract()
    assert extractor.suffix_list_urls == ()
    assert tld_module.TLD_EXTRACTOR is extractor
    assert email_recognizer.tldextract.extract is extractor
    assert ensure_offline_tldextract() is extractor  # idempotent


def test_masking_emails_and_urls_touches_no_network(no_network):
    engine.reset_analyzer()  # build the analyzer (and its email recognizer) under the guard
    try:
        texts = [
            "Mail jane.doe@example.co.uk or support@mail.example.com.au, see https://docs.example.org/a?b=1",
            "New address: ruiz.maria@correo.example.es (old: m.ruiz@example.io) www.example.net/path",
            "postgres://app:pw123456@db.example.internal/app and user@sub.domain.example.museum",
        ]
        start = time.perf_counter()
        results = engine.mask_many(texts, key=b"k")
        single = engine.mask(texts[0], key=b"k")
        elapsed = time.perf_counter() - start
    finally:
        engine.reset_analyzer()
    assert no_network == []
    assert elapsed < 30  # an offline tldextract stall would hang far longer
    assert "jane.doe@example.co.uk" not in results[0].text
    assert "support@mail.example.com.au" not in results[0].text
    assert "ruiz.maria@correo.example.es" not in results[1].text
    assert "<SECRET:url_credentials>" in results[2].text
    assert single.text == results[0].text
    assert "https://docs.example.org/a?b=1" in results[0].text  # plain URLs are kept by default
