"""The small English model reads a capitalised word of another language as a person or a place ("Obrigado por passar
…", "Społeczność Django jest …"). The common words of the other languages the masker can tell a sentence is written
in, that no list holds as a name or a place (governance/privacy/data/foreign_common_words.txt, built from wordfreq's
lists), are plain words in a sentence of their language: the model's guess alone on one is none. Names in the same
sentences stay masked, and so does such a word in English text, a record or a sentence of an untold language."""

from __future__ import annotations

import pytest

from governance.privacy import vocabulary
from governance.privacy.engine import mask

KEY = b"project-secret-1"


def test_the_committed_list_holds_common_words_per_language_and_no_name():
    words = vocabulary.foreign_common_words()
    assert words["obrigado"] == {"pt"} and words["społeczność"] == {"pl"} and words["mehrere"] == {"de"}
    # a name or a place of any list stays out, also when it is a common word somewhere ("deniz", sea; "roma")
    assert not {"deniz", "putri", "melih", "joana", "roma", "karthik", "frankfurt"} & words.keys()
    assert vocabulary.foreign_word_languages("Obrigado,") == {"pt"}
    assert vocabulary.foreign_word_languages("Joana") == frozenset()


def test_the_build_keeps_names_places_and_words_of_every_language_out():
    words = vocabulary.foreign_common_words_of({"deniz"}, ["tr"], among=["tr", "de", "es", "pt", "it"])
    assert words["bir"] == ["tr"] and words["için"] == ["tr"]
    assert "deniz" not in words


@pytest.mark.parametrize("text", [
    "Obrigado por passar algum tempo de qualidade com o site hoje.",
    "Społeczność Django jest otwarta dla wszystkich.",
])
def test_a_common_word_of_the_sentences_language_is_no_name_nor_place(text):
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize(("text", "names"), [
    ("Obrigado, Joana, pelo relatório de ontem.", ["Joana"]),
    ("Deniz deploy etti, Putri de testleri yazdı.", ["Deniz", "Putri"]),
    ("Grazie Giulia per la review!", ["Giulia"]),
    # "bayu" is a common Indonesian and Malay word and a name: the masker tells no Indonesian sentence (no stop-word
    # list), so the list leaves the language out and the model's guess stands, as in English text and in a record
    ("Terima kasih Bayu, sudah saya perbaiki.", ["Bayu"]),
    ("Bayu fixed the flaky test and pushed it", ["Bayu"]),
    ("name: Bayu | dept: QA", ["Bayu"]),
])
def test_names_beside_them_and_such_words_outside_their_language_stay_masked(text, names):
    masked = mask(text, key=KEY).text
    assert not any(name in masked for name in names), masked
