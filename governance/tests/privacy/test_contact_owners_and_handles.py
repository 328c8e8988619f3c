"""Round 53: the personal data a new blind leak set (12) found in clear, by family.

A number written a digit at a time or cut by a line break, a number inside a chat link, a messenger's handle, the
person a record, a number or a home belongs to, a name after an apology or thanks, an initial before a surname, a
condition named in a message about someone unwell, and an address whose postcode and city follow the house number
without a comma. Each family has look-alikes a team writes that must stay as they are. The examples are written for
the tests, not copied from the measured sets."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask

KEY = b"k"


def masked(text: str) -> str:
    return mask(text, key=KEY).text


def assert_masked_as(text: str, value: str, *placeholders: str) -> None:
    """``value`` is gone from the masked ``text`` and one of ``placeholders`` stands in the text."""
    out = masked(text)
    assert value not in out
    assert any(p in out for p in placeholders), out


@pytest.mark.parametrize(("text", "secret"), [
    # a number written a digit at a time, to slip past a filter or read aloud
    ("my cell is 0 7 1 - 5 5 5 - 0 1 9 3, text first", "5 5 5 - 0 1 9 3"),
    ("call her on 0-6-1-2 3-4-5-6-7-8 after lunch", "3-4-5-6-7-8"),
    # a number a line break cut in two, led by its country code
    ("her number is +44 7700\n900 461, text only", "900 461"),
    # a chat link that dials a number
    ("just use https://wa.me/5511987654321?text=oi", "5511987654321"),
    ("my telegram is t.me/+5511987654321", "5511987654321"),
])
def test_numbers_in_unusual_layouts_are_masked(text, secret):
    assert_masked_as(text, secret, "<PHONE_NUMBER_")


@pytest.mark.parametrize("text", [
    "run the sweep with seeds 1 2 3 4 5 6 7 8 9 tonight",
    "the tag is 2 0 2 4 1 2 0 1 for the release",
    "the config has 10 20 30 40 50 60 70 80 as thresholds",
])
def test_digit_runs_without_a_phone_stay(text):
    assert masked(text) == text


@pytest.mark.parametrize(("text", "handle"), [
    ('{"tel": "+20 10 0123 4567", "tg": "@karim_hassan"}', "karim_hassan"),
    ("DM me on discord, lotte#2231, Slack is muted", "lotte#2231"),
    ("her skype is live:.cid.4b1d2c3e and she is online", "live:.cid.4b1d2c3e"),
    ("his signal is just jonas.88, no phone", "jonas.88"),
])
def test_a_messengers_handle_is_masked(text, handle):
    assert_masked_as(text, handle, "<PERSON_")


@pytest.mark.parametrize("text", [
    "the signal is sent to worker.py when the job ends",
    "the line is 42 in config.yaml",
    "our discord bot posts to #deploys",
])
def test_words_that_name_a_messenger_are_no_handle(text):
    assert masked(text) == text


@pytest.mark.parametrize(("text", "name"), [
    # the holder of a personal record
    ("new starter - Adaeze Okonkwo, DOB 1996-04-11, passport B12345678", "Adaeze Okonkwo"),
    ("refund to IT60X0542811101000000123456 intestato a Giulia Ferraro", "Giulia Ferraro"),
    # reached at a number
    ("reach Kagiso at 082 555 0147 tonight", "Kagiso"),
    # in brackets after a number it owns
    ("the number is 0 8 0 - 4 4 1 2 - 7 7 3 0 (Oluwaseun, lives in Ibadan)", "Oluwaseun"),
    # opening a line before a verb of living or moving
    ("Inês s'ha mudat: Carrer de Mallorca 401, 08013 Barcelona", "Inês"),
    # after an apology or thanks
    ("sorry Kwame, I rebased over your branch", "Kwame"),
    ("dziękuję Agnieszka, poprawka działa", "Agnieszka"),
    # an initial before a surname opening the message
    ("A. Wiśniewski reviewed the migration", "Wiśniewski"),
    # a Korean name in brackets after the flat it lives in
    ("배송지: 서울특별시 마포구 월드컵북로12길 34, 502호 (박지훈) 로 보내주세요", "박지훈"),
    # in lower case with an Arabic article joined to the surname
    ("khalid al-mansouri's laptop is ready", "al-mansouri"),
    # holding a role, the clause closing on the name
    ("her onboarding buddy will be yusuf, he starts Monday", "yusuf"),
])
def test_the_owner_of_personal_data_is_masked(text, name):
    assert_masked_as(text, name, "<PERSON_")


@pytest.mark.parametrize("text", [
    "call Redis at 6379 to check the keys",
    "reach Support at 0800 123 456",
    "error 500 on port 8080 (Staging)",
    "the cluster has 3 nodes (Kafka, ZooKeeper) with 128000 partitions",
    "sorry, the build is red again",
    "A. the first option is cheaper",
    "the al-jazeera feed is down",
    "the owner is platform.",
    "the backup is daily",
])
def test_look_alikes_of_owners_stay(text):
    assert "<PERSON_" not in masked(text)


@pytest.mark.parametrize(("text", "condition"), [
    ("out this week, my kid's asthma flared again", "asthma"),
    ("he's adjusting to new ADHD meds, mornings are rough", "ADHD"),
    ("off today, migraine again", "migraine"),
    ("IN HOSPITAL WITH APPENDICITIS, WON'T MAKE THE RELEASE", "APPENDICITIS"),
    ("slow today, depression's been bad this week", "depression"),
])
def test_a_condition_in_a_message_about_someone_unwell_is_masked(text, condition):
    assert_masked_as(text, condition, "<MEDICAL_CONDITION_")


@pytest.mark.parametrize("text", [
    "the market depression hit our sales numbers again",
    "we had bad burnout after the launch",
    "the nostalgia of the old UI is real, I miss it",
    "cancer research dataset loads in 3 minutes",
])
def test_conditions_no_one_has_stay(text):
    assert "<MEDICAL_CONDITION_" not in masked(text)


@pytest.mark.parametrize(("text", "rest"), [
    ("send it to Via Roma 10 20121 Milano MI please", "20121"),
    ("new address Bahnhofstrasse 21 8001 Zürich from May", "8001"),
    ("wohnhaft Hauptstr. 5, 50667 Köln", "50667"),
    # a Brazilian address: dashes before the neighbourhood and the state
    ("endereço: Rua das Flores, 45, apto 12 - Centro, Curitiba - PR, 80020-090", "Centro"),
    # a Turkish address labels its number and flat; a Greek one names its floor
    ("adres Bağdat Cad. No: 217 D: 9, 34728 Kadıköy/İstanbul", "34728"),
    ("Οδός Ερμού 54, 2ος όροφος, 105 63 Αθήνα", "105 63"),
])
def test_a_postcode_after_the_house_number_is_part_of_the_address(text, rest):
    assert_masked_as(text, rest, "<LOCATION_")


@pytest.mark.parametrize(("text", "handle"), [
    # the value of a user field in data or a log
    ('{"assignee": "marta.kowalska", "priority": "High"}', "marta.kowalska"),
    ('{"event": "mfa_fail", "user": "k.haddad", "attempt": 4}', "k.haddad"),
    ("oncall:\n  slack: ezra.g\n  pager: on", "ezra.g"),
    ("card declined for user mdiallo, third time today", "mdiallo"),
    # a Telegram link, a WeChat id, a LINE id, a QQ number
    ("DM https://t.me/olena_ops for the invite", "olena_ops"),
    ("微信号 wang_fang_21，下午联系", "wang_fang_21"),
    ("LINE ID: pim_2531 please follow up", "pim_2531"),
    # a name's parts written without "@"
    ("meant rohan.m not priya.k in the rota", "priya.k"),
])
def test_a_users_handle_is_masked(text, handle):
    assert_masked_as(text, handle, "<PERSON_")


def test_a_qq_number_is_masked():
    assert_masked_as("他的 QQ：48213390，下午联系", "48213390", "<PERSON_", "<PHONE_NUMBER_")


@pytest.mark.parametrize("text", [
    'user=root password rotated; "user": "postgres"; owner: platform-team; author: dependabot',
    "slack: v1.2 release notes; login=admin",
    "run config.max_retries and self.name in utils.py, see os.path and np.array",
    "the t.me/durov_bot link, user=deploy",
    "We are on Vitest, so use vi.fn instead",
    "reversed_copy = my_list[::-1], or list(reversed(my_list))",
])
def test_system_users_and_code_stay(text):
    assert "<PERSON_" not in masked(text)


@pytest.mark.parametrize(("text", "name"), [
    ("العميل عبد الرحمن بن سعيد الغامدي يطلب استرداد المبلغ", "الغامدي"),
    ("chị Lê Thị Mai nhờ anh xem lại cấu hình VPN", "Mai"),
    ("Kontakt na paní Horákovou, volat jen dopoledne", "Horákovou"),
    ("| Owner | Task |\n| K. Andersson | rotate certs |", "Andersson"),
    ("Penny from finance is cc'd on the thread", "Penny"),
    ("callback: https://support.example.com/cb?name=Hayden%20Pike&slot=am", "Pike"),
    ("first,last,email\nThu,Pham,thu.pham@example.com", "Pham"),
])
def test_names_in_the_forms_of_other_languages_and_data_are_masked(text, name):
    assert_masked_as(text, name, "<PERSON_")


@pytest.mark.parametrize("text", [
    "GET /api?name=nginx&version=2",
    "see U.S. Army docs for the S3 bucket",
])
def test_look_alikes_of_names_in_data_stay(text):
    assert "<PERSON_" not in masked(text)


@pytest.mark.parametrize(("text", "value", "placeholder"), [
    ("Dati: Giulia Rossi, nata a Roma il 22/09/1988", "22/09/1988", "<DATE_OF_BIRTH_"),
    ("Dati: Giulia Rossi, nata a Roma il 22/09/1988", "Roma", "<LOCATION_"),
    ("ERROR field=ssn dob=19910228 reason=duplicate", "19910228", "<DATE_OF_BIRTH_"),
    ("arrêt de travail du 3 au 17 mai pour une pneumonie", "pneumonie", "<MEDICAL_CONDITION_"),
    ("hun er gravid og går på barsel i august", "gravid", "<MEDICAL_CONDITION_"),
    ("He's diabetic (type 1) so please check the catering", "diabetic", "<MEDICAL_CONDITION_"),
    ("Sam Lee uses a wheelchair, please check the lift pass", "wheelchair", "<MEDICAL_CONDITION_"),
    ("SSN 123-45-6789, DOB 1990-01-02, 1427 Maplewood Dr, Apt 3B, Columbus, OH 43215", "43215", "<LOCATION_"),
])
def test_records_of_other_forms_are_masked(text, value, placeholder):
    assert_masked_as(text, value, placeholder)


@pytest.mark.parametrize("text", [
    "build 20240101 deployed on the call",
    "the depression of the button is animated",
    "our asthma app needs a new onboarding flow",
    "we need a chair for the demo",
])
def test_look_alikes_of_records_stay(text):
    assert masked(text) == text
