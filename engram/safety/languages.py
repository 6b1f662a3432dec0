"""Instruction overrides in other languages: "ignore all previous instructions" in 39 of them.

A line is flagged when, within a short window of one clause, it has a verb of dismissal (ignore,
forget, disregard, stop obeying), a word for instructions or rules, and a word for
"previous"/"all", each in a language other than English (English is the phrase rules' job).
Requiring all three keeps ordinary prose quiet: "the compiler ignores these directives" has no
"previous", "follow the instructions above" has no dismissal; and keeping them in one clause keeps
"Ignore the vendor files. The earlier instructions still apply." quiet too. Stems are matched as
substrings so inflected forms count; lists cover fr es de it pt nl ru uk pl tr zh zh-tw ja ko ar he
hi vi id fa, sv nb da fi cs sk el ro hu bg sr hr th bn ur sw tl ms ta ca.
"""

from __future__ import annotations

import re

_VERBS = (
    # fr, es, it, pt, nl, de
    "ignore", "oublie", "ne tiens pas compte", "ne tenez pas compte", "fais abstraction",
    "ignora", "olvida", "olvide", "omite", "haz caso omiso", "desatiende",
    "dimentica", "trascura", "non considerare", "non tenere conto",
    "esqueça", "esqueca", "desconsider", "negeer", "vergeet", "ignorier", "vergiss",
    "vergessen sie",
    "missachte",
    # ru, uk, pl, tr
    "игнорируй", "проигнорируй", "забудь", "не обращай", "не обращайте", "не учитывай",
    "ігноруй", "проігноруй", "не зважай", "zignoruj", "ignoruj", "zapomnij", "pomiń",
    "yok say", "görmezden gel", "unut", "dikkate alma", "göz ardı",
    # zh, zh-tw, ja, ko
    "忽略", "无视", "無視", "忘记", "忘記", "忽视", "忽視", "不要理会", "不要理會", "忘れ",
    "무시", "잊어", "잊고",
    # ar, he, hi, vi, id, fa
    "تجاهل", "انس", "إنس", "أهمل", "התעלם", "תתעלם", "שכח", "תשכח",
    "अनदेखा", "नज़रअंदाज़", "नजरअंदाज", "भूल", "bỏ qua", "phớt lờ", "quên", "lờ đi",
    "abaikan", "lupakan", "acuhkan", "نادیده", "فراموش",
    # sv nb da fi, cs sk, el ro hu, bg sr hr, ca
    "ignorera", "glöm", "bortse från", "strunta i", "ignorer", "se bort fra", "glem ",
    "ohita", "unohda", "jätä huomiotta", "älä välitä", "zapomeň", "nevšímej", "nevšímaj",
    "zabudni", "přehlížej", "prehliadaj", "αγνόησ", "αγνοήσ", "ξέχασ", "ξεχάσ", "ignoră",
    "uită", "nu ține cont", "figyelmen kívül", "felejtsd el", "ne vedd figyelembe",
    "игнорирай", "забрави", "не обръщай", "zanemari", "ignoriši", "ignoriraj", "zaboravi",
    "занемари", "игнориши", "заборави", "oblida",
    # zh (stop obeying), th bn ur sw tl ta
    "不要再遵守", "不要遵守", "别再遵守", "不再遵守", "无需遵守", "無需遵守", "不要再遵循",
    "不要遵循",
    "เพิกเฉย", "ไม่ต้องสนใจ", "ลืม", "ละเว้น", "উপেক্ষা", "ভুলে যাও", "অগ্রাহ্য", "نظر انداز",
    "بھول جا", "puuza", "sahau", "usijali", "huwag pansinin", "kalimutan", "balewalain",
    "jangan hiraukan", "புறக்கணி", "மறந்து",
)
_NOUNS = (
    "instruction", "consigne", "directive", "instruccion", "indicaciones", "órdenes",
    "anweisung", "instruktion", "befehle", "vorgaben", "istruzion", "indicazion",
    "instruç", "instruc", "orientaç", "instructie", "aanwijzing",
    "инструкци", "указани", "команд", "інструкці", "вказів", "instrukcj", "polecen", "talimat",
    "指令", "指示", "说明", "說明", "命令", "지시", "명령", "지침",
    "تعليمات", "الأوامر", "الإرشادات", "הוראות", "הנחיות", "निर्देश",
    "hướng dẫn", "chỉ dẫn", "chỉ thị", "instruksi", "petunjuk", "perintah",
    "دستورالعمل", "دستورات",
    # rules and norms, which overrides name as often as instructions
    "reglas", "normas", "regole", "regras", "regeln", "правил", "规则", "規則", "规范", "ルール",
    "규칙", "القواعد", "gesagt",
    # sv nb da fi, cs sk, el, hu, bg sr hr, th bn ur sw tl ms ta
    "anvisning", "instruks", "ohje", "käsky", "määräy", "pokyn", "instrukc", "οδηγί", "εντολ",
    "utasítás", "uputstv", "upute", "uputa", "упутств", "คำสั่ง", "คำแนะนำ", "নির্দেশ", "ہدایات",
    "احکامات", "maagizo", "maelekezo", "tagubilin", "instruksyon", "arahan", "அறிவுறுத்தல்",
    "வழிமுறை", "கட்டளை",
)
_EARLIER = (
    "précédent", "precedent", "antérieur", "toutes", "ci-dessus", "anterior", "previa", "todas",
    "vorherig", "bisherig", "vorigen", "alle ", "obigen", "früher", "precedenti", "tutte",
    "vorige", "eerdere", "bovenstaande", "предыдущ", "прежн", "все ", "вышеуказ", "попередн",
    "усі", "всі", "poprzedni", "wszystkie", "wcześniejsz", "önceki", "tüm", "bütün",
    "之前", "以上", "先前", "上面", "前面", "所有", "全部", "これまで", "以前", "前の", "上記",
    "すべて", "全て", "이전", "앞의", "모든", "위의", "السابقة", "جميع", "كل ", "הקודמות", "כל ",
    "पिछले", "सभी", "पहले", "trước", "tất cả", "mọi", "sebelumnya", "semua", "قبلی", "همه",
    "plus haut", "antes", "앞에서", "다 ", "vorher", "zuvor",
    # sv nb da fi, cs sk, el ro hu, bg sr hr, ca
    "tidigare", "föregående", "ovanstående", "tidligere", "forrige", "aiemm", "aikaisemm",
    "edellis", "kaikki", "yllä", "předchozí", "všechny", "dřívější", "predchádzajúc", "všetky",
    "προηγούμεν", "όλες", "όλα", "παραπάνω", "anterioare", "toate", "korábbi", "összes", "előző",
    "предишни", "всички", "prethodn", "sva ", "sve ", "svih", "претходн", "сва ", "anteriors",
    "totes",
    # th bn ur sw tl ms ta
    "ก่อนหน้า", "ทั้งหมด", "ข้างต้น", "আগের", "সমস্ত", "পূর্ববর্তী", "پچھلی", "پچھلے", "تمام",
    "سابقہ", "yote", "zote", "ya awali", "zilizopita", "naunang", "lahat", "nakaraang",
    "sebelum ini", "முந்தைய", "அனைத்து",
)
_VERB_RE = re.compile("|".join(re.escape(w) for w in _VERBS))
_NOUN_RE = re.compile("|".join(re.escape(w) for w in _NOUNS))
_EARLIER_RE = re.compile("|".join(re.escape(w) for w in _EARLIER))
_WINDOW = 90
# A clause ends at sentence punctuation followed by a space (".env" is not an end) or at CJK,
# Devanagari, Arabic-script and Greek full stops and semicolons.
_CLAUSE_END = re.compile(
    r"[.;!?:](?=\s|$)|[。；！？।۔؛·，、]"
    # ", but ...": the dismissal is over ("ignore the generated files, but every earlier rule
    # still applies").
    r"|,\s*(?:but|aber|pero|mais|ma|mas|maar|ale|ama|men|mutta|но|але|αλλά|dar|ali|lakini"
    r"|tetapi|tapi|ngunit|nhưng|لكن|אבל|لیکن|แต่|men|dog|mais|però)\b"
)


def _ascii_noun(low: str) -> bool:
    # The nouns an ASCII line must contain for any language's rule to match; most lines have
    # none. Spelled out: a chain of `in` tests is several times faster than any() or a regex.
    return ("instru" in low or "consigne" in low or "directive" in low or "indicaci" in low
            or "orden" in low or "anweisung" in low or "befehle" in low or "vorgabe" in low
            or "istruzion" in low or "indicazion" in low or "aanwijzing" in low
            or "polecen" in low or "talimat" in low or "petunjuk" in low or "perintah" in low
            or "reglas" in low or "normas" in low or "regole" in low or "regras" in low
            or "regeln" in low or "anvisning" in low or "ohje" in low or "kasky" in low
            or "pokyn" in low or "upute" in low or "uputa" in low or "uputstv" in low
            or "maagizo" in low or "maelekezo" in low or "tagubilin" in low or "arahan" in low
            or "gesagt" in low)


def foreign_override(low: str) -> int | None:
    """The column of a non-English instruction override in a lower-cased line."""
    if low.isascii() and not _ascii_noun(low):
        return None
    for verb in _VERB_RE.finditer(low):
        start = max(0, verb.start() - _WINDOW)
        before, after = low[start : verb.start()], low[verb.start() : verb.end() + _WINDOW]
        ends = list(_CLAUSE_END.finditer(before))
        if ends:
            before = before[ends[-1].end() :]
        end = _CLAUSE_END.search(after, verb.end() - verb.start())
        if end:
            after = after[: end.start()]
        window = before + after
        if _NOUN_RE.search(window) and _EARLIER_RE.search(window + " "):
            return verb.start()
    return None
