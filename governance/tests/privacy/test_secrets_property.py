"""Property: a planted secret (valid shape) or e-mail never survives masking, whatever prose surrounds it."""

from __future__ import annotations

import base64
import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from governance.privacy.engine import mask, mask_many

KEY = b"property-key"
B62 = string.ascii_letters + string.digits
URLSAFE = B62 + "-_"
HYPO = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _mixed(alphabet: str, n: int) -> st.SearchStrategy[str]:
    """n characters from ``alphabet`` with at least one upper, one lower and one digit."""
    return st.text(alphabet, min_size=n, max_size=n).filter(
        lambda s: any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s)
    )


def _b64url_json(obj) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


openai = st.builds(
    lambda a, b: f"sk-proj-{a}T3BlbkFJ{b}", _mixed(URLSAFE, 48), _mixed(URLSAFE, 24)
) | st.builds(lambda a: f"sk-{a}", _mixed(B62, 48))
anthropic = st.builds(lambda a: f"sk-ant-api03-{a}AA", _mixed(URLSAFE, 93))
aws_id = st.builds(
    lambda p, a: p + a,
    st.sampled_from(["AKIA", "ASIA"]),
    st.text(string.ascii_uppercase + "234567", min_size=16, max_size=16),
)
github = st.builds(
    lambda p, a: p + a, st.sampled_from(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]), _mixed(B62, 36)
) | st.builds(lambda a, b: f"github_pat_{a}_{b}", _mixed(B62, 22), _mixed(B62, 59))
gitlab = st.builds(lambda a: f"glpat-{a}", _mixed(URLSAFE, 20))
slack = st.builds(
    lambda a, b, c: f"xoxb-{a}-{b}-{c}",
    st.text(string.digits, min_size=11, max_size=11),
    st.text(string.digits, min_size=13, max_size=13),
    _mixed(B62, 24),
)
stripe = st.builds(
    lambda p, a: p + a, st.sampled_from(["sk_live_", "sk_test_", "rk_live_", "pk_live_"]), _mixed(B62, 24)
)
google = st.builds(lambda a: "AIza" + a, _mixed(URLSAFE, 35))
jwt = st.builds(
    lambda sub, sig: f"{_b64url_json({'alg': 'HS256', 'typ': 'JWT'})}.{_b64url_json({'sub': sub})}.{sig}",
    st.integers(1, 10**9),
    _mixed(URLSAFE, 43),
)
pem = st.builds(
    lambda kind, body: f"-----BEGIN {kind}-----\n{body[:64]}\n{body[64:]}\n-----END {kind}-----",
    st.sampled_from(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"]),
    _mixed(B62 + "+/", 100),
)
SHAPED = openai | anthropic | aws_id | github | gitlab | slack | stripe | google | jwt | pem

# realistic chosen passwords: start with a letter or digit (a leading "=" would read as "password==x" code)
password_value = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(string.ascii_letters + string.digits),
    st.text(string.ascii_letters + string.digits + "!#%^&*-_+=@$.", min_size=7, max_size=19),
).filter(lambda s: any(c.isdigit() for c in s) and any(c.isalpha() for c in s))
# (template, value) pairs: the secret is the value given in context
IN_CONTEXT = st.tuples(
    st.sampled_from(
        [
            "password={}",
            "DB_PASSWORD={}",
            '"password": "{}"',
            "my password is {}",
            "passwd: {}",
            "api_key={}",
            "client_secret: {}",
            "postgres://app:{}@db.internal:5432/app",
            "redis://:{}@cache:6379/0",
            "Authorization: Bearer {}",
        ]
    ),
    password_value,
)

WORDS = (
    "the a we deploy agent memory user asked about weather today it was fine please check logs again "
    "tomorrow meeting notes project budget review team shipped build failed retry later and then "
    "because config value server cache queue worker idle session summary episode preference coffee "
    "lunch office remote plan sprint ticket bug fix release note thanks ok sure maybe"
).split()
prose = st.lists(st.sampled_from(WORDS), min_size=0, max_size=25).map(" ".join)
sep = st.sampled_from([" ", "\n", ": ", " -> ", "\n\n"])

email = st.builds(
    lambda local, dom, tld: f"{local}@{dom}.{tld}",
    st.from_regex(r"[a-z][a-z0-9]{1,10}(\.[a-z0-9]{2,8})?", fullmatch=True),
    st.from_regex(r"[a-z][a-z0-9-]{1,12}[a-z0-9]", fullmatch=True),
    st.sampled_from(["com", "org", "net", "io", "de", "co.uk", "com.au", "fr", "dev"]),
)


def _plant(before: str, s1: str, secret: str, s2: str, after: str) -> str:
    return f"{before}{s1}{secret}{s2}{after}"


@HYPO
@given(before=prose, after=prose, s1=sep, s2=sep, secret=SHAPED)
def test_shaped_secret_never_survives_mask(before, after, s1, s2, secret):
    text = _plant(before, s1, secret, s2, after)
    out = mask(text, key=KEY).text
    assert secret not in out
    assert "<SECRET:" in out


@HYPO
@given(before=prose, after=prose, s1=sep, s2=sep, pair=IN_CONTEXT)
def test_secret_in_context_never_survives_mask(before, after, s1, s2, pair):
    template, value = pair
    text = _plant(before, s1, template.format(value), s2, after)
    out = mask(text, key=KEY).text
    assert value not in out


@HYPO
@given(before=prose, after=prose, s1=sep, s2=sep, address=email)
def test_email_never_survives_mask(before, after, s1, s2, address):
    text = _plant(before, s1, address, s2, after)
    out = mask(text, key=KEY).text
    assert address not in out
    assert "<EMAIL_ADDRESS_" in out


@settings(max_examples=15, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    items=st.lists(
        st.tuples(prose, sep, SHAPED | email, sep, prose),
        min_size=1,
        max_size=12,
    )
)
def test_nothing_planted_survives_mask_many(items):
    texts = [_plant(*it) for it in items]
    outs = mask_many(texts, key=KEY)
    for (_, _, planted, _, _), res in zip(items, outs, strict=True):
        assert planted not in res.text


# Examples the properties above found (they failed intermittently before the fixes); kept as fixed cases.
@pytest.mark.parametrize(
    "text,value",
    [
        (" redis://:a@000001@cache:6379/0 ", "a@000001"),  # "@" in a password: the authority's last "@" ends it
        (" password=aN_00000 ", "aN_00000"),  # "an_..." was read as a template slot such as "a_password"
    ],
)
def test_examples_found_by_the_properties(text, value):
    out = mask(text, key=KEY).text
    assert value not in out
    for part in value.split("@"):  # no piece of it either
        assert len(part) < 3 or part not in out
