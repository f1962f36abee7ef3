// Render docs/*.md to static HTML pages (docs/<name>.html) so that the page's "how is this
// computed" links open readable formulas with working #anchors on any static host.
// A small Markdown subset: headings, paragraphs, lists, tables, fenced code, `code`,
// **bold**, *em*, [links](…), and raw HTML lines such as <a id="…"></a>.
// Usage: node scripts/md2html.mjs OUT_DIR   (run by Trunk's post_build hook into the staging dir)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] || process.env.TRUNK_STAGING_DIR || 'dist', 'docs');

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
function inline(s) {
  const codes = [];
  s = s.replace(/`([^`]+)`/g, (_, c) => `\u0000${codes.push(esc(c)) - 1}\u0000`);
  s = esc(s)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, t, h) => `<a href="${h.replace(/\.md(#|$)/, '.html$1')}">${t}</a>`);
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[Number(i)]}</code>`);
}
const slug = (s) => s.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').trim().replace(/\s+/g, '-');

export function render(md, title) {
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  const html = [];
  let i = 0;
  const cells = (l) => l.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  while (i < lines.length) {
    const l = lines[i];
    if (/^```/.test(l)) {
      const body = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) body.push(esc(lines[i]));
      html.push(`<pre><code>${body.join('\n')}</code></pre>`); i++; continue;
    }
    let m;
    if ((m = /^(#{1,6})\s+(.*)$/.exec(l))) {
      const n = m[1].length;
      html.push(`<h${n} id="${slug(m[2])}">${inline(m[2])}</h${n}>`); i++; continue;
    }
    if (/^<[a-z][^>]*>.*$/i.test(l.trim())) { html.push(l.trim()); i++; continue; }
    if (/^\s*\|/.test(l) && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
      const head = cells(l); i += 2;
      const rows = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(cells(lines[i]));
      html.push('<div class="table-wrap" tabindex="0"><table><thead><tr>' + head.map((c) => `<th scope="col">${inline(c)}</th>`).join('') +
        '</tr></thead><tbody>' + rows.map((r) => '<tr>' + r.map((c) => `<td>${inline(c)}</td>`).join('') + '</tr>').join('') + '</tbody></table></div>');
      continue;
    }
    if (/^\s*([-*]|\d+\.)\s+/.test(l)) {
      const ordered = /^\s*\d+\./.test(l);
      const items = [];
      for (; i < lines.length && (/^\s*([-*]|\d+\.)\s+/.test(lines[i]) || (/^\s{2,}\S/.test(lines[i]) && items.length)); i++) {
        if (/^\s*([-*]|\d+\.)\s+/.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.)\s+/, ''));
        else items[items.length - 1] += ' ' + lines[i].trim();
      }
      const tag = ordered ? 'ol' : 'ul';
      html.push(`<${tag}>` + items.map((t) => `<li>${inline(t)}</li>`).join('') + `</${tag}>`);
      continue;
    }
    if (l.trim() === '') { i++; continue; }
    const para = [];
    for (; i < lines.length && lines[i].trim() !== '' && !/^(#|```|\s*\||\s*([-*]|\d+\.)\s|<)/.test(lines[i]); i++) para.push(lines[i].trim());
    if (para.length === 0) { html.push(`<p>${inline(l)}</p>`); i++; continue; }
    html.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${esc(title)} — GPU Rent Planner">
<title>${esc(title)} · GPU Rent Planner</title><link rel="stylesheet" href="docs.css">
<link rel="icon" type="image/svg+xml" href="../favicon.svg"></head>
<body><main>
<p><a href="../">← GPU Rent Planner</a></p>
${html.join('\n')}
</main></body></html>
`;
}

const CSS = `body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#1b1f23;background:#fff}
main{max-width:920px;margin:0 auto;padding:16px}
h1,h2,h3{line-height:1.25}h2{margin-top:2em;border-bottom:1px solid #d0d7de;padding-bottom:4px}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;background:#f3f4f6;border-radius:4px}
code{padding:1px 4px}pre{padding:8px;overflow-x:auto}
.table-wrap{overflow-x:auto}table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
a{color:#0b5cad}:target{background:#fff4d6}
@media (prefers-color-scheme:dark){body{background:#111418;color:#e6e8eb}code,pre{background:#1b2027}th,td,h2{border-color:#3a434e}a{color:#7ab8ff}:target{background:#3a2e0c}}
`;

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.mkdirSync(out, { recursive: true });
  for (const f of fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'))) {
    const md = fs.readFileSync(path.join(root, 'docs', f), 'utf8');
    const title = (/^#\s+(.*)$/m.exec(md) || [, f])[1];
    fs.writeFileSync(path.join(out, f.replace(/\.md$/, '.html')), render(md, title));
  }
  fs.writeFileSync(path.join(out, 'docs.css'), CSS);
}
