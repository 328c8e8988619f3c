"""Round 50: other languages' phone numbers and names as they are written.

A phone number written in the national layout of the language of its sentence, with no country code and no phone
word, was kept in clear ("Atención al cliente de Fontanería López: 902 123 456", "Le standard de la mairie : 01 42 76
40 40", "Lo trovi al 347 123 4567"): the project's region (`RECMEM_PII_PHONE_REGION`, US by default) is one
country's numbering plan, and the loose recognizer needs a phone word for a grouped run of digits. Now a sentence
that reads as written in Spanish, Portuguese, Italian, French, German, Dutch, Polish, Greek, a Nordic language,
Czech, Romanian, Hungarian or Turkish has its grouped numbers tried against that language's plans
(`numbers.LANGUAGE_REGIONS`). An English sentence, a sum with its thousands spaced ("123 456 789 zł") and a date
keep their digits. And a given name was kept where its language writes it with an article ("o João") or in a case
("Janovi", "Agnieszką", "Mikolta", "Ahmet'in"). The examples are written for the tests, not copied from the measured
sets."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask
from governance.privacy.recognizers._common import written_languages

KEY = b"k"


@pytest.mark.parametrize(("text", "number"), [
    ("Atención al cliente de Fontanería Ruiz: 902 123 456, de lunes a viernes.", "902 123 456"),
    ("Búscame en el 612 34 56 78 si hay algo urgente.", "612 34 56 78"),
    ("Apoio ao cliente: 213 456 789 (dias úteis).", "213 456 789"),
    ("O suporte atende no (11) 91234-5678 depois das 14h.", "(11) 91234-5678"),
    ("Lo trovi al 347 123 4567 oppure in ufficio.", "347 123 4567"),
    ("Le standard de la mairie : 01 42 76 40 40.", "01 42 76 40 40"),
    ("Het algemene nummer is 020 624 1876, vraag naar de balie.", "020 624 1876"),
    ("Biuro obsługi: 22 628 44 19, pon-pt.", "22 628 44 19"),
    ("Κλείστε ραντεβού στο 210 123 4567.", "210 123 4567"),
    ("Ring til kontoret på 33 12 34 56 i morgen.", "33 12 34 56"),
    ("Kari nås på 912 34 567 i dag.", "912 34 567"),
])
def test_a_number_in_the_layout_of_its_sentences_language_is_masked(text, number):
    masked = mask(text, key=KEY).text
    assert number not in masked, masked
    assert "<PHONE_NUMBER_" in masked, masked


@pytest.mark.parametrize("text", [
    "Order 902 123 456 shipped to the warehouse in three boxes.",  # English: the plans are not tried
    "Build 912 345 678 passed all checks.",
    "The table has 12 345 678 rows and 902 123 456 bytes.",
    "Budżet projektu to 123 456 789 zł netto.",  # a sum, its thousands spaced
    "El presupuesto es de 912 345 678 € este año.",
    "O custo total foi de R$ 213 456 789 no ano.",
    "El lote 2024 03 15 se procesó con 12 345 678 filas.",  # a date; a count no plan dials
])
def test_english_sums_and_dates_keep_their_digits(text):
    masked = mask(text, key=KEY).text
    assert "<PHONE_NUMBER_" not in masked, masked


@pytest.mark.parametrize(("text", "languages"), [
    ("Atención al cliente de Fontanería Ruiz: 902 123 456, de lunes a viernes.", {"es"}),
    ("Biuro obsługi: 22 628 44 19, pon-pt.", {"pl"}),
    ("Κλείστε ραντεβού στο 210 123 4567.", {"el"}),
    ("Please call the front desk about the 902 123 456 ticket.", set()),
    ("kubectl rollout restart deploy/api -n prod", set()),
])
def test_the_language_a_sentence_reads_as_written_in(text, languages):
    found = written_languages(text)
    assert languages <= found and (languages or not found), found


# A given name after the word its language leads a person's name with: Portuguese's article ("o João", "a Beatriz e
# o Tiago"), the "a" of Italian and Spanish (to), spoken German's article. In English "a Redis cluster" stays a thing.
@pytest.mark.parametrize(("text", "names"), [
    ("O João atende os clientes depois das 14h.", ["João"]),
    ("Fala com o Rodrigo sobre o deploy.", ["Rodrigo"]),
    ("A Beatriz e o Tiago cuidam do on-call esta semana.", ["Beatriz", "Tiago"]),
    ("Chiedi a Francesca se il rilascio è pronto.", ["Francesca"]),
])
def test_a_given_name_after_the_article_its_language_puts_before_names(text, names):
    masked = mask(text, key=KEY).text
    for name in names:
        assert name not in masked, masked


# A given name in the case its sentence puts it in: Finnish, Czech, Polish and Hungarian inflect names, Turkish writes
# the case after an apostrophe, German's genitive adds an s. A word opening a sentence ("Este", "Alle") and the
# function words of those languages are not read as names; nor is anything in an English sentence.
@pytest.mark.parametrize(("text", "name"), [
    ("Kysy tältä Mikolta onko julkaisu valmis.", "Mikolta"),
    ("Zeptej se Petry, jestli je build zelený.", "Petry"),
    ("Pošli to Janovi na review.", "Janovi"),
    ("Mluvil jsem s Martinou o deployi.", "Martinou"),
    ("Rozmawiałem z Agnieszką o migracji.", "Agnieszką"),
    ("Daj znać Tomaszowi, że build przeszedł.", "Tomaszowi"),
    ("Szóljatok holnap Annának a release-ről.", "Annának"),
    ("Ahmet'in laptopu hâlâ tamirde.", "Ahmet"),
    ("Zeynep'e sor, release hazır mı.", "Zeynep"),
])
def test_a_given_name_in_the_case_its_sentence_puts_it_in(text, name):
    masked = mask(text, key=KEY).text
    assert name not in masked, masked
    assert "<PERSON_" in masked, masked


@pytest.mark.parametrize("text", [
    "Este campo no puede estar vacío.",  # a sentence's first word: "Este" is no case of Esta
    "Alle filters wissen",
    "Der Anfang des Wertbereichs darf nicht das Ende überschreiten.",
    "Kurdiska (Sorani)",  # too short to tell its language
    "The Annas cluster restarted twice.",  # English: no case endings are read
])
def test_words_that_only_look_like_a_case_of_a_name_stay(text):
    masked = mask(text, key=KEY).text
    for word in ("Este", "Alle", "Ende", "Sorani", "Annas"):
        if word in text:
            assert word in masked, masked


# A mobile number right after its owner's name, in the owner's country's layout, in an English sentence with no
# phone word: valid as a mobile in one of the plans of `numbers.MOBILE_REGIONS`.
@pytest.mark.parametrize(("text", "number"), [
    ("Priya is on 98765 43210 this week.", "98765 43210"),
    ("Linh 0901 234 567 is our courier.", "0901 234 567"),
    ("Wang Wei 138 0013 8000 is the supplier contact.", "138 0013 8000"),
    ("Rahim 01712-345678 is the driver.", "01712-345678"),
    ("Fatima 0551234567 is in Riyadh.", "0551234567"),
    ("Valentina 300 123 4567 handles Bogotá.", "300 123 4567"),
])
def test_a_mobile_number_beside_its_owners_name(text, number):
    masked = mask(text, key=KEY).text
    assert number not in masked, masked


@pytest.mark.parametrize("text", [
    "Sprint 2024 1234 closed with 40 points.",  # no given name before it
    "Build 9123 4567 passed.",
    "Ticket 8123 4567 is a duplicate.",
    "Kafka 3512 3456 offsets lagged.",
    "Anna paid 100 000 € for the licence.",
])
def test_a_number_after_a_word_that_is_no_name_stays(text):
    masked = mask(text, key=KEY).text
    assert "<PHONE_NUMBER_" not in masked, masked


# Names a cue points at although no list holds them: a title before a surname with its particle ("Mevrouw de
# Vries"), Turkish titles before and after a name ("Bayan Yılmaz", "Ahmet Bey"), what a person writes or owns after a
# possessive ("Chidi's comment"), a person cited ("Per Olusegun,"), pinged, or pairing with "I".
@pytest.mark.parametrize(("text", "name"), [
    ("Mevrouw de Vries belde over haar factuur.", "Vries"),
    ("Herr von Weizsäcker hat angerufen.", "Weizsäcker"),
    ("Bayan Yılmaz faturası için aradı.", "Yılmaz"),
    ("Ahmet Bey toplantıya gelecek mi?", "Ahmet"),
    ("Chidi's comment on line 88 is right, that goroutine leaks.", "Chidi"),
    ("Tendai's PR fixes the leak in the uploader.", "Tendai"),
    ("Per Olusegun, the cutover is at 9.", "Olusegun"),
    ("Pinging Themba about the outage.", "Themba"),
    ("Lerato and I paired on it yesterday.", "Lerato"),
])
def test_a_name_a_cue_points_at(text, name):
    masked = mask(text, key=KEY).text
    assert name not in masked, masked


@pytest.mark.parametrize(("text", "kept"), [
    ("Heads-up, code freeze begins 48 hours before Wednesday's branch cut.", "Wednesday"),
    ("Grafana's dashboard is slow again.", "Grafana"),
    ("Kubernetes's scheduler ignored the taint.", "Kubernetes"),
    ("The price is per request, billed monthly.", "request"),
])
def test_a_possessive_of_a_day_or_a_product_is_no_one(text, kept):
    masked = mask(text, key=KEY).text
    assert kept in masked, masked


def test_a_commits_trailer_names_a_person_with_or_without_an_address():
    masked = mask("Fix the retry loop\n\nSigned-off-by: Tunde Bakare\nReviewed-by: Chiamaka Obi", key=KEY).text
    assert "Tunde" not in masked and "Bakare" not in masked and "Chiamaka" not in masked, masked
