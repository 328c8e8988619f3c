"""Credentials said the way people say them: numbers named by what they open (PINs, door and one-time codes, backup
codes), a user and a password said together, a Wi-Fi key without a separator, what a password is for in several
words, who chose it, a quoted passphrase, the answer to a security question, a secret spelled out one character at a
time — and the technical prose around the same words that must stay."""

from __future__ import annotations

import random

import pytest

from bench.canaries import Canaries
from governance.privacy.recognizers import find_secrets

from .secret_checks import covered, secret_spans

C = Canaries(random.Random(20261205))
PW = C.password()
rng = random.Random(37)


def digits(n: int) -> str:
    while True:  # a real code: not one digit repeated
        value = "".join(rng.choice("0123456789") for _ in range(n))
        if len(set(value)) > 2:
            return value


P4, P5, P6, P7 = digits(4), digits(5), digits(6), digits(7)
CODES = [
    (f"my PIN for the card is {P4}", P4),
    (f"Card PIN: {P4}", P4),
    (f"her ATM pin number is {P4}", P4),
    (f"the door code is {P4}#", P4),
    (f"alarm code {P5}, don't share it", P5),
    (f"the alarm disarm code was changed to {P5}#", P5),
    (f"the garage code we use is {P4}", P4),
    (f"the one-time code they sent was {P6}", P6),
    (f"OTP {P6[:3]} {P6[3:]} expires in 5 minutes", f"{P6[:3]} {P6[3:]}"),
    (f"the safe combination is {P6[:2]}-{P6[2:4]}-{P6[4:]}", f"{P6[:2]}-{P6[2:4]}-{P6[4:]}"),
    (f"the unlock code for the phone is {P7}", P7),
    (f"backup codes: {(codes := f'{P4}-{P4[::-1]} {P6[:4]}-{P5[:4]} {P7[:4]}-{P4}')}", codes),
    ("the recovery codes are 8f3k-2m9q, 7x4p-1n6w, 3c8v-5b2z", "8f3k-2m9q, 7x4p-1n6w, 3c8v-5b2z"),
]


@pytest.mark.parametrize("text,value", CODES, ids=[t[:24] for t, _ in CODES])
def test_a_number_named_by_what_it_opens_is_a_secret(text, value):
    assert covered(text, value)


SAID = [
    f"DB creds are svc_app / {PW}",
    f"creds: admin / {PW}",
    f"you can log in with mkowalski and {PW}",
    f"SMTP relay uses user noreply and {PW}",
    f"the mqtt broker: user iot_dev and secret {PW}",
    f"my netflix login is anna.k@example.com / {PW}",
    f"WPA key {PW}",
    f"guest wifi key {PW}",
    f"wifi password for the guest network: {PW}",
    f"the sudo password on the build box is {PW}",
    f"the password to the admin panel of the CMS is {PW}",
    f"the password we set on the old printer is {PW}",
    f"Password hint: it's {PW} (the cat's name)",
]


@pytest.mark.parametrize("text", SAID, ids=[t[:24] for t in SAID])
def test_a_password_said_in_prose_is_a_secret(text):
    assert covered(text, PW)


@pytest.mark.parametrize("text,value", [
    ('the passphrase for the signing key is "river otter moonlight 1911"', "river otter moonlight 1911"),
    ('secret phrase for the vault: "orange tractor fifteen lanterns"', "orange tractor fifteen lanterns"),
    ('the secret answer to the security question is "Buttercup"', "Buttercup"),
    ("mother's maiden name is Kowalczyk", "Kowalczyk"),
    ("memorable word: dachshund", "dachshund"),
    ("the secret is spelled out: x k 9 q 2 m 7 v p 4 z 8 r 1 t 6", "x k 9 q 2 m 7 v p 4 z 8 r 1 t 6"),
    ("the password, spelled out: k - 7 - m - q - 2 - x - 9 - p", "k - 7 - m - q - 2 - x - 9 - p"),
])
def test_phrases_answers_and_spelled_secrets(text, value):
    assert covered(text, value)


PROSE = [
    "The login page with React and Vue3 renders fine now.",
    "Sign in with Google and GitHub both work after the OAuth fix.",
    "account 12345 / 67890 were merged yesterday",
    "The error code 5003 means the upstream timed out.",
    "exit code 137 means the container was OOM-killed.",
    "The pin 3 of the header carries 3.3V.",
    "Pin the version to 4.2.1 in requirements.txt.",
    "The access code 2024 rollout plan is in Confluence.",
    "The verification code is sent by e-mail within 30 seconds.",
    "Backup codes are stored in 1Password for the team.",
    "Sign-in codes are 6 digits long.",
    "The security code field accepts 3 or 4 digits.",
    "The zip code 10115 is Berlin Mitte.",
    "The door code changed in 2024 after the audit.",
    "login as root/toor on the test VM is disabled.",
    "The user and group ids are 1000:1000 in the container.",
    "Our user base grew 12% / 8% quarter over quarter.",
    "WPA key management is configured in hostapd.conf.",
    "The password for the new hire is sent by mail.",
    "The API key for the staging project is in Vault under kv/staging.",
    "Spell it out: R E A D M E in capitals.",
    "Step codes: A1, B2, C3 in the runbook.",
    "The PIN pad driver version 2.1 is installed.",
    "user: bob / role: admin",
    "Security answer fields are hashed with Argon2.",
    'the password is "the same as before"',
    "the combination of 2 drugs 1500 mg daily",
    "the access code path handles 2048 requests per second",
]


@pytest.mark.parametrize("text", PROSE, ids=[t[:24] for t in PROSE])
def test_technical_prose_with_the_same_words_stays(text):
    assert find_secrets(text) == [], secret_spans(text)
