"""Instruction overrides in other languages: "ignore all previous instructions" in 20 of them.

A line is flagged when, within a short window, it has a verb of dismissal (ignore, forget,
disregard), a word for instructions, and a word for "previous"/"all", each in a language other
than English (English is the phrase rules' job). Requiring all three keeps ordinary prose quiet:
"the compiler ignores these directives" has no "previous", "follow the instructions above" has no
dismissal. Stems are matched as substrings so inflected forms count; lists cover fr es de it pt
nl ru uk pl tr zh zh-tw ja ko ar he hi vi id fa.
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
)
_EARLIER = (
    "précédent", "precedent", "antérieur", "toutes", "ci-dessus", "anterior", "previa", "todas",
    "vorherig", "bisherig", "vorigen", "alle ", "obigen", "früher", "precedenti", "tutte",
    "vorige", "eerdere", "bovenstaande", "предыдущ", "прежн", "все ", "вышеуказ", "попередн",
    "усі", "всі", "poprzedni", "wszystkie", "wcześniejsz", "önceki", "tüm", "bütün",
    "之前", "以上", "先前", "上面", "前面", "所有", "全部", "これまで", "以前", "前の", "上記",
    "すべて", "全て", "이전", "앞의", "모든", "위의", "السابقة", "جميع", "كل ", "הקודמות", "כל ",
    "पिछले", "सभी", "पहले", "trước", "tất cả", "mọi", "sebelumnya", "semua", "قبلی", "همه",
)
_VERB_RE = re.compile("|".join(re.escape(w) for w in _VERBS))
_NOUN_RE = re.compile("|".join(re.escape(w) for w in _NOUNS))
_EARLIER_RE = re.compile("|".join(re.escape(w) for w in _EARLIER))
_WINDOW = 90


def _ascii_noun(low: str) -> bool:
    # The nouns an ASCII line must contain for any language's rule to match; most lines have
    # none. Spelled out: a chain of `in` tests is several times faster than any() or a regex.
    return ("instru" in low or "consigne" in low or "directive" in low or "indicaci" in low
            or "orden" in low or "anweisung" in low or "befehle" in low or "vorgabe" in low
            or "istruzion" in low or "indicazion" in low or "aanwijzing" in low
            or "polecen" in low or "talimat" in low or "petunjuk" in low or "perintah" in low)


def foreign_override(low: str) -> int | None:
    """The column of a non-English instruction override in a lower-cased line."""
    if low.isascii() and not _ascii_noun(low):
        return None
    for verb in _VERB_RE.finditer(low):
        start = max(0, verb.start() - _WINDOW)
        window = low[start : verb.end() + _WINDOW]
        if _NOUN_RE.search(window) and _EARLIER_RE.search(window + " "):
            return verb.start()
    return None
