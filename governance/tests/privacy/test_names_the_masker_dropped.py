"""Round 56: names the masker found and then dropped, each beside what must stay as written.

* a given name that is a determiner of some language, alone ("Mia is on call", "her cell (Mio)"), was read as a noun
  phrase (in a sentence of another language it still is: "Les options sont …"); so was a surname opened by its
  article ("Lo Russo", "La Rosa");
* a message signed in lower case after a dash ("… — sam") was never seen: the masker reads normalised text, where
  every dash is a hyphen-minus;
* a double given name before a firm's slot ("CUSTOMER JOHN-PAUL MCALLISTER called") was a firm: its parts are
  names;
* a person named by a role only people hold ("the agent Lindiwe hung up on him", "our new intern Kofi").
"""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

KEY = b"project-secret-1"

MASKED = [
    ("Mia is on call tonight, ping her if the deploy breaks", "Mia"),
    ("ask Mia about the deploy", "Mia"),
    ("0 8 0 - 4 4 1 2 - 7 7 3 0 is her cell (Mio)", "Mio"),
    ("presenti De Santis, Lo Russo e la dott.ssa Esposito", "Lo Russo"),
    ("review by La Rosa before Friday", "La Rosa"),
    ("slow day, sorry all — priya", "priya"),
    ("will pick up the flaky test tomorrow – priya", "priya"),
    ("CUSTOMER JOHN-PAUL MCALLISTER CALLED THREE TIMES ABOUT THE INVOICE", "MCALLISTER"),
    ("Says the agent Lindiwe hung up on him twice.", "Lindiwe"),
    ("our new intern Kofi starts Monday, give him repo access", "Kofi"),
    ("the support agent, Ama, escalated the ticket", "Ama"),
]
KEPT = [
    "The Beatles playlist is on",
    "Meine Nummer ist neu",
    "restart the agent Telegraf on the edge nodes",
    "rebased on main - done",
    "Les modèles sont des descriptions de tous les objets du système",  # a determiner of its language
    "Het is mogelijk niet via de beheerwebsite toegevoegd.",
    "Ce n'est pas une option valide. Les options sont : 'group', 'name' et None. La valeur par défaut est None.",
]


@pytest.mark.parametrize(("text", "name"), MASKED)
def test_the_name_is_masked(text, name):
    result = mask(text, key=KEY)
    assert name not in result.text, result.text


@pytest.mark.parametrize("text", KEPT)
def test_what_names_no_one_stays(text):
    result = mask(text, key=KEY)
    assert result.text == text, result.text
