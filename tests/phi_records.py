"""Invented medical records with identifying values injected in many layouts (PHI test and benchmark).

Everything here is made up: names are drawn from the invented surname and given-name lists
below (some surnames on purpose outside the rule file's list), numbers from a seeded random
generator (ID cards with a valid check digit), addresses and employers from invented place
and company parts. Each record knows where it put every identifier (``phi``) and every
look-alike that is not one (``decoys``: doses, lab values, admission dates), by offset.
"""
from __future__ import annotations

import io
import random
from dataclasses import dataclass, field

# Common surnames, and a few rarer ones the rule file does not list, drawn for 4% of the people
# (about the share of China's population outside its 250 most common surnames): a name after a
# role word with such a surname is missed unless a label or the header gives it away.
SURNAMES = list("王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯董程曹袁邓许沈彭吕苏蒋蔡魏叶潘杜夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段钱汤尹易常武乔贺赖龚文")
RARE_SURNAMES = list("芮厉戈蒲农")
COMPOUND = ["欧阳", "司马", "诸葛", "上官"]
GIVEN = ["志强", "美华", "小军", "丽丽", "建国", "秀英", "文博", "子涵", "思远", "雨桐", "浩然", "婷", "磊", "静",
         "伟", "芳", "敏", "晓东", "海燕", "振华", "桂兰", "俊杰", "欣怡", "宇航", "淑珍", "明轩", "佳琪", "国栋"]
PROVINCES = ["东川省", "南岭省", "西峡省", "北原省"]
CITIES = ["青禾市", "望江市", "松溪市", "石门市"]
STREETS = ["长乐路", "福安街", "明德大道", "临河巷", "新华里"]
COMPANIES = ["青禾机械有限公司", "望江纺织厂", "松溪第三中学", "石门物流集团", "临河建设工程公司"]
HOSPITALS = ["青禾市人民医院", "望江县中医院", "松溪市第二医院"]
DOMAINS = ["example.com", "example.org", "mail.example.net"]
SECTIONS_TAIL = (
    "既往史：否认高血压、糖尿病史。\n"
    "体格检查：体温{temp}℃，脉搏{pulse}次/分，血压{bp}mmHg。\n"
    "辅助检查：血常规WBC {wbc}×10^9/L，血红蛋白{hb}g/L。\n"
    "初步诊断：社区获得性肺炎\n"
    "诊疗计划：阿莫西林{dose}g 口服 每日3次，{days}天后复查。\n"
)
# Clinical text that looks like identifiers or names to a careless masker, none of it PHI.
LOOKALIKES = [
    "患者于{date}入院，患者高热3天，最高体温39.8℃。",
    "家属要求出院，其子体健。",
    "{date} 08:30 主治医师查房：患者病情平稳。",
    "血小板计数 256×10^9/L，尿比重 1.020，HbA1c 6.5%，CRP 12.3mg/L。",
    "胸部CT（{date}）示右下肺斑片影，心电图示心率78次/分。",
    "出生体重3.2kg，足月顺产。",
    "头孢曲松2.0g 静滴 每12小时一次，共14天；氨溴索30mg 口服 每日3次。",
    "标本编号 20240506001，检验科复核。",
    "血压 128/76mmHg，SpO2 98%，血糖 6.1mmol/L。",
    "医生建议患者复查血常规，护士执行医嘱。",
]

# The header line(s) holding the patient's name and admission number: the text before the
# name, and between the name and the number.
HEADER_LAYOUTS = {
    "line": ("姓名：", "　性别：{sex}　年龄：{age}岁　住院号："),
    "spaced-labels": ("姓　　名：", "\n性　　别：{sex}\n住 院 号："),
    "tab-columns": ("姓名\t性别\t年龄\t住院号\n", "\t{sex}\t{age}岁\t"),
    "tab-rows": ("患者姓名\t", "\t性别\t{sex}\n病案号\t"),
    "glued": ("姓名：", "性别：{sex}年龄：{age}岁住院号："),
    "markdown-bold": ("**姓名**：", "　**性别**：{sex}　**年龄**：{age}岁　**住院号**："),
    "brackets": ("【姓名】", "【性别】{sex}【年龄】{age}岁【住院号】"),
}


@dataclass
class Record:
    name: str  # the patient's name (also the file stem, as hospitals name files)
    text: str = ""
    phi: list[tuple[int, int, str, str]] = field(default_factory=list)  # start, end, kind, layout
    decoys: list[tuple[int, int, str]] = field(default_factory=list)  # start, end, what
    header_values: set[str] = field(default_factory=set)

    def add(self, s: str) -> None:
        self.text += s

    def put(self, value: str, kind: str, layout: str, header: bool = False) -> None:
        self.phi.append((len(self.text), len(self.text) + len(value), kind, layout))
        if header:
            self.header_values.add(value)
        self.text += value

    def decoy(self, value: str, what: str) -> None:
        self.decoys.append((len(self.text), len(self.text) + len(value), what))
        self.text += value


def id_card(rng: random.Random, birth: tuple[int, int, int]) -> str:
    body = f"{rng.randint(110000, 659000)}{birth[0]:04d}{birth[1]:02d}{birth[2]:02d}{rng.randint(0, 999):03d}"
    total = sum(int(c) * w for c, w in zip(body, (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)))
    return body + "10X98765432"[total % 11]


def person(rng: random.Random) -> str:
    r = rng.random()
    surname = rng.choice(COMPOUND) if r < 0.03 else rng.choice(RARE_SURNAMES) if r < 0.07 else rng.choice(SURNAMES)
    return surname + rng.choice(GIVEN)


def mobile(rng: random.Random) -> tuple[str, str]:
    digits = f"1{rng.choice('3456789')}{rng.randint(0, 999999999):09d}"
    form = rng.choice(["plain", "dash", "space", "+86", "+86-dash"])
    spaced = f"{digits[:3]} {digits[3:7]} {digits[7:]}"
    return {"plain": digits, "dash": f"{digits[:3]}-{digits[3:7]}-{digits[7:]}", "space": spaced,
            "+86": f"+86 {spaced}", "+86-dash": f"+86-{digits}"}[form], f"mobile-{form}"


def landline(rng: random.Random) -> tuple[str, str]:
    area = rng.choice(["010", "021", "0571", "0755", "023"])
    local = f"{rng.randint(2, 8)}{rng.randint(0, 9999999):07d}"
    form = rng.choice(["dash", "paren", "space"])
    return {"dash": f"{area}-{local}", "paren": f"({area}){local}", "space": f"{area} {local[:4]} {local[4:]}"}[form], f"landline-{form}"


def record(rng: random.Random) -> Record:
    name = person(rng)
    sex = rng.choice("男女")
    age = rng.randint(18, 85)
    birth = (2024 - age, rng.randint(1, 12), rng.randint(1, 28))
    rec = Record(name)
    ward_no = f"{rng.choice(['', 'Z', 'ZY'])}{rng.randint(100000, 9999999)}"
    rec.add("入院记录\n")
    layout = rng.choice(list(HEADER_LAYOUTS))
    shown = name if rng.random() < 0.8 or len(name) != 3 else f"{name[0]} {name[1:]}"  # 陈 志强
    name_layout = "header-spaced-value" if shown != name else f"header-{layout}"
    before, between = HEADER_LAYOUTS[layout]
    rec.add(before); rec.put(shown, "name", name_layout, True)
    rec.add(between.format(sex=sex, age=age)); rec.put(ward_no, "number", name_layout, True)
    rec.add("\n")
    rec.add("科室：呼吸内科　床号："); rec.decoy(str(rng.randint(1, 60)), "bed")
    rec.add("　入院日期："); rec.decoy(f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", "admission-date")
    rec.add("\n")
    dob = rng.choice([f"{birth[0]}-{birth[1]:02d}-{birth[2]:02d}", f"{birth[0]}年{birth[1]}月{birth[2]}日"])
    rec.add(rng.choice(["出生日期：", "出生年月：", "生日："])); rec.put(dob, "birth-date", "header", True)
    rec.add("　身份证号：")
    card = id_card(rng, birth)
    rec.put(card if rng.random() < 0.7 else f"{card[:6]} {card[6:14]} {card[14:]}", "id-card", "header", True)
    rec.add("\n联系电话：")
    phone, form = mobile(rng)
    rec.put(phone, "phone", f"header-{form}", True)
    rec.add("　邮箱：")
    email = f"{rng.choice(['zhang', 'li.w', 'pt', 'user'])}{rng.randint(1, 999)}@{rng.choice(DOMAINS)}"
    rec.put(email, "email", "header", True)
    rec.add("\n" + rng.choice(["家庭住址：", "现住址：", "住址："]))
    address = f"{rng.choice(PROVINCES)}{rng.choice(CITIES)}{rng.choice(STREETS)}{rng.randint(1, 300)}号"
    rec.put(address, "address", "header", True)
    rec.add("\n工作单位："); rec.put(rng.choice(COMPANIES), "employer", "header", True)
    rec.add("\n联系人："); contact = person(rng); rec.put(contact, "name", "header-contact", True)
    rec.add("　联系人电话："); phone2, form2 = mobile(rng); rec.put(phone2, "phone", f"header-{form2}", True)
    rec.add("\nID:"); rec.put(f"P{rng.randint(0, 99999999):08d}", "number", "header-id", True)
    rec.add("\n主诉：咳嗽、发热{}天。\n现病史：".format(rng.randint(2, 9)))
    # the narrative: the patient, relatives, carers, numbers and dates in running text
    rec.add("患者"); rec.put(name, "name", "narrative-patient")
    rec.add(f"，{sex}，{age}岁，因咳嗽、发热入院。")
    relative = person(rng)
    lead, tail = rng.choice([("其子", "陪同就诊"), ("由其女", "代诉病史"), ("家属", "签字同意"), ("其妻", "在场"), ("其夫", "诉患者夜间咳嗽")])
    rec.add(lead); rec.put(relative, "name", "narrative-relative"); rec.add(tail + "。")
    rec.add("护工"); rec.put(person(rng), "name", "narrative-carer"); rec.add("，电话")
    p3, f3 = rng.choice([mobile(rng), landline(rng)]); rec.put(p3, "phone", f"narrative-{f3}"); rec.add("。")
    rec.add(f"曾于{rng.choice(HOSPITALS)}住院（住院号" + rng.choice(["：", "为", ""]))
    rec.put(f"{rng.choice(['A', 'B', ''])}{rng.randint(100000, 999999)}", "number", "narrative-other-hospital")
    rec.add("）。")
    if rng.random() < 0.5:
        rec.add("患者生于"); rec.put(f"{birth[0]}年{birth[1]}月{birth[2]}日", "birth-date", "narrative"); rec.add("，")
    rec.add("家庭电话"); p4, f4 = landline(rng); rec.put(p4, "phone", f"narrative-{f4}"); rec.add("。")
    rec.add("联系邮箱"); rec.put(email, "email", "narrative"); rec.add("。\n")
    rec.add(SECTIONS_TAIL.format(temp="39.5", pulse=rng.randint(60, 110), bp=f"{rng.randint(100, 150)}/{rng.randint(60, 95)}",
                                 wbc=f"{rng.uniform(3, 15):.1f}", hb=rng.randint(90, 160), dose="0.5", days=rng.randint(3, 7)))
    for line in rng.sample(LOOKALIKES, 4):
        rec.decoy(line.format(date=f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"), "clinical text")
    rec.add("\n")
    rec.add("随访：患者"); rec.put(name, "name", "narrative-repeat"); rec.add("出院后门诊复诊，病区电话")
    rec.decoy("8261", "extension"); rec.add("。\n")
    rec.add(rng.choice(["医师签名：", "主治医师：", "记录者："])); rec.put(person(rng), "name", "signature")
    rec.add("\n")
    return rec


def records(n: int, seed: int = 7) -> list[Record]:
    rng = random.Random(seed)
    return [record(rng) for _ in range(n)]


def to_docx(rec: Record, heading: str | None = None) -> bytes:
    """The record as Word paragraphs, its tab-separated lines as a table, ``heading`` as a Heading 1 above."""
    import docx

    document = docx.Document()
    if heading:
        document.add_heading(heading, level=1)
    lines = rec.text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if "\t" in lines[i]:
            block = [lines[i]]
            while i + 1 < len(lines) and "\t" in lines[i + 1]:
                i += 1
                block.append(lines[i])
            table = document.add_table(rows=len(block), cols=max(len(r.split("\t")) for r in block))
            for r, row in enumerate(block):
                for c, cell in enumerate(row.split("\t")):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(lines[i])
        i += 1
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
