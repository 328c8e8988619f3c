"""Text in other scripts: ordinary sentences stay intact, names are masked on evidence.

The English spaCy model knows no word of Chinese, Thai, Arabic or Cyrillic; its PERSON / LOCATION / NRP guesses on
them are noise ("谢谢", thanks, read as a person). Such spans are claimed only by the script-aware recognizers (a
surname followed by given-name characters, a title, an introduction, a relation or an honorific in any language).
"""

from __future__ import annotations

import pytest

from governance.privacy.engine import mask
from governance.privacy.recognizers import foreign_script

KEY = b"scripts-key"
NAME_TYPES = {"PERSON", "LOCATION", "NRP"}

ORDINARY = [
    # Chinese: thanks, greetings, technical words that start with a surname character (谢, 文, 方, 时, 安, 成, 明)
    "谢谢！",
    "谢谢你的帮助。",
    "好的，谢谢。",
    "你好，请问文件在哪里？",
    "方法已经更新了，时间是明天。",
    "安装成功，谢谢。",
    "请把文件保存到服务器上。",
    "数据库连接失败，请检查配置文件。",
    "明天见！",
    # Japanese
    "ありがとうございます。",
    "お疲れ様です。",
    "皆さん、こんにちは。",
    "お客様のデータを保存しました。",
    "設定ファイルを更新してください。",
    "ご苦労様でした。",
    # Korean
    "감사합니다!",
    "안녕하세요, 여러분.",
    "고객님, 감사합니다.",
    "사장님께 보고했습니다.",
    "서버를 재시작했습니다.",
    # Thai
    "ขอบคุณครับ",
    "สวัสดีค่ะ",
    "กรุณารีสตาร์ทเซิร์ฟเวอร์",
    # Cyrillic
    "Спасибо за помощь!",
    "Привет, как дела?",
    "Сервер перезапущен, база данных работает.",
    "Добрый день, коллеги.",
    "Большое спасибо.",
    # Arabic, Hebrew, Devanagari, Greek
    "شكرا جزيلا",
    "مرحبا، كيف حالك؟",
    "تم تحديث قاعدة البيانات بنجاح.",
    "תודה רבה!",
    "धन्यवाद",
    "नमस्ते, आप कैसे हैं?",
    "Ευχαριστώ πολύ!",
    # mixed with English
    "Thanks! 谢谢",
    "Thanks, شكرا",
    "She ended with ขอบคุณครับ as usual",
    "Click 文件 then 保存 to write the config",
    "The word 감사 means thanks",
    "At the end you say תודה",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_in_other_scripts_stays_intact(text):
    res = mask(text, key=KEY)
    assert not [e for e in res.entities if e.entity_type in NAME_TYPES], res
    assert res.text == text


CUED = [
    ("王先生明天来。", "王"),
    ("请联系李伟先生。", "李伟"),
    ("欧阳娜娜女士已经到了。", "欧阳娜娜"),
    ("我叫杜甫，是新来的。", "杜甫"),
    ("田中さんに連絡してください。", "田中"),
    ("山田と申します。", "山田"),
    ("김민수 씨에게 전화하세요.", "김민수"),
    ("제 이름은 박지훈입니다.", "박지훈"),
    ("г-н Смирнов приедет завтра.", "Смирнов"),
    ("Мой коллега Сергей Иванов приедет завтра.", "Сергей Иванов"),
    ("меня зовут алексей", "алексей"),
    ("السيد أحمد حسن سيحضر الاجتماع", "أحمد حسن"),
    ("คุณสมชาย จะมาพรุ่งนี้", "สมชาย"),
    ("मेरा नाम राहुल शर्मा है", "राहुल शर्मा"),
    ("Mr. 杜甫 will join the call", "杜甫"),
    ("my name is Алексей", "Алексей"),
    ("a user called 陈静 reported it", "陈静"),
    ("Dear Μαρία, the build is green.", "Μαρία"),
    ("I met 王伟 at the conference", "王伟"),
    # a short English sentence around a name: mostly Latin by words, not by letters
    ("محمد العتيبي sent the contract", "محمد العتيبي"),
    ("สมชาย ใจดี is on leave", "สมชาย ใจดี"),
]


@pytest.mark.parametrize("text,name", CUED)
def test_cued_names_in_other_scripts_are_masked(text, name):
    res = mask(text, key=KEY)
    assert name not in res.text, res
    assert "PERSON" in {e.entity_type for e in res.entities}


def test_the_english_model_never_claims_another_script_alone():
    """A sentence of Chinese words that start with surname characters: nothing for the model, nothing for the
    bare-run rule (no given-name characters after the surname)."""
    text = "谢谢，文件和方法都在，时间不够。"
    assert mask(text, key=KEY).text == text


@pytest.mark.parametrize("span,foreign", [
    ("Anna", False), ("José Müller", False), ("Łukasz Dvořák", False), ("谢谢", True), ("Иван", True),
    ("Anna 王", True), ("محمد", True), ("ขอบคุณ", True), ("Ελένη", True),
])
def test_foreign_script(span, foreign):
    assert foreign_script(span) is foreign


@pytest.mark.parametrize("text,place", [
    ("我来自北京。", "北京"),
    ("他住在上海市浦东新区。", "上海"),
    ("東京出身です。", "東京"),
    ("서울에 살아요.", "서울"),
    ("Я живу в Москве.", "Москве"),
    ("I moved to 北京 last year", "北京"),
])
def test_places_in_other_scripts_after_their_cue(text, place):
    res = mask(text, key=KEY)
    assert place not in res.text, res
    assert "LOCATION" in {e.entity_type for e in res.entities}


def test_a_place_phrase_naming_no_place_stays():
    assert mask("我住在这里很久了。", key=KEY).text == "我住在这里很久了。"


@pytest.mark.parametrize("text,name", [
    ("иван петров заболел гриппом", "иван петров"),
    ("mehmet yılmaz is on call tonight", "mehmet yılmaz"),
    ("ask maria kowalska about the invoice", "maria kowalska"),
])
def test_a_whole_name_in_lower_case_is_a_name(text, name):
    assert name not in mask(text, key=KEY).text


@pytest.mark.parametrize("text", [
    "the kafka consumer lag grew overnight",
    "the mesa drivers broke again",
    "rose gold looks nice on the case",
    "run pip install flask gunicorn then restart",
    "set the java home and the maven repo",
])
def test_lower_case_words_that_are_also_names_stay(text):
    res = mask(text, key=KEY)
    assert not [e for e in res.entities if e.entity_type in NAME_TYPES], res
