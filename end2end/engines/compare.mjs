// The suite's two comparisons, pure functions (unit-tested in compare.test.mjs).
// A figure is { id, screen, value }: `id` the test-id key two engines share, `screen` the
// first-screen key (end2end/engines/probe.js), `value` the element's data-value.

/**
 * One engine's figures against the reference engine's (Chromium's): every missing, extra or
 * different value, one line each; [] when the sets are equal.
 */
export function diffFigures(reference, other, names = ['chromium', 'other']) {
  const [ref, oth] = names;
  const a = new Map(reference.map((f) => [f.id, f.value]));
  const b = new Map(other.map((f) => [f.id, f.value]));
  const lines = [];
  for (const [id, v] of a) {
    if (!b.has(id)) lines.push(`missing  ${id}: ${ref} ${v}, ${oth} has no such figure`);
    else if (b.get(id) !== v) lines.push(`differs  ${id}: ${ref} ${v}, ${oth} ${b.get(id)}`);
  }
  for (const [id, v] of b) {
    if (!a.has(id)) lines.push(`extra    ${id}: ${oth} ${v}, ${ref} has no such figure`);
  }
  if (a.size !== reference.length) lines.push(`${ref}: ${reference.length - a.size} figure(s) with a repeated key`);
  if (b.size !== other.length) lines.push(`${oth}: ${other.length - b.size} figure(s) with a repeated key`);
  return lines;
}

/**
 * The figures shown at first paint (before <html data-ready>) against the ones shown when the
 * page is ready, matched by their first-screen key and order: a figure shown first must be
 * shown ready with the same value. [] when they match (or nothing was shown first).
 */
export function diffFirstShown(first, ready) {
  const group = (list) => {
    const m = new Map();
    for (const f of list) {
      if (!m.has(f.screen)) m.set(f.screen, []);
      m.get(f.screen).push(f.value);
    }
    return m;
  };
  const f = group(first || []);
  const r = group(ready.filter((x) => x.shown !== false));
  const lines = [];
  for (const [screen, values] of f) {
    const later = r.get(screen) || [];
    values.forEach((v, i) => {
      if (i >= later.length) lines.push(`first paint showed ${screen} = ${v}; not shown when ready`);
      else if (later[i] !== v) lines.push(`first paint showed ${screen} = ${v}; ready shows ${later[i]}`);
    });
  }
  return lines;
}
