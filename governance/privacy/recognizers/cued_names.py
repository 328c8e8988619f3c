"""Names the English NER cannot see: lower-case Latin names and names in other scripts, found by a person cue.

The small English spaCy model only knows capitalised Latin names. Two families of cues say that the next words are a
person's name whatever their script or case:

* a *relation* or *introduction* ("my colleague", "my name is", "меня зовут", "mi amigo", "συνάδελφός μου",
  "اسمي", "मेरा नाम", "ชื่อ", ...) — the next one or two words are a name;
* a *verb of contacting someone* ("call", "ask", "ping", "позвони", "llama a", ...) — the next word is a name only
  when it ends the clause or is followed by a word of time or manner ("call anna tomorrow"), never when it is a
  function word or a common object of these verbs in technical text ("call back", "ask support", "call fetch()").

In the cased scripts other than Latin (Cyrillic, Greek) a capitalised word inside a sentence is a proper noun: one
after a cue is a name, one without a cue a weaker candidate. A word opening a sentence is a name when the lists hold it
as a given name, as written or as someone is called ("Олено, …"), or — called or saying something — when it is spelt
like a surname ("Петренко сказав …"): :func:`_opening_name`.

Other languages write their own cues around a capitalised name in Latin letters (:data:`_LATIN_CUE_RULES`): Filipino
articles ("ni Rowena"), romanised honorifics ("Kenji-san"), Hindi postpositions ("Rohit ka"), Vietnamese words of
address ("chị Lan"), a dash sign-off, a quoted nickname; and a listed given name's possessive in lower case.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from presidio_analyzer import EntityRecognizer, RecognizerResult
from spacy.lang.en.stop_words import STOP_WORDS

from ..vocabulary import given_names, is_plain_word, is_tech_word
from ._common import _result, faker_calendar_names, spacy_stop_words
from .names import function_words

_CYR_GRK = "\u0400-\u04ff\u0370-\u03ff\u1f00-\u1fff"
_CASELESS = "\u0600-\u06ff\u0750-\u077f\u0900-\u097f\u0e00-\u0e7f\u0590-\u05ff"
# a letter of any script, then letters and the combining marks Indic, Thai and Arabic words are written with (not
# "\w" for Python's re)
_MARKS = ("\u0300-\u036f\u0900-\u0dff\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u064b-\u065f\u0670"
          "\u0a00-\u0d7f")  # (the Indic blocks whole: Tamil, Telugu, Kannada … write their vowels as marks)
_WORD = f"[^\\W\\d_][\\w'’\\-{_MARKS}]*"

# relations and introductions, in the languages agents write in (lower-case matching)
_RELATION = (
    # (also "the user's": how the extractive rewriter retells "my colleague …")
    r"(?:my|our|his|her|their|your|user['’]s)[ \t]+(?:(?:new|old|best|ex|late|former)[ \t\-]+)?(?:colleague|co-?worker|"
    r"teammate|friend|boss|manager|supervisor|wife|husband|partner|boyfriend|girlfriend|brother|sister|son|"
    r"daughter|mother|father|mom|mum|dad|grand(?:ma|pa|mother|father|son|daughter)|granny|nephew|niece|cousin|uncle|"
    r"aunt(?:ie|y)?|neighbou?r|roommate|flatmate|landlord|landlady|"
    r"doctor|lawyer|accountant|assistant|client|customer|patient|student|intern|mentor|tenant)|"
    r"(?:my|his|her|their|your|user['’]s)[ \t]+(?:full[ \t]+|first[ \t]+|last[ \t]+|real[ \t]+)?name[ \t]+(?:is|was)|"
    r"call(?:s|ed)?[ \t]+me|"
    # de, fr, es, it, pt, nl, pl, sv
    r"mein(?:e)?[ \t]+(?:kollegin|kollege|freundin|freund|chefin|chef|frau|mann)|ich[ \t]+heiße|ich[ \t]+bin|"
    r"mon[ \t]+(?:collègue|ami|chef|mari)|ma[ \t]+(?:collègue|amie|cheffe|femme)|je[ \t]+m'appelle|"
    r"mi[ \t]+(?:colega|amig[oa]|jef[ea]|espos[oa])|me[ \t]+llamo|"
    r"il[ \t]+mio[ \t]+(?:collega|amico|capo)|la[ \t]+mia[ \t]+(?:collega|amica)|mi[ \t]+chiamo|"
    r"(?:meu|minha)[ \t]+(?:colega|amig[oa]|chefe)|me[ \t]+chamo|"
    r"mijn[ \t]+(?:collega|vriend(?:in)?|baas)|ik[ \t]+heet|"
    r"m[oó]j[ \t]+(?:kolega|przyjaciel|szef)|moja[ \t]+(?:koleżanka|przyjaciółka)|nazywam[ \t]+się|"
    r"min[ \t]+(?:kollega|vän|chef)|jag[ \t]+heter|"
    # ru, uk
    r"меня[ \t]+зовут|его[ \t]+зовут|её[ \t]+зовут|ее[ \t]+зовут|мой[ \t]+(?:коллега|друг|начальник|муж|брат|сын)|"
    r"моя[ \t]+(?:коллега|подруга|начальница|жена|сестра|дочь)|коллега|господин|госпожа|г-н|г-жа|"
    r"уважаем(?:ый|ая)|мене[ \t]+звати|"
    # el
    r"με[ \t]+λένε|λέγομαι|ονομάζομαι|ο[ \t]+συνάδελφός[ \t]+μου|η[ \t]+συνάδελφός[ \t]+μου|ο[ \t]+φίλος[ \t]+μου|"
    r"η[ \t]+φίλη[ \t]+μου|κύριος|κυρία|κ\.|"
    # ar
    r"اسمي|اسمه|اسمها|زميلي|زميلتي|صديقي|صديقتي|السيد|السيدة|الأستاذ|الاستاذ|الدكتور|الدكتورة|"
    # (a sign-off: "with the regards of", "my regards")
    r"مع[ \t]+(?:خالص[ \t]+)?تحيات|تحياتي|"
    # hi (Devanagari)
    r"मेरा[ \t]+नाम|उसका[ \t]+नाम|मेरे[ \t]+दोस्त|मेरी[ \t]+दोस्त|मेरे[ \t]+सहकर्मी|श्रीमती|श्री|सुश्री|डॉ\.?|"
    # th (the title is written against the name)
    # (not inside the words they are part of: ขอบคุณ thanks, คุณภาพ quality, คุณสมบัติ property, นายจ้าง employer,
    # ชื่อผู้ใช้ user name, ชื่อไฟล์ file name — Thai writes words without spaces)
    r"ชื่อ(?!ผู้ใช้|ไฟล์|เสียง|เรื่อง|โดเมน|บัญชี|ตาราง|คอลัมน์|ฟิลด์)|(?<!ขอบ)(?<!บุญ)คุณ(?!ภาพ|สมบัติ|ค่า|ประโยชน์|ธรรม|ลักษณะ|"
    # (nor "you" before what you do: "คุณได้เลือก" you have chosen, "คุณจะต้อง" you will have to, "ของคุณถูก
    # เปลี่ยน" yours was changed; "ของคุณวิภา" is Khun Wipa's)
    r"ถูก|ได้|จะ|ต้อง|ไม่|ก็|เป็น|อยู่|ช่วย|สามารถ|ควร|กำลัง|แน่ใจ|คือ|และ|หรือ|เอง|อาจ|เพิ่ง|ลืม|เลือก|ใส่|เคย)|"
    r"นางสาว|นาย(?!ก|จ้าง|หน้า)|นาง|เพื่อนร่วมงาน|เพื่อน|"
    # vi, id/ms, tl, tr, sw ("my name is")
    r"t[ôo]i[ \t]+t[êe]n[ \t]+l[àa]|t[êe]n[ \t]+t[ôo]i[ \t]+l[àa]|t[êe]n[ \t]+l[àa]|"
    r"nama[ \t]+saya(?:[ \t]+(?:adalah|ialah))?|"
    r"ang[ \t]+pangalan[ \t]+ko[ \t]+ay|ako[ \t]+si|benim[ \t]+ad[ıi]m|ad[ıi]m|jina[ \t]+langu[ \t]+ni|"
    r"đồng[ \t]+nghiệp[ \t]+của[ \t]+tôi(?:[ \t]+là)?|bạn[ \t]+tôi(?:[ \t]+là)?|rekan[ \t]+saya|teman[ \t]+saya|"
    # ta, te, kn, ml, mr, gu, pa ("my name is")
    r"என்[ \t]+பெயர்|నా[ \t]+పేరు|ನನ್ನ[ \t]+ಹೆಸರು|എന്റെ[ \t]+പേര്|माझे[ \t]+नाव|મારું[ \t]+નામ|ਮੇਰਾ[ \t]+ਨਾਮ|"
    # ka, hy, fa, ur, bn, he (a possessive after the noun in Persian, Urdu and Hebrew: "the colleague of mine")
    r"ჩემი[ \t]+(?:კოლეგა|მეგობარი|უფროსი|ძმა|და|ცოლი|ქმარი|სახელია)|მე[ \t]+მქვია|მისი[ \t]+სახელია|ბატონი|ქალბატონი|"
    r"իմ[ \t]+(?:գործընկեր(?:ը|ս)?|ընկեր(?:ը|ս)?|ղեկավար(?:ը|ս)?|անունը)|պարոն|տիկին|"
    r"اسم[ \t]+من|همکارم|دوستم|آقای|خانم|میرا[ \t]+نام|میرے[ \t]+دوست|میری[ \t]+دوست|"
    r"আমার[ \t]+(?:নাম|সহকর্মী|বন্ধু)|"
    r"קוראים[ \t]+לי|שמי|(?:ה)?(?:עמית|עמיתה|חבר|חברה)[ \t]+שלי|מר|גברת"
)
_CONTACT = (
    r"call|ask|ping|email|e-mail|text|message|tell|remind|meet|met|invite|thank|cc|"
    r"talk(?:ed)?[ \t]+to|spoke[ \t]+(?:to|with)|meeting[ \t]+with|"
    r"ruf[ \t]+an|frag|schreib|appelle|demande[ \t]+à|écris[ \t]+à|llama[ \t]+a|pregunta[ \t]+a|escribe[ \t]+a|"
    r"chiama|chiedi[ \t]+a|liga[ \t]+para|pergunta[ \t]+(?:a|ao|à)|bel|vraag|zadzwoń[ \t]+do|ring|fråga|"
    r"позвони(?:те)?|спроси(?:те)?|напиши(?:те)?|скажи(?:те)?|передай(?:те)?"
)
# A cue is a whole word ("my neighborhood", "our motherboard" name nobody), except a Thai title, written against the
# name it belongs to.
_CUE_RE = re.compile(r"(?:(?<![\w])|(?<=[\u0e00-\u0e7f]))(?:" + _RELATION + r")(?:(?<=[\u0e00-\u0e7f])|(?!\w))"
                     r"(?:[ \t]*[,:])?[ \t]*", re.I)
# weak introductions ("I am", "this is", "named"): in English technical text a lower-case word after them is anything
# ("a field named count"); only a word of another script is taken as a name
# (also the honorifics of Latin-script languages: "Mr. 王伟", "Dear Ахмед", "Frau Μαρία" — a Latin name after them
# is the heuristics' finding)
_WEAK_INTRO_RE = re.compile(
    r"(?<![\w])(?:i[ \t]+am|i'm|this[ \t]+is|named|called|mr\.?|mrs\.?|ms\.?|dr\.?|prof\.?|mister|miss|sir|madam|"
    r"dear|herr|frau|monsieur|madame|mme\.?|señor|señora|sr\.|sra\.|signor|signora|sig\.|sig\.ra)[ \t]+", re.I)
_ROLE_CUE_RE = re.compile(r"(?:client|customer|assistant|patient|student|intern|mentor|tenant|doctor|lawyer|"
                          r"accountant|manager|supervisor|boss|partner)[ \t,:]*$", re.I)
_CONTACT_RE = re.compile(r"(?<![\w\-./])(?:" + _CONTACT + r")[ \t]+", re.I)
# Personal data *of* someone in the languages that say it with a preposition ("le numéro de Sophie Martin", "el
# teléfono de Lucía", "l'indirizzo di Marco", "die Nummer von Herrn Weber", "het adres van Daan"): a capitalised word
# after it is whose the data is. (English says "Sophie's number": the model and the heuristics read that.)
_OWNER_RE = re.compile(
    r"(?<![\w])(?:num[ée]ro|t[ée]l[ée]phone|portable|adresse|e-?mail|courriel|dossier|fiche|anniversaire|"
    r"date[ \t]+de[ \t]+naissance|mot[ \t]+de[ \t]+passe|salaire|"
    r"tel[ée]fono|n[úu]mero|direcci[óo]n|correo|expediente|cumplea[ñn]os|contrase[ñn]a|m[óo]vil|"
    r"indirizzo|cellulare|compleanno|stipendio|"
    r"endere[çc]o|celular|anivers[áa]rio|senha|"
    r"nummer|telefonnummer|handynummer|adresse|geburtstag|akte|passwort|gehalt|"
    r"adres|telefoonnummer|verjaardag|wachtwoord|salaris|"
    # a person's own documents ("carte d'assurance maladie de …", "el pasaporte de …"; not an invoice or a contract,
    # which come from companies as often)
    r"carte[ \t]+(?:vitale|bancaire|grise|d['’]identit[ée]|d['’]assurance|de[ \t]+s[ée]jour)|passeport|permis|"
    r"certificat|attestation|ordonnance|tarjeta[ \t]+(?:sanitaria|de[ \t]+cr[ée]dito|de[ \t]+residencia)|pasaporte|"
    r"carn[ée]t?|certificado|passaporto|patente|certificato|certid[ãa]o|ausweis|reisepass|f[üu]hrerschein|"
    r"versicherungskarte|paspoort|rijbewijs)"
    # up to three words between the noun and its owner: "le numéro de téléphone de …", "carte d'assurance maladie de …"
    r"(?:[ \t]+(?:[\w’'-]+[ \t]+){0,3}?|[ \t]*d['’](?:[\w-]+[ \t]+){1,3}?)"
    r"(?:de[ \t]+(?:la[ \t]+)?|d['’][ \t]*|del[ \t]+|di[ \t]+|da[ \t]+|do[ \t]+|von[ \t]+|van[ \t]+)"
    r"(?:(?:herrn?|frau|monsieur|madame|mme\.?|señora?|sra?\.|doña|don|signora?|sig\.(?:ra)?|senhora?|"
    r"dr\.?|mevrouw|meneer)[ \t]+)?",
    re.I)
# after a contact verb a lower-case Latin word is a name only before a word of time ("call anna tomorrow"): at a
# clause end it is as often a tool ("then call helm.")
_TIME_AFTER = re.compile(
    r"[ \t]+(?:tomorrow|today|tonight|later|asap|soon|this[ \t]+(?:morning|afternoon|evening|week)|next[ \t]+week|"
    r"on[ \t]+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|morgen|heute|demain|mañana|domani)\b",
    re.I)
_CLAUSE_END = re.compile(
    r"[ \t]*(?:$|[.,;:!?)\n]|(?:tomorrow|today|tonight|later|now|again|back|soon|asap|and|or|please|re|"
    r"morgen|heute|demain|mañana|domani|завтра|сегодня)\b)", re.I)

_NEXT_CAPITAL_RE = re.compile(r"[ \t]+([^\W\d_a-zà-ÿ][\w'’\-]*)")
# Thai: the title is glued to the name; the name is a run of Thai letters, the surname a second run
_THAI_RUN = "[\u0e01-\u0e4e]+"
_WORDS_AFTER_RE = re.compile(f"({_WORD})(?:[ \\t]+({_WORD}))?")
# a capitalised Cyrillic/Greek word after a letter or a comma and a space: inside a sentence, not at its start (any
# Cyrillic capital: Serbian "Ј", "Ћ", "Ђ" too)
_CYR_GRK_CAP_RE = re.compile(f"(?:(?<=[^\\W\\d_][ \\t])|(?<=,[ \\t]))([\u0400-\u042f\u0490Ά-ΏΑ-Ω][{_CYR_GRK}'’\\-]+)")
# the same word opening a sentence or a line, where a capital says nothing: there a name must be listed, as written or
# as the form it takes when someone is called ("Олено, …" is Олена called, "Γιώργο, …" Γιώργος)
_CYR_GRK_OPENING_RE = re.compile(
    f"(?:^|(?<=[.!?…][ \\t])|(?<=[.!?…][ \\t]{{2}}))[ \\t>\"'«„“(*•-]*([\u0400-\u042f\u0490Ά-ΏΑ-Ω][{_CYR_GRK}'’\\-]+)",
    re.MULTILINE)
# how a given name is written when someone is called, back to how the lists write it (casefolded, so Greek's final
# sigma is "σ"): Ukrainian Олено → Олена, Іване → Іван, Петре → Петро, Маріє → Марія, Андрію → Андрій, Наталю →
# Наталя; Greek Γιώργο → Γιώργος, Δημήτρη → Δημήτρης, Κώστα → Κώστας, Αλέξανδρε → Αλέξανδρος; Russian's clipped
# call, after a comma only (:func:`_called`): Маш → Маша, Оль → Оля
_VOCATIVE_ENDINGS = (("о", "а"), ("е", ""), ("е", "о"), ("є", "я"), ("ю", "й"), ("ю", "я"), ("у", ""),
                     ("ο", "οσ"), ("η", "ησ"), ("α", "ασ"), ("ε", "οσ"))
_CLIPPED_ENDINGS = ("а", "я")
# given names of the lists that are words of the language too (faith, hope, love, novel, lion, peace, rose …): opening
# a sentence without being called, they are the word
_NAMES_THAT_ARE_WORDS = frozenset("""вера надежда любовь любов роман лев мир марина лилия роза слава лада мила
виктория злата богдана дана ніна віра надія мирослава σοφία ειρήνη νίκη ελπίδα αγάπη δόξα χαρά""".split())
# the names of these languages Faker's lists leave out: the short forms people are called by (Russian, Ukrainian,
# Bulgarian, Serbian and Greek), and common full names (Faker's Ukrainian list has no "Микола")
_MORE_GIVEN_NAMES = frozenset("""микола олександр олексій дмитро сергій юрій тарас остап богдан ярослав володимир іван
петро павло михайло степан василь григорій максим назар денис олег ігор віктор віталій євген вадим руслан артем
кирило орест олена оксана ірина наталія наталя тетяна світлана юлія ганна марія катерина людмила галина ольга
анастасія вікторія софія христина соломія зоряна леся лариса мар'яна уляна дарина іванна ярина
александр алексей дмитрий сергей андрей иван михаил николай павел пётр петр владимир евгений игорь юрий константин
артём артем кирилл никита денис антон илья григорий фёдор федор станислав тимур руслан ринат эльдар анна мария
елена ирина наталья татьяна светлана екатерина анастасия юлия дарья ксения полина алина евгения людмила галина
эльвира гульнара диана кристина валерия елизавета софья варвара
георги димитър петър христо стоян калин тодор красимир любомир пламен веселин цветан иванка цветелина десислава
гергана росица милена радостина теодора боряна
марко никола милош стефан лазар душан драган зоран ненад небојша александар вук бранко милан јована милица јелена
драгана ивана снежана тамара катарина
саша дима миша рома женя лёша леша вова коля паша серёжа сережа витя толя костя гоша юра
валера гена стас влад макс тёма ваня петя федя боря гриша лёня лёва игорёк шура сеня славик вадик
маша даша катя настя лена оля таня света юля наташа ира аня галя люда вика ксюша лиза соня надя тоня валя зина
алёна алена кира варя лера алиса ульяна жора тимоха
сашко миколка петрик юрко андрійко тарасик олесь оксанка наталка іринка галинка ганнуся софійка марічка тетянка
гошо пешо тошо митко ванко ачо мими ники стефка цеци краси бобо жоро данчо
мика жика пера лаза ђока маца цеца гага раша ђорђе јоца јова
μπάμπης τάσος σάκης τάκης λάκης μάκης άκης νίκος κώστας γιάννης μήτσος θανάσης στέλιος βαγγέλης λευτέρης
ντίνα κατερίνα μαρίνα βάσω ρένα λένα τζένη""".split())
# what a person does, said by the word after a name opening a sentence ("Кузнецов сказал …", "Петренко сказав …",
# "Петров каза …", "Петровић каже …", "Ο Γιώργος είπε …" has its article): speaking, asking, deciding, fixing
_PERSON_VERB_AFTER_RE = re.compile(
    r"[ \t]+(?:(?:уже|тоже|вже|теж|вече|също|већ|је|ήδη|επίσης)[ \t]+)?(?:"
    r"сказал|сказала|говорит|пишет|написал|написала|просит|попросил|попросила|спрашивает|спросил|спросила|"
    r"предложил|предложила|считает|думает|ответил|ответила|подтвердил|подтвердила|обещал|обещала|починил|починила|"
    r"сказав|сказала|каже|пише|написав|написала|просить|попросив|попросила|питає|запитав|запитала|запропонував|"
    r"запропонувала|вважає|думає|відповів|відповіла|підтвердив|підтвердила|обіцяв|обіцяла|виправив|виправила|"
    r"каза|казва|написа|помоли|пита|попита|предложи|смята|отговори|потвърди|обеща|оправи|"
    r"рекао|рекла|написао|написала|питао|питала|предложио|предложила|мисли|одговорио|одговорила|потврдио|потврдила|"
    r"είπε|λέει|γράφει|έγραψε|ζήτησε|ζητάει|ρώτησε|ρωτάει|πρότεινε|θεωρεί|σκέφτεται|απάντησε|επιβεβαίωσε|"
    r"υποσχέθηκε|διόρθωσε)(?![^\W\d_])", re.IGNORECASE)
# the endings of surnames of these languages, for a word opening a sentence that is called or does what a person does
_SURNAME_ENDINGS = ("енко", "чук", "юк", "ук", "ов", "ова", "ев", "ева", "ёв", "ин", "ина", "ский", "ская", "ський",
                    "ська", "ски", "ска", "ич", "ић", "вич", "вић", "όπουλοσ", "ίδησ", "άκησ", "ίου", "άτοσ", "έασ")
# days, months, feasts and God (their capital is the language's, not a name's): "до Τρίτη", "на Різдво", "τω Θεώ"
_CASED_FEASTS = frozenset("""пасха рождество різдво великдень коледа великден божић ускрс πάσχα χριστούγεννα
πρωτοχρονιά θεοφάνεια бог бога богу господи господь θεόσ θεού θεώ θεέ""".split())

# words that follow these cues and are not names: function words and the usual objects of "call", "ask", "ping"
_NOT_NAMES = frozenset(
    """a an the this that these those it its it's me you him her them us we they everyone everybody someone somebody
    anyone anybody nobody one all each both who what when where why how which here there back up out in on off
    over down away again later now soon today tomorrow tonight support sales admin admins ops devops sre oncall
    on-call team teams people folks staff security legal finance hr it help helpdesk desk service services server
    servers user users customer customers client clients function functions method methods hook hooks callback
    callbacks endpoint endpoints api apis model models assistant bot bots agent agents system systems tool tools
    cli shell script scripts job jobs task tasks worker workers queue process processes thread threads home
    mom mum dad mother father boss manager doctor police ambulance someone else my our your his their about for
    with to from by at of not no yes please thanks thank sorry ok okay sure also just only even still very really
    is are was were be been being do does did done have has had will would can could should may might must shall
    new old good great big small first last next previous other another same such more most less many much few
    is: name names called named number numbers address email mail phone line lines list lists sync async await
    into onto upon via per vs etc tests test suite build builds deploy deploys release releases update updates
    check checks fetch get set put post patch delete close open read write run runs start stop restart reload
    init main self super null none true false nil undefined void return yield import export from require
    meeting meetings call calls chat chats question questions questions? issue issues ticket tickets pr prs
    review reviews reviewer reviewers maintainer maintainers owner owners author authors""".split()
)


# Cues a name carries in Latin letters in the languages that write them around it, each rule with a pre-check of what
# it cannot match without (searched first: far cheaper than the rule's own pattern, which tries a capitalised word at
# every position):
# * Filipino's personal articles ("si Juan dela Cruz", "pinsan ni Marites", "kay Jun", "sina Ana at Ben"): lower-case
#   before one to three capitalised words (with the particles of Filipino surnames);
# * a romanised honorific written onto the name ("Hiroshi-san", "Tanaka sensei", "Sharma-ji", "Minji-ssi");
# * a sign-off after a dash closing the message or a line ("… drop it off whenever. — Jack");
# * a Hindi postposition after the name in romanised Hindi ("Vikram ka number", "Priya ko bolo", "Rahul ne fix kiya");
# * a Vietnamese word of address before the name ("chị Lan ơi", "anh Minh", "cô Hạnh", "ông Tuấn");
# * a nickname in quotes between a given name and a surname ("Chinedu 'Bart' Nwachukwu", 'Robert "Bobby" Tables');
# * a Vietnamese full name, which opens with one of a few surnames ("Nguyễn Văn An", "Trần Thị Mai"): written with
#   its marks, the surname and one word more; without them ("Nguyen Van An"), two more (the English model reads
#   those in English text, not in Vietnamese).
_CAP = r"[^\W\d_a-z][\w'’\-]*"  # (a capital of any alphabet: the rules check ``isupper``)
_VI_SURNAMES = "Nguyễn|Trần|Lê|Phạm|Hoàng|Huỳnh|Phan|Vũ|Võ|Đặng|Bùi|Đỗ|Hồ|Ngô|Dương|Lý|Trương|Đinh|Đoàn|Lương|Trịnh"
_VI_SURNAMES_PLAIN = "Nguyen|Tran|Pham|Hoang|Huynh|Dang|Bui|Ngo|Duong|Truong|Dinh|Doan|Luong|Trinh"
_VI_SYLLABLE = r"[ \t]+[A-ZÀ-ỸĐ][a-zà-ỹđ]{1,6}"
_FIL_ARTICLES = r"(?:si|ni|kay|sina|nina|kina)"
_HONORIFICS = r"(?:san|sama|sensei|senpai|kun|chan|shi|ji|ssi|nim|bhai|didi|jee)"
_HI_POSTPOSITIONS = r"(?:ka|ki|ke|ko|ne)"
_VI_ADDRESS = r"(?:anh|chị|em|cô|chú|bác|ông|bà)"
_QUOTE_OPEN, _QUOTE_CLOSE = "['\"“‘]", "['\"”’]"
_SIGN_OFF = rf"[—–~-]{{1,2}}[ \t]*({_CAP}(?:[ \t]+{_CAP})?)[ \t.!]*$"
_FIL_ARTICLE_RE = re.compile(
    rf"(?<![\w\-]){_FIL_ARTICLES}[ \t]+"
    rf"({_CAP}(?:[ \t]+(?:(?:dela|de|del|delos|de[ \t]+los|san|sta\.)[ \t]+)?{_CAP}){{0,2}})")
_HONORIFIC_SUFFIX_RE = re.compile(
    rf"(?<![\w\-])({_CAP}(?:[ \t]+{_CAP})?)(?:-{_HONORIFICS}|[ \t]+(?:san|sama|sensei|ji))\b")
_DASH_SIGN_OFF_RE = re.compile(rf"(?:^|(?<=[.!?)\s]))[ \t]*{_SIGN_OFF}", re.MULTILINE)
_HI_POSTPOSITION_RE = re.compile(rf"(?<![\w\-])({_CAP})[ \t]+{_HI_POSTPOSITIONS}[ \t]+[^\W\d_]")
_VI_ADDRESS_RE = re.compile(rf"(?<![\w\-])(?i:{_VI_ADDRESS})[ \t]+({_CAP}(?:[ \t]+{_CAP}){{0,2}})")
_NICKNAME_RE = re.compile(rf"(?<![\w])({_CAP}[ \t]+{_QUOTE_OPEN}{_CAP}{_QUOTE_CLOSE}[ \t]+{_CAP})")
_VI_FULL_NAME_RE = re.compile(rf"(?<![\w\-])((?:{_VI_SURNAMES})(?:{_VI_SYLLABLE}){{1,3}}|(?:{_VI_SURNAMES_PLAIN})"
                              rf"(?:{_VI_SYLLABLE}){{2,3}})(?![\w\-])")
_LATIN_CUE_RULES = tuple((rule, re.compile(key, re.MULTILINE)) for rule, key in (
    (_FIL_ARTICLE_RE, rf"(?:^|[ \t(\"'“‘]){_FIL_ARTICLES}[ \t]"),
    (_HONORIFIC_SUFFIX_RE, rf"(?:-|[ \t]){_HONORIFICS}\b"),
    (_DASH_SIGN_OFF_RE, _SIGN_OFF),
    (_HI_POSTPOSITION_RE, rf"[ \t]{_HI_POSTPOSITIONS}[ \t]"),
    (_VI_ADDRESS_RE, rf"(?i:{_VI_ADDRESS})[ \t]+[^\W\d_a-zà-ỹ]"),
    (_NICKNAME_RE, rf"[ \t]{_QUOTE_OPEN}[^\W\d_a-z]"),
    (_VI_FULL_NAME_RE, rf"(?:{_VI_SURNAMES}|{_VI_SURNAMES_PLAIN})[ \t]"),
))
# a possessive of a listed given name in lower case ("siddharth's branch"; a capitalised one is the model's and the
# heuristics': spelt like a name, "Chidi's comment", it took a product's possessive too): each "'s", then the word
# before it
_POSSESSIVE_S_RE = re.compile("['’]s\\b")
_WORD_BEFORE_RE = re.compile(r"(?<![\w@#/.\-])([^\W\d_A-Z]{3,})\Z")


def _a_name_word(word: str) -> bool:
    """A listed given name, or a word that is neither prose nor technology ("Lerato"; not "Done", "Kafka"); each part
    of a compound capitalised ("Jean-Luc", not "Kubernetes-only")."""
    parts = [p for p in re.split(r"[-'’]", word) if p]
    if not parts or any(not p[0].isupper() for p in parts[1:] if len(p) > 1):
        return False
    low = word.casefold()
    return low in given_names() or (_name_word_ok(word) and not any(is_plain_word(p) or is_tech_word(p)
                                                                    for p in parts))


def _latin(text: str) -> bool:
    """Written in Latin letters (Vietnamese "Thị" and "Nguyễn" too: their letters are beyond Latin Extended-B)."""
    return all(c < "\u0250" or not c.isalpha() or unicodedata.name(c, "").startswith("LATIN") for c in text)


def _name_word_ok(word: str) -> bool:
    low = word.casefold().strip("'’-")
    if len(low) < 2 or low in _NOT_NAMES or low in STOP_WORDS or low in function_words():
        return False  # (a function word of another script is none either: "call पर join", call on)
    return not any(c.isdigit() or c == "_" for c in word)


# a word followed by a comma and more words: someone called ("Иван, посмотри логи")
_CALLED_RE = re.compile(r"[ \t]*,[ \t]*[^\W\d_]")


def _opening_name(word: str, *, called: bool, acts: bool) -> bool:
    """A Cyrillic or Greek word opening a sentence, where its capital says nothing, is a name when the lists hold
    it as a given name (:data:`_MORE_GIVEN_NAMES` too), as written or called (:data:`_VOCATIVE_ENDINGS`), or —
    called ("Ткаченко, …") or doing what a person does ("Кузнецов сказал", ``acts``) — when it is spelt like a
    surname (:data:`_SURNAME_ENDINGS`); never a stop word or a day, month or feast of those languages. A name that is
    a word of the language too ("Вера", "Σοφία") only when it is called or acts."""
    low = word.casefold()
    if low in _cyr_grk_stop_words() or low in _cased_calendar_words():
        return False
    given = given_names()
    if low in given or low in _MORE_GIVEN_NAMES:
        return called or acts or low not in _NAMES_THAT_ARE_WORDS
    if (called or acts) and len(low) >= 5 and low.endswith(_SURNAME_ENDINGS):
        return True  # (not any word that acts: "Клиент пишет" is the customer writing)
    forms = [low[: -len(end)] + nominative for end, nominative in _VOCATIVE_ENDINGS
             if low.endswith(end) and len(low) - len(end) >= 2]
    if called:
        forms += [low + end for end in _CLIPPED_ENDINGS if len(low) >= 3]
    return any((f in given or f in _MORE_GIVEN_NAMES) and (called or f not in _NAMES_THAT_ARE_WORDS) for f in forms)


@functools.cache
def _cased_calendar_words() -> frozenset[str]:
    """Days and months of Faker's Cyrillic and Greek locales, and the feasts of :data:`_CASED_FEASTS`, casefolded."""
    return _CASED_FEASTS | {w.casefold() for w in faker_calendar_names() if "\u0370" <= w[0] <= "\u04ff"}


@functools.cache
def _cyr_grk_stop_words() -> frozenset[str]:
    """The stop words of the Cyrillic and Greek languages spaCy has lists for ("Это", "Если", "Όταν")."""
    return frozenset(w.casefold() for lang in ("ru", "uk", "bg", "sr", "mk", "el") for w in spacy_stop_words(lang))


# A cue's finding: as sure as the English model's
_CUED = 0.85


class CuedNameRecognizer(EntityRecognizer):
    """PERSON after a relation, introduction or contact cue, in any script and case (see the module)."""

    def __init__(self, supported_language: str = "en"):
        super().__init__(supported_entities=["PERSON"], name="RecMemCuedNames",
                         supported_language=supported_language)

    def load(self) -> None:
        _cyr_grk_stop_words(), _cased_calendar_words(), function_words()  # (read before the process takes work)

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        out: list[RecognizerResult] = []
        non_latin = any(c >= "\u0370" for c in text)
        for m in _CUE_RE.finditer(text):
            span = self._after_cue(text, m.end(), relation=True, thai=non_latin)
            if span and _ROLE_CUE_RE.search(m.group(0)) and _latin(text[span[0] : span[1]]):
                continue  # "our client libraries", "my assistant app": a role word is also a product word
            if span:
                out.append(_result(self, "PERSON", *span, _CUED))
        if non_latin:
            for m in _WEAK_INTRO_RE.finditer(text):
                span = self._after_cue(text, m.end(), relation=True, thai=True)
                if span and any(c >= "\u0370" for c in text[span[0] : span[1]]):
                    out.append(_result(self, "PERSON", *span, 0.8))
        for m in _OWNER_RE.finditer(text):
            span = self._owner_after(text, m.end())
            if span:
                out.append(_result(self, "PERSON", *span, _CUED))
        for m in _CONTACT_RE.finditer(text):
            span = self._after_cue(text, m.end(), relation=False, thai=non_latin)
            if span:
                out.append(_result(self, "PERSON", *span, 0.6))
        for rule, key in _LATIN_CUE_RULES:
            if not key.search(text):
                continue  # (most texts hold none of the cue's own characters)
            for m in rule.finditer(text):
                words = m.group(1).split()
                if words[0][0].isupper() and _a_name_word(words[0]) and (
                        rule is not _NICKNAME_RE or _a_name_word(words[-1])):
                    out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.88 if rule is _NICKNAME_RE else _CUED))
        for m in _POSSESSIVE_S_RE.finditer(text):
            word = _WORD_BEFORE_RE.search(text, max(0, m.start() - 40), m.start())
            if word and word.group(1) in given_names():
                out.append(_result(self, "PERSON", word.start(1), word.end(1), _CUED))
        if non_latin:
            for m in _CYR_GRK_CAP_RE.finditer(text):
                word = m.group(1)
                if word.isupper() or not _name_word_ok(word) or word.casefold() in _cased_calendar_words():
                    continue
                out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.55))
            for m in _CYR_GRK_OPENING_RE.finditer(text):
                word = m.group(1)
                if not word.isupper() and _opening_name(word, called=bool(_CALLED_RE.match(text, m.end(1))),
                                                        acts=bool(_PERSON_VERB_AFTER_RE.match(text, m.end(1)))):
                    out.append(_result(self, "PERSON", m.start(1), m.end(1), 0.6))
        return out

    @staticmethod
    def _owner_after(text: str, pos: int) -> tuple[int, int] | None:
        """One or two capitalised words after an owner cue (a lower-case word there is the data's kind: "le numéro
        de téléphone")."""
        m = _WORDS_AFTER_RE.match(text, pos)
        if not m or not m.group(1)[0].isupper() or not _name_word_ok(m.group(1)):
            return None
        second = m.group(2)
        if second and second[0].isupper() and _name_word_ok(second):
            return m.start(1), m.end(2)
        return m.start(1), m.end(1)

    @staticmethod
    def _after_cue(text: str, pos: int, *, relation: bool, thai: bool) -> tuple[int, int] | None:
        if thai and pos < len(text) and "\u0e01" <= text[pos] <= "\u0e4e":
            m = re.compile(f"{_THAI_RUN}(?:[ \\t]+{_THAI_RUN})?").match(text, pos)
            return m.span() if m else None
        m = _WORDS_AFTER_RE.match(text, pos)
        if not m:
            return None
        first, second = m.group(1), m.group(2)
        if not _name_word_ok(first):
            return None
        if text[m.end(1) : m.end(1) + 1] in ("(", "/") or re.match(r"\.\w", text[m.end(1) : m.end(1) + 2]):
            return None  # fetch(), os.path, a/b: code, not a name
        latin = _latin(first)
        if latin and first[0].isupper() and not relation:
            return None  # capitalised Latin names are the NER's and the heuristics' (with better evidence)
        end = m.end(1)
        # the second word in the first one's script: "陈静 reported" is a name and a verb
        if second and _name_word_ok(second) and latin == _latin(second) and (
                relation or not latin or _CLAUSE_END.match(text, m.end(2))):
            if not (latin and not relation and second.lower() in _NOT_NAMES):
                end = m.end(2)
        if not relation and latin and not _TIME_AFTER.match(text, end):
            return None  # "call anna tomorrow" yes, "call fetch on each row", "then call helm." no
        if relation and end == m.end(2) and first[0].isupper() and second[0].isupper():
            # names of three or four words, each capitalised ("Lê Thị Hạnh Duy", "Nguyễn Văn An")
            for _ in range(2):
                more = _NEXT_CAPITAL_RE.match(text, end)
                if not more or not _name_word_ok(more.group(1)):
                    break
                end = more.end(1)
        return m.start(1), end
