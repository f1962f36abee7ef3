// A printed plan keeps every figure (issue 41): in print, on A4 and US Letter (portrait, the
// page's own 12 mm margins), in both languages, nothing is wider than the printable width —
// no table, text, code or link is cut at the paper's right edge — and the link under "Open
// this plan" is the whole link, a working <a href>. Plans printed: the Slurm example's 30 days
// opened as a shared link with the commitment terms filled; the two-type fleet of formulas
// § 16 with terms; the AWS bill example (the bill report); a utilisation file read as counts
// (the read-check warnings). Every <details> is opened, so the formulas and the what-ifs'
// tables are printed too. Each plan is also printed to PDF, and its pages rendered to
// end2end/screenshots/print-*.png when pdftoppm (Debian's poppler-utils) is there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serve, openPage, pickCorpusFile, settled, SCREENSHOTS } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

// The printable width in CSS px (96 px to the inch): the paper's width less the left and right
// margins of `@page { margin: 12mm }` (style/base.css). A4: 210 − 24 = 186 mm = 703.0 px;
// US Letter: 8.5 in = 215.9 mm, − 24 = 191.9 mm = 725.3 px. This is the width of the page's
// initial containing block when Chromium prints, so the layout is measured in a viewport that
// wide (rounded down) under print media.
//
// `body { zoom: 0.8 }` in print does not change that bound, only the units inside the body:
// the body lays out its content in 703 / 0.8 = 879 of its own CSS px (that is what lets a
// table keep more columns) and paints it at 80 %. Since Chromium 128 (standardised CSS zoom)
// getBoundingClientRect and getClientRects return boxes in the viewport's px, the zoom already
// applied, so every element's right edge is compared with the viewport's width itself, never
// with 703 / 0.8 (the first assertion below checks that the body is exactly the viewport wide
// in these units, so a change of those semantics fails loudly instead of passing quietly).
// scrollWidth and clientWidth are both in the element's own (zoomed) px: they are only compared
// with each other (content hidden in a box that clips or scrolls it).
const MARGIN_MM = 12;
const PAPERS = [
  { name: 'A4', format: 'A4', widthMm: 210 },
  { name: 'Letter', format: 'Letter', widthMm: 215.9 },
];
const printableWidth = (paper) => ((paper.widthMm - 2 * MARGIN_MM) / 25.4) * 96;

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Every element whose box (any of its line boxes) passes the right or left edge of the
 *  viewport, or whose content is wider than a box that clips or scrolls it; outermost first. */
function overflowing() {
  const limit = document.documentElement.clientWidth;
  const found = new Map();
  const describe = (el) => {
    const id = el.getAttribute('data-testid');
    const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${cls}${text ? ` “${text}”` : ''}`;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    let right = -Infinity, left = Infinity;
    for (const r of el.getClientRects()) {
      if (r.width === 0 && r.height === 0) continue;
      right = Math.max(right, r.right);
      left = Math.min(left, r.left);
    }
    if (right === -Infinity) continue;
    const past = Math.max(right - limit, -left);
    // Content a box clips or scrolls (a table in its scrolling wrapper, a <pre>, a card's paint
    // containment): on paper it is cut off, whatever the box's own width.
    const clips = style.overflowX !== 'visible' || /paint|content|strict/.test(style.contain);
    // (scrollWidth and clientWidth are in the element's zoomed px: reported in the viewport's.)
    const scale = el.offsetWidth ? el.getBoundingClientRect().width / el.offsetWidth : 1;
    const hidden = clips ? Math.round((el.scrollWidth - el.clientWidth) * scale) : 0;
    if (past > 1 || hidden > 1) found.set(el, { past: Math.round(past), hidden, what: describe(el) });
  }
  const out = [];
  for (const [el, f] of found) {
    if (el.parentElement && found.has(el.parentElement) && found.get(el.parentElement).past >= f.past && !f.hidden) continue;
    out.push(`${f.what}: ${f.past > 1 ? `${f.past} px past the edge` : ''}${f.hidden > 1 ? ` ${f.hidden} px hidden inside` : ''}`);
  }
  // No figure dropped: every printed table row keeps its name (a row's name that is a button
  // on screen must print as text).
  for (const th of document.querySelectorAll('tbody th[scope=row]')) {
    if (th.closest('table').getClientRects().length && !th.innerText.trim()) out.push(`${describe(th.closest('tr'))}: the row's name is not printed`);
  }
  return { limit, body: document.body.getBoundingClientRect().width, out };
}

/** Measure `page` in print on every paper, print it to PDF and render the pages. */
async function checkPrint(page, name) {
  // Every disclosure open: the formulas and the what-ifs' tables are printed too.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  await page.emulateMedia({ media: 'print' });
  const failures = [];
  for (const paper of PAPERS) {
    const width = Math.floor(printableWidth(paper));
    await page.setViewportSize({ width, height: 1000 });
    await settled(page);
    await frames(page);
    const m = await page.evaluate(overflowing);
    assert.equal(m.limit, width, 'the viewport is the printable width');
    assert.ok(Math.abs(m.body - width) < 1, `the body is the printable width in getBoundingClientRect's px (${m.body} for ${width}): zoom semantics changed?`);
    console.log(`${name} ${paper.name} (${width} px): ${m.out.length ? `${m.out.length} found\n  ${m.out.join('\n  ')}` : 'everything fits'}`);
    if (m.out.length) failures.push(`${name} on ${paper.name} (${width} px):\n  ${m.out.join('\n  ')}`);

    const pdf = await page.pdf({ format: paper.format, printBackground: false });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) || []).length;
    console.log(`${name} ${paper.name}: ${pages} pages`);
    // The link under "Open this plan" is a link in the PDF too, to the whole address.
    const href = await page.evaluate(() => document.querySelector('[data-testid=print-link] a')?.getAttribute('href'));
    const uri = `/URI (${String(href).replace(/[\\()]/g, '\\$&')})`;
    if (!href || !pdf.toString('latin1').includes(uri)) failures.push(`${name} on ${paper.name}: no link annotation to ${href} in the PDF`);
    render(pdf, `print-${name}-${paper.name}`);
  }
  return failures;
}

function render(pdf, stem) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${stem}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    for (const old of fs.readdirSync(SCREENSHOTS)) if (old.startsWith(`${stem}-`) && old.endsWith('.png')) fs.rmSync(path.join(SCREENSHOTS, old));
    execFileSync('pdftoppm', ['-png', '-r', '80', file, path.join(SCREENSHOTS, stem)]);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
    console.log('pdftoppm not found (Debian poppler-utils): PDF written, pages not rendered');
  }
}

const TERMS = 'y1up=90000&y3up=100000&y3mo=3000&horizon=24';
const waitFor = (page, fn, arg) => page.waitForFunction(fn, arg, { timeout: 20000 });

/** The print link: the whole link of the page, as a working <a href>. */
async function checkLink(page) {
  const link = await page.evaluate(() => {
    const a = document.querySelector('[data-testid=print-link] a');
    return a && { href: a.getAttribute('href'), text: a.textContent, location: location.href };
  });
  assert.ok(link, 'the print link is an <a>');
  assert.equal(link.href, link.location, 'it carries the whole link');
  assert.equal(link.text, link.location, 'and prints it whole');
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: the Slurm example's 30 days opened as a shared link, terms filled: every table, text and link fits A4 and Letter`, async () => {
    // "Try an example" writes the history into the address (once the page is idle); that link,
    // as a new user opens it.
    const made = await openPage(browser, `${server.url}?v=2&lang=${lang}&mode=data&${TERMS}`);
    await made.page.click('[data-testid=sample-slurm]');
    await waitFor(made.page, () => location.search.includes('data=') && location.search.includes('y3mo='));
    const link = await made.page.evaluate(() => location.search);
    await made.context.close();
    assert.ok(link.length > 1000, `a history link (${link.length} characters)`);
    const { page, context, problems } = await openPage(browser, server.url + link, { viewport: { width: 1280, height: 800 } });
    await waitFor(page, () => document.querySelector('[data-testid=hours-read]')?.dataset.value);
    await page.waitForSelector('[data-testid=term-table]');
    const failures = await checkPrint(page, `slurm-terms-${lang}`);
    assert.deepEqual(failures, []);
    await checkLink(page);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${lang}: a two-type fleet with a history and terms fits A4 and Letter`, async () => {
    // With teams (issue 37): the team table and the all-types table print too.
    const rows = ['timestamp,gpu_type,team,gpus'];
    for (let h = 0; h < 730; h++) {
      const t = new Date(Date.UTC(2026, 0, 1, h)).toISOString().slice(0, 16).replace('T', ' ');
      rows.push(`${t},A100,vision,${h < 200 ? 4 : 3}`, `${t},A100,nlp,${h < 200 ? 2 : 1}`, `${t},H100,nlp,${h < 300 ? 4 : 3}`);
    }
    const { page, context, problems } = await openPage(browser, `${server.url}?v=2&lang=${lang}&hours=730&lookback=all`
      + `&budget=90000&type.0=A100&keys.0=a100&type.1=H100&keys.1=h100&monthly.1=20000&ondemand.1=50&mode=data&${TERMS}`,
    { viewport: { width: 1280, height: 800 } });
    await page.evaluate((text) => {
      const ta = document.querySelector('[data-testid=usage-data]');
      ta.value = text;
      ta.dispatchEvent(new Event('input', { bubbles: true }));
    }, rows.join('\n'));
    await page.waitForSelector('[data-testid=fleet-table] tr[data-type="H100"]', { timeout: 20000 });
    await page.waitForSelector('[data-testid=term-table]');
    await page.waitForSelector('[data-testid=team-fleet-table] tr[data-team=nlp]');
    const failures = await checkPrint(page, `fleet-${lang}`);
    assert.deepEqual(failures, []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${lang}: the AWS bill example (the bill report) fits A4 and Letter`, async () => {
    const { page, context, problems } = await openPage(browser, `${server.url}?v=2&lang=${lang}&mode=data`, { viewport: { width: 1280, height: 800 } });
    await page.click('[data-testid=sample-aws-cur]');
    await waitFor(page, () => document.querySelector('[data-testid=hours-read]')?.dataset.value);
    const failures = await checkPrint(page, `bill-${lang}`);
    assert.deepEqual(failures, []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${lang}: a utilisation file read as counts (the read-check warnings) fits A4 and Letter`, async () => {
    const { page, context, problems } = await openPage(browser, `${server.url}?v=2&lang=${lang}&mode=data`, { viewport: { width: 1280, height: 800 } });
    await pickCorpusFile(page, 'grafana-dcgm-util-labelsets-10gpu.csv');
    await page.selectOption('[data-testid=column-meaning]', 'counts');
    await page.waitForSelector('[data-testid=read-warnings]', { timeout: 20000 });
    const failures = await checkPrint(page, `read-check-${lang}`);
    assert.deepEqual(failures, []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
