"""Encryption of original values behind placeholders (Fernet: AES-128-CBC + HMAC, from `cryptography`)."""

from cryptography.fernet import Fernet


def encrypt_value(value: str, key: str) -> str:
    return Fernet(key.encode()).encrypt(value.encode()).decode()


def decrypt_value(token: str, key: str) -> str:
    return Fernet(key.encode()).decrypt(token.encode()).decode()
