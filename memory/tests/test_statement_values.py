"""The values a statement names, one value however it is written (memory.statement_values): what tells a change
from a paraphrase, and an exchange that names another value from evidence."""

from __future__ import annotations

import pytest

from memory.statement_values import names_other_values, numbers_as_digits, statement_values


@pytest.mark.parametrize(("a", "b"), [
    ("iOS sixteen is the minimum.", "The deployment target is iOS 16.0."),
    ("Refunds above two hundred euros need a lead.", "Anything above 200 euros needs a lead."),
    ("A first reply within half an hour.", "A first response within 30 minutes."),
    ("We ship every two weeks.", "A new version goes out once per two-week sprint."),
    ("The release train leaves every fortnight.", "Up to fourteen days until users get it."),
    ("PRs of at most four hundred lines.", "This PR touches 1,200 lines; keep it under 400."),
    ("Chats are deleted after ninety days.", "Transcripts are purged once they are 90 days old."),
])
def test_one_value_written_two_ways_is_one_value(a, b):
    assert not names_other_values(a, b)


@pytest.mark.parametrize(("new", "old"), [
    ("On-call now starts on Wednesdays.", "On-call starts on Mondays."),
    ("P1 tickets must be answered within fifteen minutes.", "A first response within half an hour."),
    ("The app requires iOS 17 or newer.", "The app supports iOS sixteen and newer."),
    ("We release every week.", "We release every two weeks."),
])
def test_another_value_of_the_same_kind_is_another_value(new, old):
    assert names_other_values(new, old)


def test_values_of_different_kinds_or_units_are_not_compared():
    # a day and a number are no two values of one kind; the modal "may" is no month
    assert not names_other_values("We may only ask for the last 4 digits.", "Never in May.")
    assert statement_values("We may only ask for the last four digits.") == {"number": {"4"}}
    assert statement_values("Since early May 3 agents") == {"month": {"may"}, "number": {"3"}}
    # days and months are not converted into each other: "90 days" and "three months" are neither equal nor other
    assert not names_other_values("Kept for 90 days.", "Kept for three months.")


def test_lone_one_and_a_are_no_numbers_but_units_and_scales_make_them_so():
    assert statement_values("The one in the ticket, one JSON object per line.") == {}
    assert statement_values("A hundred lines") == {"number": {"100"}}
    assert statement_values("within an hour") == {"duration:min": {"60"}}
    assert statement_values("one hundred and fifty, twenty-five") == {"number": {"150", "25"}}
    assert statement_values("at 9:30 on Mondays") == {"weekday": {"monday"}, "time": {"9:30"}}
    # identifiers are no numbers
    assert statement_values("P1 tickets and the v2 API") == {}


def test_numbers_as_digits():
    assert numbers_as_digits("two approvals, four hundred lines, twenty-five, the one") == \
        "2 approvals, 400 lines, 25, the one"
