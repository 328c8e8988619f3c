"""Round 47, read on the tune halves of leak sets 10 and 11 (names of many cultures and scripts in team chat): a name
in another script that only an English guess had covered, a short island of another script in English, a person cue
before a word of another script, the cues other languages write in Latin letters (Filipino articles, romanised
honorifics, Hindi postpositions, a dash sign-off, a possessive), a birth date whose owner stands between cue and date,
"call" with its pronoun written on, names inside Arabic and Hebrew sentences by the name lists, and (on the UI
strings of other languages) code that is no Latin prose and Thai "you". The examples are written for the tests, not
copied from the sets; each family with what must stay as it is."""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask
from governance.privacy.recognizers.names import ScriptNameRecognizer

KEY = b"k"


@pytest.mark.parametrize(("text", "value"), [
    # a weak English guess on another script hid the script rule's finding on the same span (Presidio keeps one)
    ("김민수 is on call this week, page him if the deploy fails.", "김민수"),
    ("田中さん said the staging DB is full again.", "田中"),
    # an island of another script in English text
    ("cc @Светлана on the rollback plan", "Светлана"),
    ("Thanks, ნინო — merged.", "ნინო"),
    ("Lao strings reviewed by ບຸນມີ ສີຫາລາດ this morning.", "ບຸນມີ ສີຫາລາດ"),
    ("Reviewers: 黄晓明, Ana and me.", "黄晓明"),
    # a person cue in the English before it
    ("Reviewed by: ইমরান হোসেন", "ইমরান হোসেন"),
    ("Pairing today with ソフィア on the GraphQL schema.", "ソフィア"),
    ("Thanks はると for the quick hotfix!", "はると"),
    ("thanks 王芳 for the review", "王芳"),
    # inside Arabic and Hebrew sentences: a given name and a surname (or a father's name) of the lists, a
    # preposition written on the first; a given name called to
    ("شكراً لسلمى يوسف على مراجعة الكود.", "سلمى"),
    ("השבוע דנה כהן בתורנות, תעדכנו אותה.", "דנה"),
    ("הקוד נבדק על ידי רון ודנה כהן אתמול.", "ודנה"),  # Hebrew "and" written on the name
    ("يا عمر، راجع الطلب من فضلك.", "عمر"),
    ("נועה, אפשר לעשות review ל-PR?", "נועה"),
])
def test_a_name_in_another_script_is_masked(text, value):
    masked = mask(text, key=KEY).text
    assert value not in masked and "<PERSON_" in masked, masked


@pytest.mark.parametrize(("text", "value"), [
    ("Text mo na lang ako, pinsan ni Rowena.", "Rowena"),
    ("Bukas si Joy ang bahala sa deploy.", "Joy"),
    ("Kenji-san moved the cron job to the new cluster.", "Kenji"),
    ("Ask Tanaka sensei about the thesis draft.", "Tanaka"),
    ("Back at the flat now, leave the parcel at the door. — Thandiwe", "Thandiwe"),
    ("Cheers for covering.\n-- Mick", "Mick"),
    ("Rohit ka number mil gaya, pager na chale toh direct call karna.", "Rohit"),
    ("anirudh's branch has the fix but it's 40 commits behind main", "anirudh"),
    ("Emeka's comment on line 88 is right, that goroutine leaks.", "Emeka"),
    ("Tom Jenkins asked for admin on the Jenkins controller.", "Tom"),
    ("Adaeze 'Daisy' Okonkwo is incident commander tonight.", "Okonkwo"),
    ("Chị Hạnh ơi, em đã fix bug đăng nhập rồi, chị review giúp em nhé.", "Hạnh"),
    ("Anh Quốc sẽ deploy bản hotfix tối nay.", "Quốc"),
    ("Bhai Arjun ne kal raat prod pe hotfix push kiya tha.", "Arjun"),
    ("Ask Rohit ko bolo ki staging ka DB full hai.", "Rohit"),
])
def test_the_cues_other_languages_write_in_latin_letters(text, value):
    masked = mask(text, key=KEY).text
    assert value not in masked, masked


@pytest.mark.parametrize(("text", "value"), [
    ("Geboortedatum van Fleur de Vries voor de salarisadministratie: 14-06-1993.", "14-06-1993"),
    ("Ngày sinh của Lê Minh Châu là 03/11/1996, nhờ HR cập nhật giúp em.", "03/11/1996"),
    ("Empezó hoy en soporte. Nació el 21/04/1990, ya está en el sistema.", "21/04/1990"),
])
def test_a_birth_date_whose_owner_stands_between_cue_and_date(text, value):
    masked = mask(text, key=KEY).text
    assert value not in masked and "<DATE_OF_BIRTH_" in masked, masked


def test_call_with_its_pronoun_written_on_is_a_phone_cue():
    masked = mask("Si hay problemas, llamadla al 622 39 18 47.", key=KEY).text
    assert "622 39 18 47" not in masked and "<PHONE_NUMBER_" in masked, masked


@pytest.mark.parametrize("text", [
    # quoted words of another script: a message, a UI label, a loanword in kana, Chinese labels of two characters
    "The error message says 'Ошибка подключения' when the DB is down.",
    "The Japanese UI shows ログイン on the login button.",
    "Click 文件 then 保存 to write the config.",
    "Thanks ありがとう for the fix!",
    "สวัสดีครับ ทีม deploy เสร็จแล้ว",
    # the Latin cues on words of technology and prose
    "Build is green now.\n- Done",
    "Deployed to prod — Kubernetes",
    "Argo Workflows rejected — Kubernetes-only.",
    "Kafka ka lag badh gaya, staging ko restart karo.",
    "Terraform's plan shows drift; Redis's memory is fine and Monday's release too.",
    "si Docker ang problema kanina.",
    "The birth_date column of the users table migrated on 2024-03-01.",
    "Docker Compose said the port is taken.",
    "Press the 'Sync' button in the Argo panel.",
    # code is no Latin prose: a UI string of another script with its placeholders stays
    "ไม่มี %(verbose_name_plural)s ที่ใช้ได้",
    "%(value)s ဘီလီယံ",
    # Thai "you" before what you do is no title
    "คุณได้เลือกคำสั่ง แต่ยังไม่ได้บันทึก",
    "รหัสผ่านของคุณถูกเปลี่ยนไปแล้ว",
    # a Vietnamese word of address before a product or a lower-case word
    "Em Chrome thì bị lỗi.",
    "The em dash in Markdown renders fine.",
    # a courtesy is no name, nor a function word the name lists hold ("לי", "שלי")
    "שלום רב, המערכת עודכנה.",
    "תודה לי ולצוות על העבודה.",
    "يا جماعة، النسخة الجديدة جاهزة.",
])
def test_words_that_are_no_name_stay(text):
    masked = mask(text, key=KEY).text
    assert masked == text, masked


def test_japanese_text_is_no_island():
    # written with hiragana around its katakana and kanji: a katakana word in it is Japanese prose, no name
    text = "PRのレビューお願いします。CIがfailしてます、Dockerのcacheかも"
    assert not [r for r in ScriptNameRecognizer().analyze(text, ["PERSON"]) if r.score < 0.85]
