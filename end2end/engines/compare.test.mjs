// The cross-engine suite's comparisons must fail on a difference (node --test, no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffFigures, diffFirstShown } from './compare.mjs';

const fig = (id, value, screen = id, shown = true) => ({ id, value, screen, shown });
const chromium = [fig('plan-monthly-total', '13359.11'), fig('recommended-n', '0'), fig('breakeven-hours', '360')];

test('equal sets: no difference, whatever the order', () => {
  assert.deepEqual(diffFigures(chromium, [...chromium].reverse()), []);
});

test('a different, a missing and an extra value are each named', () => {
  const firefox = [fig('plan-monthly-total', '13359.12'), fig('breakeven-hours', '360'), fig('own-monthly', '3628.18')];
  assert.deepEqual(diffFigures(chromium, firefox, ['chromium', 'firefox']), [
    'differs  plan-monthly-total: chromium 13359.11, firefox 13359.12',
    'missing  recommended-n: chromium 0, firefox has no such figure',
    'extra    own-monthly: firefox 3628.18, chromium has no such figure',
  ]);
});

test('values are compared as written: 360 and 360.0 differ', () => {
  assert.equal(diffFigures([fig('h', '360')], [fig('h', '360.0')]).length, 1);
});

test('a repeated key is reported (it would hide a figure)', () => {
  assert.deepEqual(diffFigures([fig('a', '1'), fig('a', '1')], [fig('a', '1')]), ['chromium: 1 figure(s) with a repeated key']);
});

test('first paint: the same figures when ready pass; nothing shown first passes', () => {
  const first = [fig('x', '13359.11', 'section.answer-row > p:0 > strong:0')];
  const ready = [fig('plan-monthly-total', '13359.11', 'section.answer-row > p:0 > strong:0'), fig('other', '5', 'main > span:0')];
  assert.deepEqual(diffFirstShown(first, ready), []);
  assert.deepEqual(diffFirstShown(null, ready), []);
});

test('first paint: a changed figure and one gone when ready are named', () => {
  const first = [fig('x', '13359.11', 'p > strong:0'), fig('y', '6640.89', 'p > span:1'), fig('z', '1', 'p > b:0')];
  const ready = [fig('t', '13000.00', 'p > strong:0'), fig('s', '6640.89', 'p > span:1'), fig('hidden', '1', 'p > b:0', false)];
  assert.deepEqual(diffFirstShown(first, ready), [
    'first paint showed p > strong:0 = 13359.11; ready shows 13000.00',
    'first paint showed p > b:0 = 1; not shown when ready',
  ]);
});
