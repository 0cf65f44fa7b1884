"""The review page: one self-contained HTML file showing how documents were chunked.

For compliance reviewers: the document text with every chunk boundary marked and
coloured by the rule that made it, the path tree beside it, each chunk's rule, kind,
pages and metadata on click, the detector's scores and fired signals, and oversize or
fallback pieces flagged. No network and no CDN: data, style and script are inline, and
the script renders one page of chunks at a time so a 2,000-article code stays responsive.
"""
from __future__ import annotations

import html
import json
from typing import Any, Sequence

from .models import ChunkedDocument
from .rulefile import load_rules

PAGE_SIZE = 150  # chunks drawn at once; the rest are a click away


def _document_data(result: ChunkedDocument, limit: int) -> dict[str, Any]:
    det = result.detection
    chunks = []
    for c in result.chunks:
        flags = []
        if len(c.text) > limit:
            flags.append("oversize")
        if c.rule == "fallback" or c.kind == "part-of-unit":
            flags.append("fallback")
        chunks.append({
            "text": c.text, "start": c.start, "end": c.end, "path": c.path, "kind": c.kind,
            "rule": c.rule or "", "pages": c.pages, "metadata": c.metadata, "flags": flags,
        })
    return {
        "source": result.document.source,
        "title": result.document.title or "",
        "doc_type": det.doc_type,
        "score": det.score,
        "scores": det.scores,
        "reasons": [r.model_dump() for r in det.reasons if r.doc_type == det.doc_type],
        "max_chars": limit,
        "chunks": chunks,
    }


def review_html(results: Sequence[ChunkedDocument], max_chars: int | None = None, rules_dir: str | None = None,
                title: str = "domainchunk review") -> str:
    """The review page for ``results`` (one or more chunked documents) as a complete HTML string.

    A chunk is flagged oversize past ``max_chars``, or, without it, past its rule file's limit.
    """
    registry = load_rules(rules_dir)
    limits = [max_chars or registry[r.document.doc_type or "generic"].max_chars for r in results]
    data = {"page_size": PAGE_SIZE, "documents": [_document_data(r, n) for r, n in zip(results, limits)]}
    # JSON inside <script>: a "<" of the text could close or re-open the element, so none is left.
    payload = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    return _TEMPLATE.replace("{{title}}", html.escape(title)).replace("{{data}}", payload)


_TEMPLATE = """<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
<style>
:root { --fg:#1f2328; --muted:#656d76; --line:#d0d7de; --bg:#ffffff; --side:#f6f8fa; --warn:#cf222e; }
* { box-sizing:border-box; }
body { margin:0; color:var(--fg); background:var(--bg);
  font-family:"Noto Sans CJK SC","Source Han Sans SC","PingFang SC","Microsoft YaHei","Hiragino Sans GB",
    "WenQuanYi Micro Hei",system-ui,sans-serif; font-size:15px; line-height:1.8; }
header { position:sticky; top:0; z-index:2; background:var(--bg); border-bottom:1px solid var(--line);
  padding:8px 16px; display:flex; gap:16px; align-items:center; flex-wrap:wrap; }
header h1 { font-size:16px; margin:0; }
header select, header button { font:inherit; font-size:13px; }
.summary { color:var(--muted); font-size:13px; }
main { display:grid; grid-template-columns:300px 1fr 340px; gap:0; height:calc(100vh - 50px); }
nav, aside { background:var(--side); overflow:auto; padding:12px; font-size:13px; line-height:1.6; }
nav { border-right:1px solid var(--line); } aside { border-left:1px solid var(--line); }
#text { overflow:auto; padding:16px 28px; }
.chunk { position:relative; margin:0 0 10px 0; padding:6px 10px 6px 14px; border-left:5px solid var(--c);
  background:color-mix(in srgb, var(--c) 7%, white); border-radius:3px; white-space:pre-wrap;
  word-break:break-all; cursor:pointer; }
.chunk:hover { background:color-mix(in srgb, var(--c) 14%, white); }
.chunk.selected { outline:2px solid var(--c); }
.chunk .tag { display:block; font-size:12px; color:var(--muted); white-space:normal; margin-bottom:2px; }
.chunk .tag b { color:var(--c); font-weight:600; }
.flag { display:inline-block; font-size:11px; padding:0 5px; margin-left:6px; border-radius:8px; color:white;
  background:var(--warn); }
.flag.fallback { background:#9a6700; }
.tree ul { list-style:none; padding-left:14px; margin:0; }
.tree > ul { padding-left:0; }
.tree li > span { cursor:pointer; } .tree li > span:hover { text-decoration:underline; }
.tree .count { color:var(--muted); }
.toggle { display:inline-block; width:14px; color:var(--muted); }
h2 { font-size:14px; margin:12px 0 6px; }
dl { margin:0; } dt { color:var(--muted); } dd { margin:0 0 6px 0; word-break:break-all; }
pre.meta { white-space:pre-wrap; word-break:break-all; font-size:12px; background:white; border:1px solid var(--line);
  padding:6px; border-radius:3px; max-height:40vh; overflow:auto; }
.legend span { display:inline-block; margin:0 8px 4px 0; white-space:nowrap; }
.legend i { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:4px; background:var(--c); }
.pager { display:flex; gap:8px; align-items:center; margin:4px 0 12px; font-size:13px; }
.reasons li { margin-bottom:4px; }
</style>
</head>
<body>
<header>
  <h1>{{title}}</h1>
  <select id="doc" aria-label="document"></select>
  <span class="summary" id="summary"></span>
</header>
<main>
  <nav><h2>结构 Path</h2><div class="tree" id="tree"></div></nav>
  <section id="text" aria-label="chunks">
    <div class="pager" id="pager-top"></div>
    <div id="chunks"></div>
    <div class="pager" id="pager-bottom"></div>
  </section>
  <aside>
    <h2>分块 Chunk</h2><div id="detail" class="summary">点击一个分块查看规则与元数据。Click a chunk.</div>
    <h2>类型判定 Detection</h2><div id="detection"></div>
    <h2>规则 Rules</h2><div class="legend" id="legend"></div>
  </aside>
</main>
<script type="application/json" id="data">{{data}}</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
const el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "style") e.style.cssText = v; else if (k.startsWith("data-")) e.setAttribute(k, v); else e[k] = v;
  }
  for (const k of kids) e.append(k);
  return e;
};
function colour(rule) {  // a stable hue per rule id
  let h = 0;
  for (const ch of rule) h = (h * 31 + ch.codePointAt(0)) % 360;
  return `hsl(${h}, 62%, 42%)`;
}
let current = null, page = 0;

function showDocument(i) {
  current = DATA.documents[i]; page = 0;
  const n = current.chunks.length;
  const flagged = current.chunks.filter((c) => c.flags.length).length;
  $("summary").textContent = `${current.doc_type} · ${n} chunks · ${flagged} flagged` + (current.title ? ` · ${current.title}` : "");
  $("summary").dataset.chunks = n;
  drawDetection(); drawLegend(); drawTree(); drawPage();
}

function drawDetection() {
  const box = $("detection"); box.replaceChildren();
  box.append(el("div", {}, `${current.doc_type} (score ${current.score.toFixed(1)})`));
  const scores = Object.entries(current.scores).sort((a, b) => b[1] - a[1]);
  box.append(el("div", { className: "summary" }, scores.map(([t, s]) => `${t} ${s}`).join(" · ")));
  const ul = el("ul", { className: "reasons" });
  for (const r of current.reasons) ul.append(el("li", {}, el("b", {}, `+${(r.weight * r.count).toFixed(1)} ${r.signal}`), ` ×${r.count}: ${r.why}`));
  box.append(ul);
}

function drawLegend() {
  const counts = new Map();
  for (const c of current.chunks) counts.set(c.rule, (counts.get(c.rule) || 0) + 1);
  const box = $("legend"); box.replaceChildren();
  for (const [rule, k] of [...counts].sort((a, b) => b[1] - a[1]))
    box.append(el("span", { style: `--c:${colour(rule)}` }, el("i"), `${rule || "(none)"} ${k}`));
}

function drawTree() {
  // Headings above the units, with the first chunk under each; children drawn when opened.
  const root = { kids: new Map(), first: 0, count: 0 };
  current.chunks.forEach((c, i) => {
    let node = root;
    for (const part of c.path.slice(0, -1)) {
      if (!node.kids.has(part)) node.kids.set(part, { kids: new Map(), first: i, count: 0 });
      node = node.kids.get(part); node.count++;
    }
  });
  const list = (node) => {
    const ul = el("ul");
    for (const [name, kid] of node.kids) {
      const toggle = el("span", { className: "toggle" }, kid.kids.size ? "▸" : "");
      const li = el("li", {}, toggle, el("span", { onclick: () => jumpTo(kid.first) }, name), el("span", { className: "count" }, ` ${kid.count}`));
      if (kid.kids.size) toggle.onclick = () => {
        if (li.lastChild.tagName === "UL") { li.lastChild.remove(); toggle.textContent = "▸"; }
        else { li.append(list(kid)); toggle.textContent = "▾"; }
      };
      ul.append(li);
    }
    return ul;
  };
  $("tree").replaceChildren(root.kids.size ? list(root) : el("div", { className: "summary" }, "（无标题层级）"));
}

function pages() { return Math.max(1, Math.ceil(current.chunks.length / DATA.page_size)); }

function drawPager(box) {
  box.replaceChildren(
    el("button", { onclick: () => { if (page > 0) { page--; drawPage(); } }, disabled: page === 0, className: "prev" }, "‹ 上一页"),
    el("span", {}, `${page + 1} / ${pages()}`),
    el("button", { onclick: () => { if (page + 1 < pages()) { page++; drawPage(); } }, disabled: page + 1 >= pages(), className: "next" }, "下一页 ›"),
  );
}

function drawPage() {
  const box = $("chunks"); box.replaceChildren();
  const from = page * DATA.page_size, to = Math.min(current.chunks.length, from + DATA.page_size);
  for (let i = from; i < to; i++) {
    const c = current.chunks[i];
    const tag = el("span", { className: "tag" }, el("b", {}, c.rule || "(none)"), ` · ${c.kind} · ${c.path.join(" › ") || "—"}`);
    for (const f of c.flags) tag.append(el("span", { className: `flag ${f}` }, f));
    const div = el("div", { className: "chunk", style: `--c:${colour(c.rule)}`, "data-index": i, "data-rule": c.rule, onclick: () => select(i) }, tag, c.text);
    box.append(div);
  }
  drawPager($("pager-top")); drawPager($("pager-bottom"));
}

function jumpTo(i) {
  page = Math.floor(i / DATA.page_size); drawPage();
  const div = document.querySelector(`.chunk[data-index="${i}"]`);
  if (div) { div.scrollIntoView({ block: "start" }); select(i); }
}

function select(i) {
  document.querySelectorAll(".chunk.selected").forEach((d) => d.classList.remove("selected"));
  const div = document.querySelector(`.chunk[data-index="${i}"]`);
  if (div) div.classList.add("selected");
  const c = current.chunks[i];
  const dl = el("dl", { id: "chunk-detail" });
  const row = (k, v, id) => { dl.append(el("dt", {}, k), el("dd", id ? { id } : {}, v)); };
  row("rule", c.rule || "(none)", "detail-rule"); row("kind", c.kind); row("path", c.path.join(" › ") || "—");
  row("offsets", `${c.start}–${c.end} (${c.text.length} chars)`); row("pages", c.pages.join(", ") || "—");
  if (c.flags.length) row("flags", c.flags.join(", "));
  dl.append(el("dt", {}, "metadata"), el("dd", {}, el("pre", { className: "meta" }, JSON.stringify(c.metadata, null, 2))));
  $("detail").replaceChildren(dl); $("detail").classList.remove("summary");
}

DATA.documents.forEach((d, i) => $("doc").append(el("option", { value: i }, `${d.source} (${d.chunks.length})`)));
$("doc").onchange = (e) => showDocument(Number(e.target.value));
if (DATA.documents.length) showDocument(0);
window.domainchunkReview = { data: DATA, showDocument, jumpTo, pages: () => pages(), setPage: (p) => { page = p; drawPage(); } };
</script>
</body>
</html>
"""
