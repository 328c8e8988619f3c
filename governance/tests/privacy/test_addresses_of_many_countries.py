"""Street addresses as other countries write them (round 44, read on the tune half of the leak set): the street type
first and in lower case after the house number (French), the Russian, Turkish and Indian forms, a Dutch street after
its particle and with its floor, and the floor and door after a street. Words of English that are street types too
stay ("sent 2 via Slack")."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

KEY = b"k"


@pytest.mark.parametrize(("text", "parts"), [
    ("Cliente: Marie Dubois, 12 bis, rue des Acacias, 69003 Lyon.", ["Acacias"]),
    ("Anne Roy, 1450, rue Saint-Denis, app. 302, Montréal (Québec) H2X 3J8.", ["Saint-Denis", "302"]),
    ("j'habite au 8 avenue Jean Jaurès, 31000 Toulouse", ["Jean", "Jaurès"]),
    ("Mi dirección es Calle Mayor 45, 2º izquierda, 50001 Zaragoza.", ["Mayor", "izquierda"]),
    ("Adresim: Atatürk Bulvarı No: 118 Daire 5, Çankaya.", ["Atatürk", "118"]),
    ("Yeni adres: Bağdat Caddesi No: 221/4, Kadıköy.", ["Bağdat", "221"]),
    ("Прошу изменить адрес доставки: ул. Ленина, д. 24, кв. 7.", ["Ленина", "24"]),
    ("KYC: residing at Flat 302, Sai Krupa Apartments, 14th Cross, Indiranagar, Bengaluru 560038.",
     ["Krupa", "Indiranagar", "302"]),
    ("Jan is verhuisd naar Van Speijkstraat 71-II, 1057 GS Amsterdam.", ["Speijkstraat", "71-II"]),
    ("Het nieuwe adres is Prinsengracht 263, Amsterdam.", ["Prinsengracht", "263"]),
])
def test_an_address_of_another_country_is_masked_whole(text, parts):
    masked = mask(text, key=KEY).text
    assert all(p not in masked for p in parts), masked


@pytest.mark.parametrize("text", [
    "we sent 2 via Slack and 3 place holders in the template",
    "Plot 2 shows the latency, House 3 of the tournament won",
    "the Flat 5 rate applies to 12 seats",
    "we keep 4 rue-style aliases in the config",
])
def test_english_words_of_street_types_are_no_address(text):
    assert mask(text, key=KEY).text == text
