"""Fernet vault helpers."""

from __future__ import annotations

import pytest
from cryptography.fernet import InvalidToken

from governance.privacy.vault import Vault, decrypt_value, encrypt_value, generate_vault_key


def test_round_trip_and_nondeterminism():
    key = generate_vault_key()
    value = "María José García-López <maria@example.es> ☎ +34 600 000 000"
    t1, t2 = encrypt_value(value, key), encrypt_value(value, key)
    assert t1 != t2 and value not in t1
    assert decrypt_value(t1, key) == value == decrypt_value(t2, key)


def test_wrong_key_or_tampering_fails():
    key, other = generate_vault_key(), generate_vault_key()
    token = encrypt_value("secret value", key)
    with pytest.raises(InvalidToken):
        decrypt_value(token, other)
    with pytest.raises(InvalidToken):
        decrypt_value(token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB"), key)


def test_vault_object_accepts_str_and_bytes_keys_and_hides_key():
    key = generate_vault_key()
    v1, v2 = Vault(key), Vault(key.encode())
    assert v2.decrypt(v1.encrypt("Olga Krylova")) == "Olga Krylova"
    assert key not in repr(v1)


def test_mask_result_originals_can_be_vaulted():
    from governance.privacy.engine import mask

    key = generate_vault_key()
    res = mask("Contact Olga Krylova at olga@example.com, password=Sup3rS3cret!", key=b"p")
    stored = {(e.start, e.end): encrypt_value(e.original, key) for e in res.reversible_entities()}
    assert stored and all(not e.is_secret for e in res.reversible_entities())
    assert {decrypt_value(t, key) for t in stored.values()} >= {"olga@example.com"}
