"""Lower-case and non-Latin names after a person cue (relation, introduction, contact verb), in several languages and
scripts; technical prose with the same verbs stays untouched."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask
from governance.privacy.recognizers.cued_names import CuedNameRecognizer

RECOGNIZER = CuedNameRecognizer()


def names(text: str) -> list[str]:
    return [text[r.start : r.end] for r in RECOGNIZER.analyze(text, []) if r.score >= 0.4]


@pytest.mark.parametrize("text,name", [
    ("my colleague john smith will review it", "john smith"),
    ("call anna tomorrow about the invoice", "anna"),
    ("my name is borna jerković", "borna jerković"),
    ("мой коллега иван петров приедет", "иван петров"),
    ("меня зовут ольга", "ольга"),
    ("Завтра приедет наш менеджер, позвони Светлане", "Светлане"),
    ("ο συνάδελφός μου Νίκος Παπαδόπουλος", "Νίκος Παπαδόπουλος"),
    ("Μιλήστε με τον Γιώργο αύριο", "Γιώργο"),
    ("اسمي فاطمة الزهراء", "فاطمة الزهراء"),
    ("मेरा नाम राहुल शर्मा है", "राहुल शर्मा"),
    ("ผมชื่อ สมชาย ใจดี", "สมชาย ใจดี"),
    ("คุณสมศรี รักไทย will join the call", "สมศรี รักไทย"),
    ("mi colega lucía fernández llega mañana", "lucía fernández"),
    ("meine Kollegin ilse brandt", "ilse brandt"),
])
def test_names_after_a_cue(text, name):
    assert name in names(text)


@pytest.mark.parametrize("text", [
    "call fetch on each row",
    "then call render again",
    "Run kubectl get pods, then call helm upgrade.",
    "We call the callback when the job finishes",
    "ask support about it",
    "ping google.com to test the network",
    "call os.path.join first",
    "text me at 5",
    "Ask the model to summarise the diff",
    "my name is: see the metadata",
    "I am running the migration now",
    "this is a known issue in the scheduler",
])
def test_technical_prose_has_no_cued_names(text):
    assert names(text) == []


@pytest.mark.parametrize("text", [
    "The kids in our neighborhood play outside.",  # before: "hood play" a name
    "My motherboard died yesterday.",
    "My sonar readings were off.",
    "my dadjokes are bad",
    "Their partnership ended in May.",
    "Our clientele grew.",
    "My sisterhood of runners meets weekly.",
])
def test_a_cue_is_a_whole_word_not_the_start_of_one(text):
    assert names(text) == []


@pytest.mark.parametrize("text,name", [
    ("his auntie mae visited", "mae"),
    ("my grandma rose turns ninety", "rose"),
    ("my nephew tomek starts school", "tomek"),
])
def test_more_relatives_are_cues(text, name):
    assert name in " ".join(names(text))


@pytest.mark.parametrize("text,name,kept", [
    ("Wow, Caroline, that painting is awesome!", "Caroline", "Wow"),  # before: "Wow" a person too
    ("Woah Joanna, I won an international tournament yesterday!", "Joanna", "Woah"),  # before: one "Woah Joanna"
    ("Congrats, Nate!", "Nate", "Congrats"),  # before: Nate left in clear
    ("Wow, Maria!", "Maria", "Wow"),  # before: an NRP, another placeholder than Maria's elsewhere
    ("Congrats, Redis 7 is out.", None, "Congrats"),  # before: "Congrats" an NRP
])
def test_a_name_called_out_is_masked_and_the_interjection_is_not(text, name, kept):
    out = mask(text, key=b"calls")
    assert kept in out.text, out.text
    if name:
        assert name not in out.text and "<PERSON_" in out.text, out.text
    joanna = mask("Joanna said so.", key=b"calls").text.split()[0]
    if name == "Joanna":
        assert joanna in out.text  # the same placeholder as the name alone


def test_the_engine_masks_them():
    out = mask("my colleague kasia wrona and меня зовут ольга", key=b"cued")
    assert "kasia" not in out.text and "ольга" not in out.text


@pytest.mark.parametrize("text", [
    "Our client libraries are compatible with Python 3.9+",
    "my assistant app crashed again",
])
def test_role_words_that_are_also_product_words(text):
    assert names(text) == []


@pytest.mark.parametrize("name", ["mimi", "kato", "renmar", "visa", "kasa", "tosa"])
def test_a_lower_case_name_after_a_contact_cue_is_masked(name):
    # the NER model's own guess on the span ("call kato") must not shadow the cue's, and a word that is also a
    # package name ("visa") is still a name after "call ... tomorrow"
    out = mask(f"call {name} tomorrow about the invoice", key=b"cued")
    assert name not in out.text, out.text


@pytest.mark.parametrize("text", ["call the API tomorrow", "call foo() tomorrow", "call build twice",
                                  "call redis.get tomorrow", "call fetch on each row tomorrow"])
def test_technical_contact_phrases_stay(text):
    assert mask(text, key=b"cued").text == text


@pytest.mark.parametrize("text,name", [
    ("Sven set up the Loki retention, 14 days for debug", "Sven"),
    ("Noor is out sick today, I'll take her review", "Noor"),
    ("Matías just landed, he'll call from there", "Matías"),
    ("@lena your visual test run shows 214 changes", "lena"),
])
def test_team_chat_names_its_people_as_subjects_and_mentions(text, name):
    assert name not in mask(text, key=b"chat-names-key-123456").text


@pytest.mark.parametrize("text", [
    "Staging failed again after the deploy", "You've got to restart the pod", "Kafka restarted the broker",
    "ping @here and @channel", "@app.route('/x') and @types/node and @Override",
])
def test_subject_and_mention_rules_leave_words_tools_and_code(text):
    assert not [e for e in mask(text, key=b"chat-names-key-123456").entities if e.entity_type == "PERSON"]


@pytest.mark.parametrize(("text", "names"), [
    ("Sven: Hey Caroline, I adopted a puppy last week!", ("Sven", "Caroline")),  # one turn, sent on its own
    ("Hi Marek! the release is out.", ("Marek",)),
    ("Ines: I went to the support group yesterday.", ("Ines",)),
])
def test_a_single_turns_speaker_and_a_greeted_name_are_masked(text, names):
    """Agents send a transcript one turn at a time: the tag opening it is its speaker (the transcript rule wanted two
    such lines), and a name greeted with "Hey …," is called out. Both stayed in clear."""
    out = mask(text, key=b"turns").text
    assert not any(n in out for n in names), out


@pytest.mark.parametrize("text", [
    "Lesson: always run migrations first.", "Kafka: consumer lag is rising again", "Update: I deployed it",
    "Prereqs: Python 3.11 and make", "Fyi: our SLA changed", "Repro: run make test and you get it",
    "Hello World!", "Hi team, the build is green.", "Hey Kafka, lag is fine", "Hi there, any news?",
])
def test_labels_and_greetings_of_no_one_stay(text):
    assert mask(text, key=b"turns").text == text


@pytest.mark.parametrize(("text", "names"), [
    ("le numéro de Sophie Martin est le 06 12 34 56 78", ("Sophie", "Martin")),
    ("l'adresse de Jean Dupont: 12 rue de la Paix", ("Jean", "Dupont")),
    ("el teléfono de Lucía es 612 345 678", ("Lucía",)),
    ("l'indirizzo di Marco Bellini è cambiato", ("Marco", "Bellini")),
    ("die Handynummer von Frau Keller hat sich geändert", ("Keller",)),
    ("het adres van Daan klopt niet", ("Daan",)),
    ("Carte d'assurance maladie de Vigor Senmika : à renouveler", ("Vigor", "Senmika")),
    ("le numéro de téléphone de Sophie Martin a changé", ("Sophie", "Martin")),
    ("el pasaporte de Lucía Gómez venció", ("Lucía", "Gómez")),
])
def test_personal_data_of_someone_said_with_a_preposition(text, names):
    """"The number *of* Sophie": French, Spanish, Italian, German and Dutch put the owner after a preposition, where the
    English model sees no name (found leaking in round 18's read half)."""
    out = mask(text, key=b"owners").text
    assert not any(n in out for n in names), out


@pytest.mark.parametrize("text", [
    "le numéro de téléphone a changé", "l'adresse de facturation a changé", "el número de serie es ABC",
    "the address of the server is in the runbook", "la carte de France Télécom", "la facture de Google Cloud",
])
def test_the_kind_of_data_after_a_preposition_stays(text):
    assert mask(text, key=b"owners").text == text


def test_a_phone_number_keeps_its_country_code_with_it():
    out = mask("ping Chidi on +234 803 555 0192 if the card processor is down", key=b"owners").text
    assert "+234" not in out and "0192" not in out, out


@pytest.mark.parametrize(("text", "name"), [
    ("Send it to Maria 2 days before the deadline.", "Maria"),
    ("Give Tom 3 tickets for the show.", "Tom"),
    ("Met Anna Schmidt 2 weeks ago at the conference.", "Schmidt"),
])
def test_a_name_read_together_with_the_number_after_it_is_masked(text, name):
    """The model's span took the quantity with the name ("Maria 2 days"); names hold no digits, so the whole span was
    dropped as an id and the name stayed in clear."""
    assert name not in mask(text, key=b"numbers").text


@pytest.mark.parametrize("text", ["see D25:4 and D3:1 in the log", "Python 3 and Node 20 are installed"])
def test_ids_and_versions_stay(text):
    assert mask(text, key=b"numbers").text == text


@pytest.mark.parametrize("text", [
    "Thanks, I'll pull the BrowserStack credentials from Vault when running the mobile suites.",
    "Thanks, we'll add a Pact interaction for each new payments call.",
    "Regards, let's sync tomorrow",
    "My dbt run says 'Compilation Error: depends on a node named int_orders which was not found'.",
    "the helper named parse_args() returns the flags",
])
def test_a_contraction_or_an_identifier_after_a_cue_is_no_name(text):
    """Found in the paraphrase teams' texts (round 44): "Thanks, I'll …" masked "I'll" as a person (the reply of
    every "thanks, I'll do X" acknowledgement), and "named int_orders" the "int" of a dbt model's name."""
    assert mask(text, key=b"k").text == text


@pytest.mark.parametrize(("text", "name"), [("Thanks, O'Neil, merged.", "O'Neil"), ("a puppy named shadow", "shadow"),
                                            ("Thanks, Tom, that worked.", "Tom")])
def test_names_after_the_same_cues_stay_masked(text, name):
    assert name not in mask(text, key=b"k").text


@pytest.mark.parametrize(("text", "parts"), [
    ("Reviewers for the paper: Hans-Peter Müller-Lüdenscheidt, Jean-Baptiste Le Gall, Sophie Martin.",
     ["Hans-Peter", "Lüdenscheidt", "Jean-Baptiste", "Gall", "Sophie"]),
    ("Anna-Lena joined the platform team today.", ["Anna-Lena"]),
])
def test_compound_names_and_surnames_with_a_particle(text, parts):
    """Round 44, the leak set's tune half: a surname whose part after the hyphen opens on a capital and a non-ASCII
    letter ("-Lü") was read as a version's "-L" (as in "Hyper-V"), and a compound given name, or one before "Le
    Gall", stayed in clear."""
    masked = mask(text, key=b"k").text
    assert all(p not in masked for p in parts), masked


@pytest.mark.parametrize("text", ["Mercedes-Benz and Harley-Davidson dealers", "we run Hyper-V on the X-Ray box"])
def test_brands_of_a_given_name_and_a_surname_stay(text):
    assert mask(text, key=b"k").text == text


@pytest.mark.parametrize(("text", "name"), [
    ('Our .env for the alerting service:\nONCALL_PHONE=+44 7700 900123\nONCALL_NAME="Kemi Oyelaran"\nWhy not?', "Kemi"),
    ('export ONCALL_NAME="Tunde Bakare"\nexport ONCALL_TZ=UTC', "Tunde"),
    ("MAINTAINER_NAME='Dario Rossi'", "Dario"),
])
def test_a_setting_named_for_a_persons_role_holds_a_name(text, name):
    """Round 44, the leak set's tune half: ``ONCALL_NAME="Kemi Oyelaran"`` in an .env file kept "Kemi" (the model
    read the surname as a group); a setting's name of a person's role and "name" holds a person's name. A service's,
    an app's or a database's name stays."""
    assert name not in mask(text, key=b"k").text


def test_a_setting_named_for_a_thing_keeps_its_value():
    text = 'SERVICE_NAME="Payments Gateway" APP_NAME="Orion Web" DB_NAME="orders"'
    assert mask(text, key=b"k").text == text
