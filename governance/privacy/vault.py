"""Vault helpers (no DB): Fernet encryption (AES-128-CBC + HMAC, from ``cryptography``) of original values.

The one implementation of the vault crypto: :func:`governance.services.texts_mask` encrypts the originals
behind PII placeholders with :func:`encrypt_value`, :func:`governance.services.vault_reveal` decrypts them.
:mod:`governance.privacy.engine` re-exports these names.
"""

from __future__ import annotations


def generate_vault_key() -> str:
    from cryptography.fernet import Fernet

    return Fernet.generate_key().decode()


def _fernet(fernet_key: str | bytes):
    from cryptography.fernet import Fernet

    return Fernet(fernet_key.encode() if isinstance(fernet_key, str) else fernet_key)


def encrypt_value(value: str, fernet_key: str | bytes) -> str:
    return _fernet(fernet_key).encrypt(value.encode("utf-8")).decode("ascii")


def decrypt_value(token: str, fernet_key: str | bytes) -> str:
    """Raises ``cryptography.fernet.InvalidToken`` for a wrong key or a tampered token."""
    return (
        _fernet(fernet_key)
        .decrypt(token.encode("ascii") if isinstance(token, str) else token)
        .decode("utf-8")
    )


class Vault:
    """Tiny object wrapper: ``Vault(key).encrypt(value)`` / ``.decrypt(token)``."""

    def __init__(self, fernet_key: str | bytes):
        self._fernet = _fernet(fernet_key)

    def __repr__(self) -> str:
        return "Vault(<key hidden>)"

    def encrypt(self, value: str) -> str:
        return self._fernet.encrypt(value.encode("utf-8")).decode("ascii")

    def decrypt(self, token: str) -> str:
        return self._fernet.decrypt(token.encode("ascii")).decode("utf-8")
