// Loaded into the page by the cross-engine smoke suite (end2end/engines/run.mjs), as
// <script src="/__engines-probe.js"> before the page's own scripts: a classic same-origin
// script, so the page's CSP (script-src 'self') allows it in every engine, and it runs before
// the first paint in every engine (WebKitGTK's classic WebDriver has no preload scripts).
// Plain ES2017, no modules: the same file in Chromium, Firefox and WebKit.
(function () {
  'use strict';

  // The nearest first-screen root: the places a first paint shows figures in.
  var ROOTS = 'header, .answer-row, main, body';

  // Where a figure sits: its test id (or its nearest ancestor's, with the element's own
  // path below it), so two engines' figures are matched by the same key.
  function idKey(el) {
    var own = el.getAttribute('data-testid');
    if (own) return own;
    var up = el.parentElement && el.parentElement.closest('[data-testid]');
    return (up ? up.getAttribute('data-testid') : 'page') + ' > ' + path(el, up);
  }

  // tag.class:index steps from `root` (exclusive) down to `el`: how the prerendered copy
  // (which carries no test ids) and the live page are matched.
  function path(el, root) {
    var steps = [];
    for (var e = el; e && e !== root && e !== document.documentElement; e = e.parentElement) {
      var i = 0;
      for (var s = e.previousElementSibling; s; s = s.previousElementSibling) {
        if (s.tagName === e.tagName) i++;
      }
      var cls = (e.getAttribute('class') || '').trim().split(/\s+/).filter(Boolean).sort().join('.');
      steps.push(e.tagName.toLowerCase() + (cls ? '.' + cls : '') + ':' + i);
    }
    return steps.reverse().join(' > ');
  }

  // A first-screen key: the root's own name, then the path below it.
  function screenKey(el) {
    var root = el.parentElement && el.parentElement.closest(ROOTS);
    var name = root ? root.tagName.toLowerCase() + (root.classList.contains('answer-row') ? '.answer-row' : '') : 'html';
    return name + ' > ' + path(el, root);
  }

  function visible(el) {
    return el.getClientRects().length > 0;
  }

  // Every [data-value] in DOM order: { id, screen, value, shown }. Keys that repeat get #n.
  function figures(onlyVisible) {
    var out = [];
    var seen = {};
    var els = document.querySelectorAll('[data-value]');
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var shown = visible(el);
      if (onlyVisible && !shown) continue;
      var id = idKey(el);
      seen[id] = (seen[id] || 0) + 1;
      if (seen[id] > 1) id += ' #' + seen[id];
      out.push({ id: id, screen: screenKey(el), value: el.getAttribute('data-value'), shown: shown });
    }
    return out;
  }

  var probe = {
    // The figures visible in the first frame that showed any, before <html data-ready>;
    // null while none has been shown yet.
    first: null,
    firstFrame: 0,
    frames: 0,
    readyFrame: 0,
    figures: figures,
  };
  window.__enginesProbe = probe;

  // Uncaught errors and rejections, in every engine alike (classic WebDriver reads no console).
  probe.errors = [];
  addEventListener('error', function (e) { probe.errors.push(String(e.message || e)); });
  addEventListener('unhandledrejection', function (e) { probe.errors.push('unhandled rejection: ' + String(e.reason)); });

  // Each page opens as in a fresh browser: no session autosaved by the page before (the
  // WebKit run reuses one browser for every page). Before the page's own scripts read it.
  try { localStorage.clear(); sessionStorage.clear(); } catch (e) { /* storage blocked */ }

  function frame() {
    probe.frames++;
    if (document.documentElement.hasAttribute('data-ready')) {
      probe.readyFrame = probe.frames;
      return;
    }
    if (!probe.first && document.querySelector('[data-value]')) {
      var shown = figures(true);
      if (shown.length) {
        probe.first = shown;
        probe.firstFrame = probe.frames;
      }
    }
    requestAnimationFrame(frame);
  }
  // requestAnimationFrame callbacks run just before a frame is painted: the DOM they see is
  // the DOM that frame shows.
  requestAnimationFrame(frame);
})();
