// Fails when files under src/ import each other in a loop (an import circle).
// Reads every `use crate::…` / `use super::…` tree and every `crate::a::b` path written in
// code, maps each to the file that defines the module, and looks for strongly connected
// components (Tarjan). A module's own mod.rs declaring or re-exporting its children is not an
// import of them (that is how Rust builds the tree), so parent → descendant edges are skipped.
//   node scripts/check-circles.mjs [src]      exit 1 and the circles when there are any
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] || 'src');
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.rs')) files.push(p);
  }
})(root);

/** Module path of a file: src/a/b.rs and src/a/b/mod.rs → ['a','b']; lib.rs/main.rs → []. */
function modOf(file) {
  const rel = path.relative(root, file).replace(/\\/g, '/').replace(/\.rs$/, '').split('/');
  if (rel[rel.length - 1] === 'mod') rel.pop();
  if (rel.length === 1 && (rel[0] === 'lib' || rel[0] === 'main')) return [];
  return rel;
}
const byMod = new Map(files.map((f) => [modOf(f).join('::'), f]));

/** The file defining the longest module prefix of `segs`. */
function fileOf(segs) {
  for (let n = segs.length; n > 0; n--) {
    const f = byMod.get(segs.slice(0, n).join('::'));
    if (f) return f;
  }
  return null;
}

/** Expand a use tree `a::{b, c::{d, e}}` into paths. */
function expand(tree) {
  tree = tree.replace(/\s+/g, '');
  const i = tree.indexOf('{');
  if (i < 0) return [tree.replace(/::(self|\*)$/, '').replace(/\bas\w+$/, '')];
  const prefix = tree.slice(0, i);
  const inner = tree.slice(i + 1, tree.lastIndexOf('}'));
  const parts = [];
  let depth = 0, start = 0;
  for (let k = 0; k < inner.length; k++) {
    if (inner[k] === '{') depth++;
    else if (inner[k] === '}') depth--;
    else if (inner[k] === ',' && depth === 0) { parts.push(inner.slice(start, k)); start = k + 1; }
  }
  parts.push(inner.slice(start));
  return parts.filter(Boolean).flatMap((p) => expand(prefix + p));
}

const stripComments = (s) => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '').replace(/"(?:[^"\\]|\\.)*"/g, '""');

const edges = new Map(files.map((f) => [f, new Set()]));
for (const file of files) {
  const here = modOf(file);
  const code = stripComments(fs.readFileSync(file, 'utf8'));
  const paths = [];
  for (const m of code.matchAll(/\buse\s+((?:crate|super|self)::[^;]+);/g)) paths.push(...expand(m[1]));
  for (const m of code.matchAll(/\b(crate(?:::[A-Za-z_][A-Za-z0-9_]*)+)/g)) paths.push(m[1]);
  for (const p of paths) {
    let segs = p.split('::');
    if (segs[0] === 'crate') segs = segs.slice(1);
    else {
      // super:: is the parent of this module (for mod.rs files too), self:: this module.
      let base = [...here];
      while (segs[0] === 'super') { base = base.slice(0, -1); segs = segs.slice(1); }
      if (segs[0] === 'self') segs = segs.slice(1);
      segs = [...base, ...segs];
    }
    const target = fileOf(segs);
    if (!target || target === file) continue;
    const t = modOf(target);
    // A parent declaring / re-exporting its own children is not an import.
    if (t.length > here.length && here.every((s, k) => t[k] === s)) continue;
    edges.get(file).add(target);
  }
}

// Tarjan's strongly connected components.
let index = 0;
const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], circles = [];
function strong(v) {
  idx.set(v, index); low.set(v, index); index++;
  stack.push(v); onStack.add(v);
  for (const w of edges.get(v)) {
    if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const scc = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); scc.push(w); } while (w !== v);
    if (scc.length > 1) circles.push(scc);
  }
}
for (const f of files) if (!idx.has(f)) strong(f);

const rel = (f) => path.relative(process.cwd(), f);
if (circles.length) {
  console.error(`import circles among ${rel(root)}/ files:`);
  for (const c of circles) {
    console.error(`  ${c.map(rel).sort().join(', ')}`);
    for (const a of c) for (const b of edges.get(a)) if (c.includes(b)) console.error(`    ${rel(a)} -> ${rel(b)}`);
  }
  process.exit(1);
}
console.log(`no import circles among ${files.length} files under ${rel(root) || '.'}/`);
