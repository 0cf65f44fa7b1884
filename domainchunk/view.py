"""The tolerant view of a document's lines that rules are matched on.

Extraction damages layout in ways no rule should have to spell out: page
furniture between the lines (``— 12 —``, ``第3页 共10页`` and the running title
printed with it) and hard-wrapped lines (a PDF's text cut at a fixed width, so
``…依照本法`` / ``第十条的规定`` puts a cross-reference at a line start). The view
is the text with the furniture lines left out and the wrapped lines joined into
the paragraphs they were, built once per document, with an offset map back to
the real text: rules match on the view, chunks are still slices of the text.

The view also reads past the marks converters and copies add around a line's
words: a Markdown converter's ``**`` around a line or its label, ``- `` list
marks, ``<br>`` tags and table pipes, and headings letter-spaced as ``第 一 章``.
Rules then match one form of each.

Full-width punctuation inside a number (``12．5``, ``2019－01－03 08：29``, ``3．5－5．5``, as a
Chinese input method or a 半角转全角 pass writes it; the readers fold the digits already) reads
as ASCII in the view, one character for one, so a rule spells a number once; so does a table's
full-width pipe (``｜ 甲方：… ｜``). A label the rules
take from such a line keeps what the document wrote (:meth:`View.as_written`).

The map is a sorted list of kept runs, ``(view start, text start)``; a position
is mapped with one binary search. Nothing is dropped but whole furniture lines
(and table rule lines), the line breaks (and indentation) inside a wrapped
paragraph and the marks and letter-spacing gaps above, so a view line start is a
line start of the text or lies just past marks at one.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Set
from dataclasses import dataclass, replace

from .numerals import CHINESE_NUMERAL

# A page-number line: decorated digits (— 12 —, - 3 -), 第3页 共10页, 3/10, Page 3 of 10.
_PAGE_NUMBER = re.compile(
    r"(?m)^[ \t\u3000\f]*(?:[—–\-－~～]+[ \t\u3000]*\d{1,4}[ \t\u3000]*[—–\-－~～]+"
    r"|第[ \t\u3000]*\d{1,4}[ \t\u3000]*页(?:[ \t\u3000]*[,，/]?[ \t\u3000]*共[ \t\u3000]*\d{1,4}[ \t\u3000]*页)?"
    r"|共[ \t\u3000]*\d{1,4}[ \t\u3000]*页[ \t\u3000]*第[ \t\u3000]*\d{1,4}[ \t\u3000]*页"
    r"|\d{1,4}[ \t\u3000]*/[ \t\u3000]*\d{1,4}"
    r"|[Pp]age[ \t]*\d{1,4}(?:[ \t]*of[ \t]*\d{1,4})?)[ \t\u3000]*$"
)
# A running title repeats beside the page numbers on this many pages; it is a short line.
RUNNING_TITLE_PAGES = 2
RUNNING_TITLE_MAX = 40
# Hard wrapping: the width a text was cut at is the commonest length among its long lines (at
# least WRAP_WIDTHS.start characters), and it lies in WRAP_WIDTHS; at least WRAP_MIN_FULL lines
# and WRAP_FULL_SHARE of the long lines reach it, hardly any line is longer (a wrapped text has
# no long lines; a normal one has many), and most of the lines at the width end mid-sentence: a
# cut falls anywhere, while a line its writer ended (a one-line paragraph that happens to be
# the longest) ends in punctuation. Shares, not counts of the whole text: a short judgment cut
# at 36 may have three full lines among a dozen short ones (names, dates, signatures).
WRAP_WIDTHS = range(20, 81)
WRAP_MIN_LINES = 5
WRAP_MIN_FULL = 3
WRAP_FULL_SHARE = 0.3
WRAP_LONG_SHARE = 0.02
WRAP_FINISHED_SHARE = 0.5
# A text cut by its printed width (digits and Latin letters half a cell) was cut at a page's text
# width: at least this many cells.
PRINTED_MIN_WIDTH = 30
PARAGRAPH_INDENT = 2  # a Chinese paragraph's first-line indent, in characters
# A line that ends a sentence, a clause or a label may end a paragraph even at full width.
_FINISHED = tuple("。；;！？!?：:”」』")
# ... and so does one where a page number an extractor glued on follows that punctuation (…管道。19).
_FINISHED_THEN_PAGE = re.compile(r"[。；;！？!?”」』][0-9]{1,3}$")
# ... and under a printed width, which is an estimate, so does one that closes a bracket (see below).
_CLOSING = tuple("）)》〕】]")
_SENTENCE_ENDS = tuple("。；！？")
_PARAGRAPH_ENDS = (*_SENTENCE_ENDS, "：", ":")  # ... and a lead-in's colon: what may come right before a paragraph
# ... but in a wrapped text a cut falls after a 。 as often as anywhere, so the line after one
# still continues it unless it reads as an opener of its own: a numbered label (第…, 一、, （一）,
# 1., ①), a bracketed or Markdown heading, a short line with no sentence punctuation (a
# heading, a signature, a date), or a field label right at the line start (诊断依据：). A line
# that starts with a space continues: the cut fell on the gap a writer left between two
# sentences of one paragraph (…。 查体：…). A sentence's opening words (本院认为，) are no sign.
# 第… opens, unless it is an article cited on: a line the wrap starts at 第一百零七条之规定 or at
# 第二百九十八条第一款、 goes on with the sentence that cites it (第二十条之一 is an article).
_CITED_ON = rf"[{CHINESE_NUMERAL}0-9０-９]*[条款项](?:[第、，,的和及或与至]|之(?![{CHINESE_NUMERAL}]))"
_OPENER = re.compile(
    rf"[ \t\u3000]*(?:第[ \t\u3000]*[{CHINESE_NUMERAL}0-9０-９](?!{_CITED_ON})"
    rf"|[{CHINESE_NUMERAL}]+[ \t\u3000]*[、．.]"
    rf"|[（(][ \t\u3000]*[{CHINESE_NUMERAL}0-9０-９]+[ \t\u3000]*[）)]"
    r"|[0-9０-９]+[、．.)）](?![0-9０-９])"
    r"|[\u2460-\u2473\u3251-\u325f【〔\[#])"
)
# A field label: two to ten characters and its colon, or words with a bracketed word inside or
# after them (门（急）诊诊断：, 门(急)诊诊断:, 血压(mmHg)：): a form names a field that may be one of
# two (门诊 or 急诊) or gives its unit so.
_FIELD = re.compile(r"[\u4e00-\u9fff]{2,10}[:：]|[\u4e00-\u9fff]{1,10}[（(][\u4e00-\u9fffA-Za-z/]{1,6}[）)][\u4e00-\u9fff]{0,8}[:：]")
_SENTENCE_MARK = re.compile(r"[，,。；;！？!?]")
_LABEL_END = re.compile(r"[\u4e00-\u9fff]{2,8}[:：][ \t\u3000]*$")
# A text table pads its columns with runs of spaces, so its rows may all have one length: they
# do not count when the wrap width is measured, so such a table never reads as hard-wrapped.
# (Tab-separated rows vary in length, and a long one cut at the width is wrapped like prose.)
_COLUMNS = re.compile(r"\S[ \u3000]{2,}\S")
# ... but a word processor's numbered list saved as text puts a tab after each item's number
# (1.1<TAB>…, <TAB>(a)<TAB>…, indented by tabs): that tab sets no column, and such a paragraph is
# cut at the width like any other.
_LIST_NUMBER_TAB = re.compile(
    r"(?:\d{1,3}(?:[.．]\d{1,3})*[.．、]?|[（(][0-9a-zA-Z一二三四五六七八九十]{1,3}[）)]|[a-zA-Z][.)]"
    r"|[一二三四五六七八九十]{1,3}、|第[一二三四五六七八九十百0-9]{1,5}条)\t"
)
# A form line gives fields side by side (采样时间：… 报告时间：… 检验者：…), no sentence in it: a report
# repeats it on every panel with values of one length, so such lines share a length without any
# cut. One that the next line does not go on with (that line opens with a label, a caption or a
# numbered heading, not with the tail of a value and then the next field: 泌科　床号：8) does not
# count when the wrap width is measured.
_FORM_FIELDS = re.compile(r"\S[ \t\u3000]+[\u4e00-\u9fff]{2,8}[:：]")
# A rule line (──────, ======, ------ under a report's header) is drawn to a table's or a page's width:
# a print's rules share one length without any cut. A rule longer than the width is cut like any
# line (its pieces are full lines too), but a wrap cuts text: a width that no line of words
# reaches, only rules, is no wrap width.
_RULE_LINE = re.compile(r"[ \t\u3000]*[-=_~*─━═┄┅┈┉—－＝＿～＊]{3,}[ \t\u3000]*")


# Marks inside a line that no rule should have to spell out, each dropped from the view:
# - a Markdown list mark before a line's words (``- 1、服务内容``, ``* （一）``), as converters list
#   numbered items (a ``- 3 -`` page number line is furniture, left out whole), a browser's bullet
#   (``• 1、服务内容``) where a web page's list was copied, and a bullet a print sets before a block's
#   name (``■ 24小时尿蛋白定量``, ``◆ 肝功能``, ``● 诊疗经过``), spaced or glued: a mark no name is written
#   with (an open box □ is a tick box's choice, and stays);
# - ``**`` / ``__`` around a line's first words (``**第一章 总则**``, ``**第一条** 为了…``), as a
#   converter sets headings and labels in bold, the opening pair at the line start (after
#   indentation and ``#`` marks) and its closing pair later on the line;
# - an HTML line break (``<br>``, ``<br/>``) a converter writes where a line broke;
# - the gaps of letter-spacing at a line start, where labels are read: single characters, each one
#   a word of its own, three or more in a row (审 判 长, 第 一 章 总 则), or a two-character label
#   before its colon (主 诉：), or a bracketed title (【入 院 记 录】). A gap of one space goes; two
#   or more keep one word from the next. A title spaced after its label (第一节 申 请 人) is left
#   as written: its label is read already;
# - a Markdown table's pipes (``| 项目 | 结果 |`` in a block of rows with a ``| --- |`` rule under
#   its header, as Markdown has it): the outer ones and the spaces padding each cell go, and an
#   inner one reads as a tab, so the row is the tab-separated row a reader writes for a table
#   (the rules read rows of cells by their tabs); the rule line goes whole, as furniture does.
#   Pipe rows with no rule are text some rules read as written (a signature row).
# - the spaces some PDF extractors write after every full-width punctuation mark (…管理， 根据《 某法》)
#   and between CJK text and a run of digits or Latin letters (第 1 条, 2024 年 3 月, WBC ： 3.5): a
#   full-width mark's glyph leaves half its cell blank and a Latin run is set in another font, and
#   the extractor reads either gap as a space. Only a text that shows the habit is read so (most
#   of its marks inside a line have one space after them: no writer spaces them so), and only
#   single spaces go: two or more are a column gap.
_PUNCT = "，。；：、（）《》“”！？"
_INNER_PUNCT = re.compile(r"[，。；：、](?=[^\n])")
_PUNCT_GAP = re.compile(rf"(?<=[{_PUNCT}]) (?=[^\s])")
# A Latin run (3.5-5.5, 10^9/L, CT) with its gaps: a space between it and CJK goes when the run sits
# among CJK text, marks, ideographic spaces or a line's ends (第 1 条, 胸部 CT 示, 降钙素原+C 反应蛋白,
# 附件 1 　岗位说明书); one beside more
# Latin text (2024-12-03 08:40 主治…, WBC 5.2) may be the writer's own, and stays.
_LATIN_RUN = re.compile(r"(?P<lead>(?<=[^\x00-\u2e7f\s]|\u3000) )?[0-9A-Za-z][0-9A-Za-z.,:/%^+\-×]*(?P<tail> (?=[^\x00-\u2e7f\s]|\u3000))?")
EXTRACTOR_GAPS_MIN = 5  # marks inside lines a text needs before its spacing tells anything
EXTRACTOR_GAPS_SHARE = 0.6
# The Latin-run gaps alone, without the marks' (pdftotext -raw and pdfminer on a word processor's PDF:
# a digit or Latin run is set in the Latin font, and the font change reads as a space, while the
# full-width marks, set in the CJK font, get none): a text shows that habit when most of the runs
# that sit between two CJK characters have one space on each side (第 2.01 条, 2024 年 3 月) and few
# touch both neighbours; EXTRACTOR_GAPS_MIN and EXTRACTOR_GAPS_SHARE of them.
_RUN_AMONG_CJK = re.compile(r"(?<=[\u3400-\u9fff])( ?)[0-9A-Za-z][0-9A-Za-z.,:/%^+\-×]*( ?)(?=[\u3400-\u9fff])")
# one such run, to look further: opening on its space, a literal the scan skips to
_SPACED_RUN = re.compile(r" (?<=[\u3400-\u9fff] )[0-9A-Za-z][0-9A-Za-z.,:/%^+\-×]* [\u3400-\u9fff]")
_BULLETS = "◆◇●▲△★☆▶►•▪■◦"
_LIST_MARK = re.compile(rf"(?m)^[ \t\u3000]*([-*+][ \t]+|[{_BULLETS}][ \t\u3000]*)(?=[^\s\-+|{_BULLETS}])")
# (full-width too, ＊＊, where a 半角转全角 pass went over the Markdown; closed after a full-width mark's
# gap too, **主诉： **…, where an extractor put a space after the mark inside the pair)
_EMPHASIS = re.compile(r"(?m)^[\f \t\u3000]*(?:#{1,6}[ \t]*|[-*+][ \t]+)?(\*\*|__|＊＊)(?=\S)[^\n]*?(?:\S|(?<=[，。；：、]) )(\1)")
# A pair a line's gap parted (pdftotext's blocks of **第一条　技术秘密的内容**: ``**第一条`` / ``技术秘密的
# 内容**``, a blank line between): opened at one line's start, unclosed there, closed at the next
# text line's end.
_EMPHASIS_PARTED = re.compile(r"(?m)^[\f \t\u3000]*(\*\*|__|＊＊)(?=[^\s*_＊])[^\n*_＊]*\n(?:[ \t\u3000]*\n)?[^\n*_＊]*[^\s*_＊](\1)[ \t\u3000]*$")
_BREAK_TAG = re.compile(r"<br[ \t]*/?>", re.IGNORECASE)
# A run ends at a gap, a mark, or a bracketed title glued to its last character (第 三 条【车 辆 交 付】);
# it may open inside a bold pair (**第 一 条 …**), as a converter keeps a spaced heading's bold, and
# after the form feed that opens a page (a page's first line is read as any other line's).
_SPACED_CHAR = r"[\u3400-\u9fff0-9\uff10-\uff19【】〔〕（）]"  # a character, a digit, a bracket
_LETTER_SPACED = re.compile(
    rf"(?m)^[\f \t\u3000]*(?:#{{1,6}}[ \t]*|\*\*)?{_SPACED_CHAR}(?:[ \u3000]{_SPACED_CHAR}){{2,}}(?![^\s:：，,。；;、【〔*])"
    rf"|^[\f \t\u3000]*{_SPACED_CHAR}[ \u3000]{_SPACED_CHAR}(?=[:：])"
    rf"|^[\f \t\u3000]*(?:#{{1,6}}[ \t]*)?[【〔\[［][\u3400-\u9fff](?:[ \u3000][\u3400-\u9fff])+[】〕\]］]"
)
_GAP = re.compile(r"[ \u3000]")
# A justified line's character spacing read as spaces: pdfminer, pypdf and poppler's -raw mode write
# a space between two characters of a line the justification spread wherever the glyphs stand apart
# by more than their gap threshold (截 至 本 裁 定 作 出 …, 合 同 。 2024 年 1 月, 本院认为 ，用 人 单 位依 据):
# a run of digits or Latin letters, set tight in its own font, stays whole, and so do a few glyphs
# set closer. A whole line of pieces one space apart, most of them single CJK characters or marks,
# is such a line (no writer spaces a sentence so; a letter-spaced label at a line start is read
# above); its gaps go. Table rules (| │) are no pieces of it.
# (Its first pieces are short: a line of prose fails at its first characters, not at its end.)
_JUSTIFIED = re.compile(r"(?m)^[ \t\u3000\f]*(?:[^\s|│┃]{1,24} ){3}(?:[^\s|│┃]+ ){4,}[^\s|│┃]+[ \t]*$")
_SPREAD_GLYPHS = re.compile(" [^\x00-\x7f] [^\x00-\x7f] ")  # two glyphs spread in a row: a text with none has no such line
JUSTIFIED_SINGLES = 1 / 2  # of a spread line's pieces at least this share are single non-ASCII characters
# pdftotext writes a page break as a form feed opening the next page's first line (and one after the
# last page): no text, so the view leaves it out wherever it stands, and the line after it reads as
# any line does.
_FORM_FEED = re.compile("\f")
# Full-width ．：－／ between two digits: a decimal point, a time, a range or a date, never text.
_NUMBER_PUNCT = re.compile(r"(?<=[0-9])[．：－／](?=[0-9])")
# A full-width ｜ is a table's pipe as a 半角转全角 pass writes it (｜ 甲方：… ｜ 乙方：… ｜); no
# Chinese text uses it otherwise, so the view reads every one as |.
_FULLWIDTH_PIPE = re.compile("｜")
_TO_ASCII = str.maketrans("．：－／｜", ".:-/|")
# A pipe row, cut over several lines where a hard wrap fell inside a cell: until the line that
# ends it with a pipe (or is that pipe alone), no line of it opens with a pipe and a cell.
_PIPE_ROW = re.compile(r"(?m)^[ \t\u3000]*\|[^\n]*(?:\n(?![ \t\u3000]*\|[ \t]*[^\s|])[^\n]*){0,20}?\|[ \t]*$")
# (its dashes full-width too, and the line indented, where a 半角转全角 pass or an indenting
# word processor went over the table)
_PIPE_RULE = re.compile(r"[ \t\u3000]*\|(?:[ \t]*[:：]?(?:-{3,}|－{3,})[:：]?[ \t]*\|)+[ \t]*")
_PIPE = re.compile(r"\|")


def _is_pipe_rule(row: str) -> bool:
    """Whether a pipe row (over several lines, where a hard wrap cut it: ``| --- | --- `` / ``|``) is
    a table's rule: read with its line breaks out."""
    return bool(_PIPE_RULE.fullmatch(row.replace("\n", "")))


def _marks(text: str, cells: list[int]) -> list[tuple[int, int]]:
    """Spans of the text that the view leaves out inside lines: list marks, emphasis pairs,
    ``<br>`` tags, a ruled table's outer pipes and the spaces padding its cells, and
    letter-spacing gaps, in order. A ruled table's inner pipes go into ``cells``: the view reads
    each as a tab."""
    spans: list[tuple[int, int]] = []
    if "-" in text or "*" in text or "+" in text or any(b in text for b in _BULLETS):
        spans += [m.span(1) for m in _LIST_MARK.finditer(text)]
    if "**" in text or "__" in text or "＊＊" in text:
        for m in _EMPHASIS.finditer(text):
            spans += [m.span(1), m.span(2)]
        for m in _EMPHASIS_PARTED.finditer(text):
            spans += [m.span(1), m.span(2)]
    if "<" in text:
        spans += [m.span() for m in _BREAK_TAG.finditer(text)]
    if "|" in text and ("---" in text or "－－－" in text):
        for block in _pipe_tables(text):
            if not any(_is_pipe_rule(m.group()) for m in block):
                continue  # rows with no rule stay as written
            for m in block:
                row = [p.start() for p in _PIPE.finditer(text, m.start(), m.end())]
                if len(row) < 3 or _is_pipe_rule(m.group()):
                    continue  # a rule is left out whole, by _pipe_rules
                outer_a = m.start() + len(m.group()) - len(m.group().lstrip(" \t"))
                spans.append((outer_a, row[0] + 1))
                for a, b in zip(row, row[1:]):  # a cell: its padding out, its words as written
                    cell = text[a + 1 : b]
                    lead = len(cell) - len(cell.lstrip(" "))
                    if lead == len(cell):
                        if cell:
                            spans.append((a + 1, b))
                        continue
                    trail = len(cell) - len(cell.rstrip(" "))
                    if lead:
                        spans.append((a + 1, a + 1 + lead))
                    if trail:
                        spans.append((b - trail, b))
                cells += row[1:-1]
                spans.append((row[-1], m.end()))
    if "， " in text or "。 " in text or "： " in text or _SPACED_RUN.search(text):
        spans += _extractor_gaps(text)
    for m in _LETTER_SPACED.finditer(text):
        # the gaps between the characters, not the indentation before the first
        first = m.start() + len(m.group()) - len(m.group().lstrip("\f \t\u3000#【〔[［"))
        spans += [g.span() for g in _GAP.finditer(text, first, m.end())]
    if "\f" in text:
        spans += [m.span() for m in _FORM_FEED.finditer(text)]
    for m in _JUSTIFIED.finditer(text) if _SPREAD_GLYPHS.search(text) else ():
        pieces = m.group().split()
        if sum(len(p) == 1 and p > "\x7f" for p in pieces) < JUSTIFIED_SINGLES * len(pieces):
            continue  # words, digits or Latin: a sentence with spaces, a row of numbers, a code
        first = m.start() + len(m.group()) - len(m.group().lstrip(" \t\u3000\f"))
        last = m.start() + len(m.group().rstrip(" \t"))
        spans += [g.span() for g in _GAP.finditer(text, first, last)]
    # a gap two readings both leave out (a spaced heading that is a whole line) is one span
    return sorted(set(spans))


def _extractor_gaps(text: str) -> list[tuple[int, int]]:
    """The single spaces an extractor wrote after full-width marks and around Latin runs, when
    the text shows that habit; none otherwise."""
    marks = len(_INNER_PUNCT.findall(text))
    gaps = [m.span() for m in _PUNCT_GAP.finditer(text)]
    spaced = sum(1 for a, _ in gaps if text[a - 1] in "，。；：、")
    if marks >= EXTRACTOR_GAPS_MIN and spaced >= EXTRACTOR_GAPS_SHARE * marks:
        found = {a for a, _ in gaps}
    elif _latin_runs_spaced(text):
        found = set()
    else:
        return []
    for m in _LATIN_RUN.finditer(text):
        a, b = m.span()
        # a run with a space on one side that is not such a gap (2024-12-03 08:40 主治…, WBC 5.2) sits
        # beside more Latin text or a column gap: both its gaps stay
        left = m.group("lead") is not None or a == 0 or text[a - 1] not in " \t\u3000"
        right = m.group("tail") is not None or b == len(text) or text[b] not in " \t\u3000"
        if left and right:
            found.update(g for g in (m.start("lead"), m.start("tail")) if g >= 0)
    # a lone space only: one of two or more is part of a column gap
    return [(a, a + 1) for a in sorted(found) if text[a - 1] != " " and text[a + 1 : a + 2] != " "]


def _latin_runs_spaced(text: str) -> bool:
    """Whether most digit and Latin runs between CJK characters have a space on each side."""
    spaced = tight = 0
    for m in _RUN_AMONG_CJK.finditer(text):
        if m.group(1) and m.group(2):
            spaced += 1
        elif not (m.group(1) or m.group(2)):
            tight += 1
    return spaced >= EXTRACTOR_GAPS_MIN and spaced >= EXTRACTOR_GAPS_SHARE * (spaced + tight)


# poppler's pdftotext (its default mode, neither -layout nor -raw) writes the words of one printed
# line that a gap wider than a character sets apart as blocks of their own, each with a blank line
# after it: ``第一章　总　则`` comes out as ``第一章`` / ``总`` / ``则``, ``第一条　合伙目的`` as ``第一条`` /
# ``合伙目的``. A line that ends with a structural label (a bare ``第一章``, or a short heading glued to
# its first article's label, ``总则第一条``), with one blank line after it, goes on into the next
# line; so do the single characters of a letter-spaced title after one, one into the next (unless
# the line opens with a label of its own: ``第一章`` / ``第一条`` is a chapter and its article).
# Single characters two or more in a row, each its own block, are a letter-spaced word wherever they
# stand (``审　判　长　　某甲`` comes out as ``审`` / ``判`` / ``长`` / ``某甲``): no writer sets one character
# as a paragraph. The word goes on into the block after it when that is short, says nothing, is no
# field label of its own and is a block too (a blank line after it: the name the title signs with),
# and the short block before it goes on into the word (审判员 / 龙 / 某, 日期： / 年 / 月 / 日).
_LABEL_AT_END = re.compile(rf"第[ \t\u3000]*[{CHINESE_NUMERAL}0-9]{{1,8}}[ \t\u3000]*(?:[编章节条]|部分)[ \t\u3000]*$")
_SINGLE_CJK = re.compile(r"[ \t\u3000]*[\u3400-\u9fff][ \t\u3000]*")
TITLE_BLOCK_MAX = 6  # a signature's title (审判员, 人民陪审员) or a date's label (签订日期：) before a spaced word
BLOCK_HEADING_MAX = 20  # a line this long at most, with no sentence mark, may be a heading ending in a label
# Where such a label ends a line with one blank line after it: a text without one has no blocks to join.
_LABEL_BEFORE_BLANK = re.compile(
    rf"第[ \t\u3000]*[{CHINESE_NUMERAL}0-9]{{1,8}}[ \t\u3000]*(?:[编章节条]|部分)[ \t\u3000]*\n[ \t\u3000]*\n"
    r"|^[ \t\u3000]*[\u3400-\u9fff][ \t\u3000]*\n[ \t\u3000]*\n[ \t\u3000]*[\u3400-\u9fff][ \t\u3000]*$", re.MULTILINE)


# ... and the fields of a form's printed line (姓名：某甲　　性别：女　　年龄：64岁) come out as one block each,
# a blank line after every one. A blank line between two such blocks (a field's label at the line
# start, a short value, no sentence mark), in a run of FIELD_BLOCKS_MIN of them, is no paragraph gap:
# the view leaves it out, so the fields stand on lines of their own one under the other, as a
# header's lines do, and the report title above them and the panel's name below are one block.
# (The gap after a printed line's last block is pdftotext's too, so a writer's blank line between a
# report's header and its first panel's 检验项目： cannot be told from it there: the header then
# leads that panel.)
_FIELD_BLOCK = re.compile(r"[ \t\u3000]*(?:[\u4e00-\u9fff]{2,10}|[\u4e00-\u9fff]{1,10}[（(][\u4e00-\u9fffA-Za-z/]{1,6}[）)])[:：][^\n，。；;]{0,30}")
# two field blocks in a row, each after a blank line (a run of FIELD_BLOCKS_MIN has them), opening on a
# line break, a literal the scan skips to
_FIELD_BLOCK_GAP = re.compile(r"\n[ \t\u3000]*\n[ \t\u3000]*[\u4e00-\u9fff]{2,10}[:：][^\n，。；;]{0,30}\n[ \t\u3000]*\n[ \t\u3000]*[\u4e00-\u9fff]{2,10}[:：]")
FIELD_BLOCKS_MIN = 3


def _field_block_blanks(read_lines: list[str], drop: set[int]) -> set[int]:
    """The blank lines between field blocks (see above), in runs of FIELD_BLOCKS_MIN blocks or more."""
    out: set[int] = set()
    run: list[int] = []  # the blank lines of the current run of field blocks

    def close() -> None:
        if len(run) + 1 >= FIELD_BLOCKS_MIN:
            out.update(run)
        run.clear()

    i = 0
    while i + 2 < len(read_lines):
        if (_FIELD_BLOCK.fullmatch(read_lines[i]) and not read_lines[i + 1].strip()
                and _FIELD_BLOCK.fullmatch(read_lines[i + 2]) and not {i, i + 1, i + 2} & drop):
            run.append(i + 1)
            i += 2
            continue
        close()
        i += 1
    close()
    return out


def _says_nothing(line: str) -> bool:
    """A short block without a sentence mark: a title, a name, a date, a label."""
    return len(line.strip()) <= BLOCK_HEADING_MAX and not _SENTENCE_MARK.search(line)


def _split_blocks(read_lines: list[str], drop: set[int]) -> tuple[set[int], set[int]]:
    """The lines that go on a bare label (or the letter-spaced title after one) across the one
    blank line pdftotext wrote between the blocks of one printed line, and the blank lines the
    view leaves out: those between the blocks, and the one pdftotext wrote after the last block,
    which no writer set there (the line was one line: ``第一编　总　则`` above ``第二编　…`` in a
    table of contents, ``第一条　为了…`` above the line it wraps on to)."""
    joins: set[int] = set()
    spaced_word: set[int] = set()  # joined single characters of a word that stands alone
    for i in range(2, len(read_lines)):
        line, label = read_lines[i], read_lines[i - 2]
        if read_lines[i - 1].strip() or not line.strip() or {i, i - 1, i - 2} & drop or _OPENER.match(line):
            continue
        ends_with_label = (len(label.strip()) <= BLOCK_HEADING_MAX and not _SENTENCE_MARK.search(label)
                           and bool(_LABEL_AT_END.search(label)))
        single = bool(_SINGLE_CJK.fullmatch(label))
        if ends_with_label or (single and _SINGLE_CJK.fullmatch(line)):
            joins.add(i)
            if single and (i - 2 not in joins or i - 2 in spaced_word):
                spaced_word.add(i)  # a letter-spaced word of its own, not the title after a label
        elif (i - 2 in spaced_word and _says_nothing(line) and not _FIELD.match(line.lstrip())
              and (i + 1 == len(read_lines) or not read_lines[i + 1].strip())):
            joins.add(i)  # the word's last character, then the printed line's last block
    # ... and the block before the word goes on into it: the title a spaced name signs (审判员 / 龙 / 某),
    # the label a spaced date fills (签订日期： / 年 / 月 / 日)
    # when the word ends its printed line (no block after it) and that block is a few characters
    for i in [i for i in spaced_word if i - 2 not in spaced_word]:
        first, head, last = i - 2, i - 4, i
        while last + 2 in spaced_word:
            last += 2
        head_line = read_lines[head].strip() if head >= 0 else ""
        if head_line and last + 2 not in joins and not read_lines[first - 1].strip() \
                and len(head_line) <= TITLE_BLOCK_MAX and not _SINGLE_CJK.fullmatch(head_line) \
                and _says_nothing(head_line) and not {head, first - 1} & drop:
            joins.add(first)
    blanks = {i - 1 for i in joins}
    for i in joins:
        after = i + 2
        if after not in joins and after < len(read_lines) and not read_lines[i + 1].strip() \
                and read_lines[after].strip() and not {i + 1, after} & drop:
            blanks.add(i + 1)
    return joins, blanks


def _pipe_tables(text: str) -> list[list[re.Match]]:
    """The pipe rows of the text, grouped into blocks of consecutive lines."""
    blocks: list[list[re.Match]] = []
    for m in _PIPE_ROW.finditer(text):
        if blocks and blocks[-1][-1].end() + 1 == m.start():
            blocks[-1].append(m)
        else:
            blocks.append([m])
    return blocks


def _pipe_rules(text: str, raw_lines: list[str]) -> set[int]:
    """Indexes of a Markdown table's ``| --- | --- |`` rule lines (``raw_lines``: the lines of
    ``text``), and of the lines of a rule a hard wrap cut (``| --- | --- `` / ``|``)."""
    rules = {i for i, line in enumerate(raw_lines) if ("---" in line or "－－－" in line) and _PIPE_RULE.fullmatch(line)}
    if "---" in text or "－－－" in text:
        for m in _PIPE_ROW.finditer(text):
            if "\n" in m.group() and _is_pipe_rule(m.group()):
                first = text.count("\n", 0, m.start())
                rules.update(range(first, first + m.group().count("\n") + 1))
    return rules


@dataclass(frozen=True, slots=True)
class View:
    """The view's text and its map: run ``k`` of the view starts at ``vstarts[k]`` and is the
    text from ``tstarts[k]`` on. A run that starts just past marks left out at a line start
    (``- ``, ``**``, ``| ``) has its start mapped to the marks' start, ``leads[k]``: a chunk
    opening there keeps its line whole."""

    text: str
    vstarts: tuple[int, ...] = (0,)
    tstarts: tuple[int, ...] = (0,)
    length: int = 0  # of the real text
    leads: tuple[int, ...] = ()  # per run, where a start at the run's first position maps to
    folds: tuple[int, ...] = ()  # view positions of full-width number punctuation read as ASCII
    written: str = ""  # what the document wrote at each of ``folds``

    @property
    def identity(self) -> bool:
        """The view is the text itself: nothing left out, joined or folded."""
        return len(self.vstarts) == 1 and not self.folds

    @property
    def _unmapped(self) -> bool:
        return len(self.vstarts) == 1

    def as_written(self, label: str, start: int, end: int) -> str:
        """``label``, read off view positions ``start:end``, with the characters folded there put
        back as the document wrote them: ``12.5`` where it wrote ``12．5``. A label is the line's
        characters in order, whitespace collapsed; one built otherwise (a fixed name) is left be."""
        lo, hi = bisect_left(self.folds, start), bisect_left(self.folds, end)
        if lo == hi:
            return label
        out, j = list(label), start
        for i, ch in enumerate(label):
            if ch.isspace():
                continue
            while j < end and self.text[j] != ch:
                j += 1
            if j == end:
                return label  # not the line's own characters
            k = bisect_left(self.folds, j, lo, hi)
            if k < hi and self.folds[k] == j:
                out[i] = self.written[k]
            j += 1
        return "".join(out)

    def to_text(self, pos: int) -> int:
        """The text offset of view position ``pos`` (a start: the first character at or after it)."""
        if self._unmapped:
            return pos
        if pos >= len(self.text):
            return self.length
        k = bisect_right(self.vstarts, pos) - 1
        if self.leads and pos == self.vstarts[k]:
            return self.leads[k]
        return self.tstarts[k] + pos - self.vstarts[k]

    def end_to_text(self, pos: int) -> int:
        """The text offset of view end position ``pos`` (exclusive: just after the character before it)."""
        if self._unmapped or pos <= 0:
            return pos
        if pos > len(self.text):
            return self.length + 1
        # the raw map, not to_text: a run's lead maps a start, and this is the end of the one before
        k = bisect_right(self.vstarts, pos - 1) - 1
        return self.tstarts[k] + pos - self.vstarts[k]

    def to_view(self, pos: int) -> int:
        """The view position of text offset ``pos``; a position that was left out maps to the next kept one."""
        if self._unmapped:
            return pos
        k = bisect_right(self.tstarts, pos) - 1
        if k < 0:
            return 0
        end = self.vstarts[k + 1] if k + 1 < len(self.vstarts) else len(self.text)
        return min(self.vstarts[k] + pos - self.tstarts[k], end)


def _furniture(text: str, lines: list[tuple[int, int]]) -> set[int]:
    """Indexes of page-number lines and of the running titles printed beside them."""
    page_starts = {m.start() for m in _PAGE_NUMBER.finditer(text)}
    if not page_starts:
        return set()
    pages = {i for i, (a, _) in enumerate(lines) if a in page_starts}
    # The nearest non-blank line on each side of a page number may be a running title. The
    # document's own first line counts as one page's: a two-page printout repeats its title
    # beside one page number only, and that first line stays in the text.
    beside: dict[str, list[int]] = {}
    first = next((i for i, (a, b) in enumerate(lines) if text[a:b].strip()), None)
    if first is not None and first not in pages:
        beside[text[lines[first][0] : lines[first][1]].strip()] = [first]
    for i in pages:
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(lines) and not text[lines[j][0] : lines[j][1]].strip():
                j += step
            if 0 <= j < len(lines) and j not in pages:
                line = text[lines[j][0] : lines[j][1]].strip()
                if len(line) <= RUNNING_TITLE_MAX:
                    beside.setdefault(line, []).append(j)
    out = set(pages)
    for found in beside.values():
        if len(set(found)) >= RUNNING_TITLE_PAGES:
            out.update(j for j in found if j != first)
    return out


# Line numbers printed in a page's left margin (a court filing's, a word processor's line numbering):
# pdftotext -layout writes each before its line, right-aligned in a column (`` 13   第一条 …``), or on
# a line of its own where its baseline differs from the text's, and its default mode a page's numbers
# as one block of lines. A text shows them when its first line is numbered 1 and most of its lines
# are so numbered, each one more than the last (or 1 again, on a new page); the numbers and the gap
# after them then go, and a line of a number alone goes whole, as a page number does. An extraction
# that drops every space glues the number to its line (``13第一条…``): glued to a Han character or an
# opening bracket it is read as a margin number too, when the glued numbers count up as closely; so is
# one a tab sets off, where a re-save wrote the column gap as a tab.
_LINE_NUMBER = re.compile(r"[ \t\u3000]{0,6}(\d{1,4})(?:[ \t]{2,}(?=\S)|\t(?=\S)|[ \t]*$|(?=[\u4e00-\u9fff（《“〔【]))")
_FIRST_LINE_NUMBERED = re.compile(r"[\n \t\u3000]*1(?:[ \t]{2,}\S|\t\S|[ \t]*\n|[\u4e00-\u9fff（《“〔【])")
LINE_NUMBERS_MIN = 10
LINE_NUMBERS_SHARE = 0.5  # of the non-blank lines
LINE_NUMBERS_IN_ORDER = 0.9  # of the numbers, each one more than the one before, or 1


def _line_numbers(text: str, raw_lines: list[str], lines: list[tuple[int, int]]) -> tuple[set[int], list[tuple[int, int]]]:
    """The lines that are a margin's line number alone, and the spans of the numbers (with the gap
    after them) that open the other lines; none when the text shows no numbered margin."""
    if not _FIRST_LINE_NUMBERED.match(text):
        return set(), []
    found = [(i, m) for i, line in enumerate(raw_lines) if (m := _LINE_NUMBER.match(line))]
    numbers = [int(m.group(1)) for _, m in found]
    in_order = sum(b in (a + 1, 1) for a, b in zip(numbers, numbers[1:]))
    texts = sum(1 for line in raw_lines if line.strip())
    if (len(found) < LINE_NUMBERS_MIN or len(found) < LINE_NUMBERS_SHARE * texts
            or in_order < LINE_NUMBERS_IN_ORDER * (len(found) - 1)):
        return set(), []
    alone = {i for i, m in found if m.end() == len(raw_lines[i])}
    spans = [(lines[i][0], lines[i][0] + m.end()) for i, m in found if i not in alone]
    return alone, spans


def _wrap_width(lengths: list[int], text_lines: list[int], finished: list[bool], forms: set[int],
                rules: set[int], firsts: Set[int] = frozenset()) -> int | None:
    """The width a hard-wrapped text was cut at, or None when its lines were not cut. The ``forms``
    lines (ended form lines) are no cut lines, but one longer than the width still tells the
    text was not cut there; the ``rules`` lines (rule lines) alone reaching a width are no sign of it.
    ``firsts``: the lines that open a paragraph (after a blank line or a finished sentence)."""
    if len(text_lines) < WRAP_MIN_LINES:
        return None
    long_lines = [i for i in text_lines if lengths[i] >= WRAP_WIDTHS.start and i not in forms]
    counts = Counter(lengths[i] for i in long_lines)
    width = max((w for w in counts if w in WRAP_WIDTHS), key=lambda w: (counts[w], w), default=None)
    # CJK text is cut at one exact width: several lines share it, not just a spread of similar lengths.
    if width is None or counts[width] < WRAP_MIN_FULL:
        return None
    found = _cut_at(width, lengths, text_lines, long_lines, finished, rules)
    if found is None and firsts:
        # A text of short paragraphs, each first line indented two characters (首行缩进) and the indent
        # lost in extraction (pdftotext -raw, pdfminer, every space dropped): the commonest full line is
        # a first line, PARAGRAPH_INDENT short of the width the others fill. Where most lines of that
        # length open a paragraph and some lines are just the indent longer, the text was cut there.
        at = [i for i in long_lines if lengths[i] == width]
        wide = width + PARAGRAPH_INDENT
        if counts[wide] and sum(i in firsts for i in at) >= FIRST_LINES_SHARE * len(at):
            found = _cut_at(wide, lengths, text_lines, long_lines, finished, rules,
                            {i for i in at if i in firsts})
    return found


FIRST_LINES_SHARE = 0.8  # of the lines at the commonest length, the share that open a paragraph


def _cut_at(width: int, lengths: list[int], text_lines: list[int], long_lines: list[int], finished: list[bool],
            rules: set[int], short_firsts: Set[int] = frozenset()) -> int | None:
    """``width`` when the text reads as cut there, else None (see :func:`_wrap_width`); the
    ``short_firsts`` lines are first lines the lost indent left short of it, full lines too."""
    tol = _tolerance(width)
    full = [i for i in long_lines if width - tol <= lengths[i] <= width + tol or i in short_firsts]
    if all(i in rules for i in full):
        return None
    longer = sum(lengths[i] > width + tol for i in text_lines)
    if (len(full) < WRAP_FULL_SHARE * len(long_lines) or longer > WRAP_LONG_SHARE * len(text_lines)
            or sum(finished[i] for i in full) > WRAP_FINISHED_SHARE * len(full)):
        return None
    return width


def opens_paragraph(line: str) -> bool:
    """Whether ``line`` opens with a numbered label (第…, 一、, （一）, 1., ①), a bracketed or
    Markdown heading, or a field label (诊断依据：): the start of a paragraph, a list item or a
    field of its own, which no line above runs on into (the PDF reader asks it too)."""
    return bool(_OPENER.match(line) or _FIELD.match(line.lstrip()))


def is_form_line(line: str) -> bool:
    """Whether ``line`` is fields side by side (姓名：某甲 性别：男 …) with no sentence mark in it
    (the PDF reader asks it too)."""
    # the first field opens the line (采样时间：… 报告时间：…: two fields alone make a form line too)
    fields = len(_FORM_FIELDS.findall(line)) + bool(_FIELD.match(line.lstrip()))
    return fields >= 2 and not _SENTENCE_MARK.search(line)


def _ended_form_line(lines: list[str], i: int) -> bool:
    """Whether line ``i`` is a form line and the next line does not go on with its last value."""
    line = lines[i]
    if not is_form_line(line):
        return False
    after = lines[i + 1] if i + 1 < len(lines) else ""
    goes_on = bool(after.strip()) and not opens_paragraph(after) and bool(_FORM_FIELDS.search(after))
    return not goes_on


_HALF_WIDTH = re.compile(r"[\x21-\x7e]")
_NOT_HALF_WIDTH = bytes(range(0x21)) + b"\x7f"  # the ASCII bytes outside _HALF_WIDTH


def _printed_width(line: str) -> int:
    """The printed width of ``line`` in CJK cells: an ASCII character takes half a cell (counted
    as the line's ASCII bytes less spaces and controls, in C rather than a match per character),
    and so does a space of the indentation: pdftotext -layout indents a line with spaces on its
    character grid, about two for a CJK cell (three for a paragraph's two-character indent)."""
    indent = len(line) - len(line.lstrip(" "))
    return len(line) - (len(line.encode("ascii", "ignore").translate(None, _NOT_HALF_WIDTH)) + indent) // 2


def _has_columns(line: str) -> bool:
    """Whether ``line`` sets text in columns (a tab, or a run of spaces between words), the tabs
    that indent it and the one after a list item's number left out."""
    body = line.lstrip(" \t\u3000")
    if "\t" in body:
        body = _LIST_NUMBER_TAB.sub("", body, count=1) if _LIST_NUMBER_TAB.match(body) else body
    return "\t" in body or bool(_COLUMNS.search(body))


def _one_bracketed_note(line: str) -> bool:
    """Whether ``line`` is one bracketed note whole, its opening bracket at the line start closed
    only at its end (a statute's enactment note under its title, （2026年3月27日…通过）): its writer
    ended it there, and a heading on the next line (第一章　总则) does not go on from it, as a cut
    falls inside a note, not at its close. （一）…（见附件） closes its first bracket early: no note."""
    s = line.strip()
    if not (s.startswith(("（", "(")) and s.endswith(("）", ")"))):
        return False
    depth = 0
    for k, ch in enumerate(s):
        if ch in "（(":
            depth += 1
        elif ch in "）)":
            depth -= 1
            if depth <= 0 and k < len(s) - 1:
                return False
    return depth == 0


# a line that closes a bracket before it opens one (20）临0125刑初266号…, 一）…)
_CLOSES_FIRST = re.compile(r"[ \t\u3000]*[^（(）)\n]{0,12}[）)]")


def _open_bracket(line: str) -> bool:
    """Whether ``line`` leaves a bracket open at its end (…作出（20): a cut fell inside it."""
    depth = 0
    for ch in line:
        if ch in "（(":
            depth += 1
        elif ch in "）)" and depth:
            depth -= 1
    return depth > 0


def _tolerance(width: int) -> int:
    """How much shorter than the width a cut line may be (a proportional font, half-width digits)."""
    return max(1, width // 18)


def _double_spaced(lengths: list[int], drop: set[int]) -> bool:
    """Whether every text line is followed by a blank line: no two text lines touch."""
    kept = [n for i, n in enumerate(lengths) if i not in drop]
    return sum(1 for n in kept if n) >= WRAP_MIN_LINES and not any(a and b for a, b in zip(kept, kept[1:]))


def _opens(line: str, width: int) -> bool:
    """Whether ``line``, after a line that may have ended its paragraph right at the wrap width,
    starts a paragraph of its own rather than continuing the one cut there."""
    if _OPENER.match(line) or _FIELD.match(line):
        return True
    # A Chinese paragraph's first line is indented two ideographic spaces (首行缩进); a hard wrap's
    # continuation starts at the margin.
    if line.startswith("\u3000"):
        return True
    return len(line.strip()) < width and not _SENTENCE_MARK.search(line)


def build_view(text: str) -> View:
    """The view of ``text``: furniture lines out, hard-wrapped lines joined."""
    folds = _fold_positions(text)
    written = "".join(text[p] for p in folds)
    if folds:
        chars = list(text)
        for p in folds:
            chars[p] = chars[p].translate(_TO_ASCII)
        text = "".join(chars)  # one for one: every offset below is an offset of the text as written
    view, cells = _unfolded_view(text)
    if cells:
        # as written: a pipe, or the full-width one folded already
        folds_of = dict(zip(folds, written))
        written_at = {**{p: folds_of.get(p, "|") for p in cells}, **folds_of}
        folds = sorted(written_at)
        written = "".join(written_at[p] for p in folds)
    if not folds:
        return view
    # a fold inside marks the view leaves out (a ruled table's outer pipes) is no view character
    kept = [(q, w) for p, w in zip(folds, written)
            if (q := view.to_view(p)) < len(view.text) and view.end_to_text(q + 1) == p + 1]
    if not kept:
        return view
    return replace(view, folds=tuple(q for q, _ in kept), written="".join(w for _, w in kept))


def _fold_positions(text: str) -> list[int]:
    """Offsets of the full-width characters the view reads as ASCII: punctuation inside numbers,
    table pipes."""
    if "．" not in text and "：" not in text and "－" not in text and "／" not in text and "｜" not in text:
        return []
    found = [m.start() for m in _NUMBER_PUNCT.finditer(text)]
    if "｜" in text:
        found = sorted(found + [m.start() for m in _FULLWIDTH_PIPE.finditer(text)])
    return found


def _unfolded_view(text: str) -> tuple[View, list[int]]:
    """The view of ``text`` less its folds, and the offsets of a ruled table's inner pipes,
    which it reads as tabs."""
    raw_lines = text.split("\n")
    lines: list[tuple[int, int]] = []
    pos = 0
    for line in raw_lines:
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    numbered, numbers = _line_numbers(text, raw_lines, lines)
    drop = _furniture(text, lines) | (_pipe_rules(text, raw_lines) if "|" in text else set()) | numbered
    cells: list[int] = []
    marks = _marks(text, cells)
    if numbers:
        marks = sorted(set(marks) | set(numbers))
    if cells:
        chars = list(text)
        for p in cells:
            chars[p] = "\t"
        text = "".join(chars)  # one for one, as the folds above
    # The lines as rules read them, marks and letter-spacing gaps out: what the wrap width is
    # measured on and a cut is judged by (a letter-spaced label is no longer line than its twin).
    read_lines = _read_lines(text, lines, marks) if marks else raw_lines
    # A line's length counts its trailing spaces: a table row cut at the width keeps the padding
    # before the cut, and without it the row would look shorter than the width and end there.
    lengths = [len(line) if line.strip() else 0 for line in read_lines]
    # A line ends in punctuation only when nothing follows it: one cut just after the space that
    # followed a 。 was going on with the paragraph.
    # A page number glued to a page's last line (…易燃易爆管道。19) leaves the sentence finished.
    finished = [line.endswith(_FINISHED) or _one_bracketed_note(line) or bool(_FINISHED_THEN_PAGE.search(line))
                for line in read_lines]
    # Rows with columns (tabs, or runs of spaces) are left out of the width: a short table's rows
    # may share a length by chance, and a report of nothing but rows never reads as wrapped.
    text_lines = [i for i, n in enumerate(lengths)
                  if n and i not in drop and not _has_columns(read_lines[i])]
    forms = {i for i in text_lines if _ended_form_line(read_lines, i)}
    rules = {i for i in text_lines if _RULE_LINE.fullmatch(read_lines[i])}
    # a paragraph's first line: after a blank line (or the text's start), a sentence end or a lead-in's colon
    firsts = {i for k, i in enumerate(text_lines)
              if k == 0 or i - 1 != text_lines[k - 1] or read_lines[text_lines[k - 1]].rstrip().endswith(_PARAGRAPH_ENDS)}
    width = _wrap_width(lengths, text_lines, finished, forms, rules, firsts)
    by_printed = False
    if width is None and any(_HALF_WIDTH.search(read_lines[i]) for i in text_lines):
        # Cut by the printed width rather than a count of characters (each printed line its own
        # paragraph, as a PDF-to-Word converter writes it): a digit or Latin letter takes half
        # a CJK cell, so lines cut at one width hold more characters the more of them they hold.
        printed = [_printed_width(line) if line.strip() else 0 for line in read_lines]
        width = _wrap_width(printed, text_lines, finished, forms, rules)
        if width is not None and width < PRINTED_MIN_WIDTH:
            width = None  # a page's text width holds 30 and more cells: rows of a table share a shorter one by chance
        if width is not None:
            lengths = printed
            # A printed width is an estimate (a glyph's cell is not always half or whole), so a line
            # that ends a paragraph fills it by chance more often than one counted exactly: a line
            # ending in a closing bracket (a bracketed note, 《…》) is one its writer ended, and the line
            # after any full one is read as a possible opener (a heading, a numbered label) first.
            finished = [f or line.endswith(_CLOSING) for f, line in zip(finished, read_lines)]
            by_printed = True
    block_joins, block_blanks = (_split_blocks(read_lines, drop) if _LABEL_BEFORE_BLANK.search(text)
                                 else (set(), set()))
    if _FIELD_BLOCK_GAP.search(text):
        block_blanks = block_blanks | _field_block_blanks(read_lines, drop)
    if not drop and width is None and not marks and not block_joins and not block_blanks:
        return View(text, length=len(text)), cells
    # Kept runs of the text, as (start, end): whole lines, less the furniture lines and the
    # line breaks inside a wrapped paragraph.
    runs: list[list[int]] = []
    # A double-spaced text (every printed line its own paragraph, read back with a blank line after
    # each) puts one blank line inside a wrapped paragraph where others put a line break: a cut
    # line goes on past it. Its paragraphs are set apart by runs of blank lines, which still end one.
    # (The text reader takes such spacing out when those runs show it; a text with no paragraph
    # gaps of its own looks like one-line paragraphs until its cut lines show it was wrapped.)
    spaced = width is not None and _double_spaced(lengths, drop)
    blank_after_cut: int | None = None  # the one blank line after a cut line, while it may be inside a paragraph
    # The previous kept line was cut at the wrap width / may have ended its paragraph there / has columns.
    # ... or held one field and no sentence (参加人员：某甲、某乙、某丙), a line a label on the next line does not go on.
    prev_cut = prev_open = prev_columns = prev_field = prev_ends_paragraph = prev_bracket = False
    for i, (a, b) in enumerate(lines):
        if i in drop or i in block_blanks:  # a blank line between (or after) the blocks of one printed line
            continue
        if i in block_joins:
            runs[-1][1] = runs[-1][1] - 1  # the label's line break: its line goes on here
            runs.append([a, b + 1])
            prev_cut = prev_open = prev_columns = prev_field = False
            continue
        line = read_lines[i]
        stripped = line.strip()
        if spaced and prev_cut and not stripped and blank_after_cut is None:
            blank_after_cut = i  # held back: it goes if the next line goes on with the paragraph
            continue
        # A cut inside a bracket (…作出（20 / 20）临0125刑初…号) leaves the line below closing it: whatever its
        # first characters read as (20）, a numbered item's label), it goes on with the line above.
        closes_cut = prev_bracket and bool(_CLOSES_FIRST.match(line))
        joins = (width is not None and prev_cut and bool(stripped) and runs
                 and not (prev_open and not closes_cut and _opens(line, width))
                 and not (prev_field and _FIELD.match(line)))
        if blank_after_cut is not None:
            if not joins:
                runs.append([lines[blank_after_cut][0], lines[blank_after_cut][1] + 1])
            blank_after_cut = None
        if joins:
            # A continuation's indentation is no text, except in a row of columns, where the cut
            # may fall inside the spaces between two cells.
            raw = raw_lines[i]
            start = a if prev_columns else a + len(raw) - len(raw.lstrip())
            runs[-1][1] = runs[-1][1] - 1  # drop the line break before this line
            runs.append([start, b + 1])
        else:
            runs.append([a, b + 1])
        # A line that runs to the exact width was cut there, whatever its last character (a cut
        # falls after a 。 as often as anywhere), and so was one a little short of it (a
        # proportional font, half-width digits) that ends mid-sentence; either may still be the
        # end of a paragraph that happens to fill the width, and then the next line reads as an
        # opener. A line that ends in punctuation short of the width was ended by its writer.
        # A row with columns (tabs, runs of spaces) cut at the width is wrapped like any line;
        # the width itself was measured on the lines without columns.
        exact = width is not None and lengths[i] >= width
        # A paragraph's first line was indented two characters (首行缩进), which pdftotext -raw and
        # pdfminer leave out: cut at the width, it is that much shorter (and ends mid-sentence). It
        # opens a paragraph: the line above ended a sentence, or a lead-in with its colon (…裁定如下： over
        # the ruling's first item), or a blank line stands above it and it runs mid-sentence (a clause mark,
        # or a bracket left open: a heading or a dated title alone after a gap is no cut line); and the line
        # is no row of columns (a table's header row follows a caption).
        after_gap = (i == 0 or not read_lines[i - 1].strip()) and bool(_SENTENCE_MARK.search(line) or _open_bracket(line))
        indented = not joins and (prev_ends_paragraph or after_gap) and not _has_columns(line)
        short = _tolerance(width) + (PARAGRAPH_INDENT if indented else 0) if width is not None else 0
        prev_cut = exact or (width is not None and lengths[i] >= width - short and not finished[i])
        # A form line (fields side by side, no sentence) that fills the width with a label's colon was
        # cut between the label and its value (… 检验项目： / 血气分析): the colon ends no paragraph there.
        cut_at_label = exact and finished[i] and bool(_FORM_FIELDS.search(line)) and not _SENTENCE_MARK.search(line) \
            and bool(_LABEL_END.search(line))
        prev_open = (finished[i] and not cut_at_label) or not exact or by_printed
        prev_columns = _has_columns(line)
        prev_bracket = _open_bracket(line)
        # A header line of one field (参加人员：…) that fills the width by chance: the next line opening
        # with a label of its own (汇报病史：…) is the next field. A cut inside one value leaves its tail,
        # no label; a line of several fields, cut, may leave a label's tail (住 / 院号：), so it does not count.
        prev_field = (bool(_FIELD.match(stripped)) and not _SENTENCE_MARK.search(line)
                      and not _FORM_FIELDS.search(line))
        if stripped:
            prev_ends_paragraph = stripped.endswith(_PARAGRAPH_ENDS)
    runs[-1][1] = min(runs[-1][1], len(text))
    # where a run starting just past marks at a line start maps its start to: the marks' start
    lead_marks: dict[int, int] = {}
    if marks:
        runs = _without(runs, marks)
        for lo, hi in marks:
            if lo in lead_marks or not text[text.rfind("\n", 0, lo) + 1 : lo].strip(" \t\u3000#"):
                lead_marks[hi] = lead_marks.get(lo, lo)  # marks in a row (- **…) lead from the first
    pieces: list[str] = []
    vstarts: list[int] = []
    tstarts: list[int] = []
    leads: list[int] = []
    vpos = 0
    for a, b in runs:
        if b <= a:
            continue
        if tstarts and a == tstarts[-1] + (vpos - vstarts[-1]):
            pieces.append(text[a:b])  # contiguous with the run before: extend it
        else:
            vstarts.append(vpos)
            tstarts.append(a)
            leads.append(lead_marks.get(a, a))
            pieces.append(text[a:b])
        vpos += b - a
    return View("".join(pieces), tuple(vstarts) or (0,), tuple(tstarts) or (0,), len(text),
                tuple(leads) if lead_marks else ()), cells


def _read_lines(text: str, lines: list[tuple[int, int]], marks: list[tuple[int, int]]) -> list[str]:
    """Each line of the text with the mark spans inside it cut out."""
    out: list[str] = []
    k = 0
    for a, b in lines:
        pieces, at = [], a
        while k < len(marks) and marks[k][0] < b:
            lo, hi = marks[k]
            if hi <= a:
                k += 1
                continue
            pieces.append(text[at:max(at, lo)])
            at = max(at, min(hi, b))
            if hi > b:
                break
            k += 1
        pieces.append(text[at:b])
        out.append("".join(pieces))
    return out


def _without(runs: list[list[int]], spans: list[tuple[int, int]]) -> list[list[int]]:
    """The runs with the (sorted, disjoint) spans cut out of them."""
    out: list[list[int]] = []
    k = 0
    for a, b in runs:
        while k < len(spans) and spans[k][1] <= a:
            k += 1
        j = k
        while j < len(spans) and spans[j][0] < b:
            lo, hi = spans[j]
            if lo > a:
                out.append([a, lo])
            a = max(a, hi)
            j += 1
        if a < b:
            out.append([a, b])
    return out


_last: list = [None, None]  # the last text viewed and its view: detection and the outline share it


def view_of(text: str) -> View:
    """``build_view(text)``, built once for the text that detection and the outline both read."""
    if _last[0] is not text:
        _last[1] = build_view(text)
        _last[0] = text
    return _last[1]
