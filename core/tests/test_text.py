from core.text import STOPWORDS, content_words, tokens, words


def test_words_are_lower_case_letter_and_digit_runs():
    assert words("User's 2nd run: Berlin-Marathon, 2023-09-24!") == ["user", "s", "2nd", "run", "berlin", "marathon",
                                                                    "2023", "09", "24"]
    assert words(None) == []


def test_content_words_drop_the_stopwords():
    assert content_words("The Berlin marathon is what I ran") == ["berlin", "marathon", "ran"]
    assert {"the", "is", "what", "i"} <= STOPWORDS


def test_tokens_keep_placeholders_and_apostrophes_whole():
    assert tokens("<PERSON_3f2a9c>'s user's Café") == ["<person_3f2a9c>'s", "user's", "café"]
