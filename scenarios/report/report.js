// contend's HTML report: draws the data that scenarios/html_report.cpp embeds as JSON.
// A "story" is a set of operations and the transaction attempts that served them, drawn in full
// in two linked views (time; versions x keys) and stepped event by event with the store's keys and
// the sequential model's queue beside it. The whole run is drawn as a summary per time bucket.
// URL hash (for tests, links and screenshots): #story=NAME opens that drawing, #at=N (or
// at=first-conflict) on that event, #zoom=F scales the time view by F around it, #pan=F moves it
// by F of its width, and
// #keys=ArrowRight,ArrowRight,+ replays those key presses.
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var errors = document.getElementById('page-errors');
  function noteError(text) {
    var p = document.createElement('p');
    p.textContent = text;
    errors.appendChild(p);
    errors.hidden = false;
  }
  window.addEventListener('error', function (e) { noteError(String(e.message)); });

  var data = JSON.parse(document.getElementById('data').textContent);
  var $ = function (id) { return document.getElementById(id); };

  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) if (attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(name, attrs, parent, text) {
    var e = document.createElement(name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function title(node, text) { el('title', {}, node, text); }

  // ---- time formatting: virtual microseconds ----
  function unitFor(span) {
    if (span >= 2e6) return { div: 1e6, name: 's' };
    if (span >= 2e3) return { div: 1e3, name: 'ms' };
    return { div: 1, name: '\u00b5s' };
  }
  function fmtTime(t) {
    var u = unitFor(Math.abs(t));
    var v = t / u.div;
    return (Math.round(v * 1000) / 1000) + ' ' + u.name;
  }
  function niceStep(span, ticks) {
    var raw = span / ticks, p = Math.pow(10, Math.floor(Math.log10(raw)));
    var m = raw / p;
    return p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
  }

  // ---- the verdict and the violation in words ----
  var v = data.verdict;
  var verdict = $('verdict');
  // A verdict no checker could decide is neither good nor bad: it is drawn apart from both.
  verdict.className = v.ok ? 'good' : v.kind === 'unknown' ? 'undecided' : 'bad';
  verdict.textContent = 'Verdict: ' + v.summary + (v.checker ? ' (checker: ' + v.checker + ')' : '') +
      ' \u2014 ' + data.operations + ' operation(s), ' + data.clients + ' client(s), checked against the ' +
      data.spec + ' specification';

  var stories = data.stories;
  var story = null, events = [], step = 0, view = { t0: 0, t1: 1 }, bounds = { t0: 0, t1: 1 };

  function opLabel(o) {
    var ins = o.f === 'enqueue' || o.f === 'push';
    var what = ins ? o.f + ' ' + o.v : o.f + (o.t === 'ok' ? ' \u2192 ' + (o.v || 'empty') : '');
    return what;
  }
  function who(c) { return (story && !story.store ? 'process ' : 'client ') + c; }
  function opWords(o) {
    return who(o.c) + ': ' + opLabel(o) + ' (' + o.t + ', ' + fmtTime(o.s) + ' to ' +
        (o.e < 0 ? '?' : fmtTime(o.e)) + ', event ' + o.id + ')';
  }

  function showViolation() {
    var box = $('violation');
    box.innerHTML = '';
    var sv = (story && story.verdict) || v;
    if (sv.ok) { box.hidden = true; return; }
    box.hidden = false;
    box.className = sv.kind === 'unknown' ? 'undecided' : '';
    if (sv.kind === 'unknown') {
      html('h2', {}, box, 'Undecided: no checker could judge this run');
      html('p', { id: 'violation-words' }, box, sv.explanation);
      html('p', {}, box, 'It is neither a pass nor a finding' +
          (sv.remedy ? ': ' + sv.remedy + '.' : '.'));
      return;
    }
    html('h2', {}, box, sv.kind === 'simulator_fault'
        ? 'What went wrong: a simulator fault (contend itself broke; not a finding about the recipe)'
        : 'What went wrong: ' + sv.violation.replace(/_/g, ' '));
    html('p', { id: 'violation-words' }, box, sv.explanation);
    var bad = story ? story.ops.filter(function (o) { return o.bad; }) : [];
    if (bad.length) {
      var p = html('p', {}, box, 'The operations involved (outlined in red; click to step to one): ');
      bad.forEach(function (o) {
        var b = html('button', { 'class': 'violating-op', 'data-op': o.id }, p, opWords(o));
        b.addEventListener('click', function () { goToOp(o.id); });
      });
    } else if (story && story.name.indexOf('window') !== 0 && story.name !== 'counterexample') {
      html('p', {}, box, 'None of the involved operations is in this drawing.');
    }
  }

  // ---- events to step through ----
  function buildEvents(s) {
    var evs = [];
    s.ops.forEach(function (o, i) {
      evs.push({ t: o.s, order: 2, kind: 'invoke', op: i, text: who(o.c) + ' invokes ' + o.f +
          (o.f === 'enqueue' || o.f === 'push' ? ' ' + o.v : '') });
      if (o.e >= 0) {
        evs.push({ t: o.e, order: 1, kind: 'complete', op: i, text: who(o.c) + ' completes ' +
            opLabel(o) + ' (' + o.t + ')' + (o.fault ? ' \u2014 fault: ' + o.fault : '') });
      }
    });
    s.attempts.forEach(function (a, i) {
      if (a.rv >= 0) {
        evs.push({ t: a.rv, order: 3, kind: 'grv', att: i, text: 'client ' + a.c + ' tx#' + a.tx +
            ' gets read version ' + a.rv + ' and reads: ' +
            (a.reads.length ? a.reads.map(function (r) { return r.txt; }).join('; ') : 'nothing') });
      }
      var end;
      if (a.applied && a.out === 'success') end = 'commits at version ' + a.cv;
      else if (a.out === 'success') end = 'ends read-only';
      else end = 'fails: ' + a.out;
      var why = '';
      if (a.conflict) {
        why = ' \u2014 its read range (step ' + (a.conflict.step || '?') + ') met the write committed at ' +
            a.conflict.wv + ' by client ' + a.conflict.wc + ' (tx#' + a.conflict.wtx + ')';
      }
      evs.push({ t: a.e, order: 0, kind: 'commit', att: i, text: 'client ' + a.c + ' tx#' + a.tx + ' ' +
          end + why + (a.fault ? ' \u2014 fault: ' + a.fault : '') +
          (a.writes.length ? '; writes: ' + a.writes.map(function (w) { return w.txt; }).join('; ') : '') });
    });
    // At equal times: commits, then completions, then the invocations they allow, then fetches.
    evs.sort(function (x, y) { return x.t - y.t || x.order - y.order; });
    // Which step each commit and each operation's effect happens at: the store and the model
    // panels show everything up to and including the current step.
    evs.forEach(function (e, i) {
      if (e.kind === 'commit') s.attempts[e.att].ev = i;
      if (e.kind === 'invoke') s.ops[e.op].iev = i;
      if (e.kind === 'complete') s.ops[e.op].cev = i;
    });
    var byPrefix = s.lin.indexOf('prefix') >= 0;
    s.ops.forEach(function (o) {
      if (o.la >= 0) o.ev = s.attempts[o.la].ev;
      else o.ev = byPrefix ? o.iev : o.cev === undefined ? Infinity : o.cev;
    });
    return evs;
  }

  // ---- the store and the model at a step ----
  // The store as of step `at`: every write committed by then, applied in commit-version order;
  // its version is the newest such commit's.
  function storeAt(s, at) {
    var state = {}, version = 0;
    s.initial.forEach(function (kv) { state[kv[0]] = kv[1]; });
    var applied = s.attempts.filter(function (a) { return a.applied && a.ev <= at; });
    applied.sort(function (x, y) { return x.cv - y.cv; });
    var changed = {};
    applied.forEach(function (a) {
      version = Math.max(version, a.cv);
      a.writes.forEach(function (w) {
        if (w.op === 'clear') {
          for (var k = w.lo; k < w.hi; k++) { if (k in state) { delete state[k]; } }
        } else {
          state[w.k] = w.v;
          if (a.ev === at) changed[w.k] = true;
        }
      });
    });
    return { state: state, changed: changed, version: version };
  }

  function parseItem(text) {
    var m = /^(.*) p(-?\d+)$/.exec(text || '');
    return m ? { v: m[1], p: Number(m[2]), text: text } : { v: text, p: null, text: text };
  }
  // Applies the operations that took effect by time t, in their linearisation order, to the
  // sequential spec; notes where an answer differs from what the spec gives.
  function modelAt(s, at) {
    var taken = s.ops.filter(function (o) { return o.lin >= 0 && o.ev <= at; });
    taken.sort(function (x, y) { return x.lin - y.lin; });
    var q = [], seq = 0, mismatch = null;
    taken.forEach(function (o) {
      if (o.f === 'enqueue' || o.f === 'push') {
        var it = parseItem(o.v); it.seq = seq++; it.s = o.s; it.e = o.e; q.push(it);
        return;
      }
      if (o.t !== 'ok') return;  // an ambiguous take: its value is unknown
      var want = -1;
      if (q.length) {
        if (data.spec === 'fifo' || data.spec === 'multiset') want = 0;
        if (data.spec === 'priority') {
          want = 0;
          for (var i = 1; i < q.length; i++) {
            var better = o.f.indexOf('min') >= 0 ? q[i].p < q[want].p || (q[i].p === q[want].p && q[i].seq < q[want].seq)
                                                 : q[i].p > q[want].p || (q[i].p === q[want].p && q[i].seq > q[want].seq);
            if (better) want = i;
          }
        }
      }
      var got = -1;
      for (var j = 0; j < q.length; j++) if (q[j].text === o.v) { got = j; break; }
      var ok = data.spec === 'multiset' ? (o.v ? got >= 0 : q.length === 0) : (o.v ? got === want && got >= 0 : want < 0);
      // Inserts are ordered here by their commit points, but concurrent inserts may take effect
      // in either order: the answer is fine when every item it jumped was inserted concurrently
      // with it (for the priority spec: among items of its priority).
      if (!ok && got >= 0 && want >= 0 && data.spec !== 'multiset') {
        var g = q[got], w = q[want];
        var concurrent = function (x) { return x.e < 0 || g.e < 0 || (x.e >= g.s && g.e >= x.s); };
        if (data.spec === 'fifo') {
          ok = q.slice(0, got).every(concurrent);
        } else if (g.p === w.p) {
          var min = o.f.indexOf('min') >= 0;
          ok = q.every(function (x) {
            return x === g || x.p !== g.p || (min ? x.seq > g.seq : x.seq < g.seq) || concurrent(x);
          });
        }
      }
      if (!ok && !mismatch) {
        mismatch = { op: o, want: want >= 0 ? q[want].text : 'empty' };
      }
      var remove = o.f.indexOf('peek') < 0;
      if (remove && got >= 0) q.splice(got, 1);
    });
    return { queue: q, taken: taken, mismatch: mismatch };
  }

  // ---- drawing ----
  var LEFT = 196, LANE = 58;
  var svgT = $('timeline'), svgV = $('version-view');
  function width(svg) { return Math.max(400, svg.clientWidth || svg.parentNode.clientWidth || 900); }
  function xOf(t, w) { return LEFT + (t - view.t0) / (view.t1 - view.t0) * (w - LEFT - 12); }

  function drawAxis(svg, w, y, h) {
    var g = el('g', { 'class': 'axis' }, svg);
    var span = view.t1 - view.t0, stepT = niceStep(span, Math.max(2, Math.floor((w - LEFT) / 110)));
    var u = unitFor(stepT * 4);
    el('line', { x1: LEFT, x2: w - 12, y1: y, y2: y }, g);
    for (var t = Math.ceil(view.t0 / stepT) * stepT; t <= view.t1; t += stepT) {
      var x = xOf(t, w);
      el('line', { x1: x, x2: x, y1: y, y2: y + h, 'class': 'grid' }, g);
      el('line', { x1: x, x2: x, y1: y - 4, y2: y }, g);
      el('text', { x: x, y: y - 6, 'text-anchor': 'middle' }, g, (Math.round(t / u.div * 1000) / 1000) + ' ' + u.name);
    }
    el('text', { x: 4, y: y - 6 }, g, 'virtual time');
  }

  function clipX(a, b, w) { return [Math.max(LEFT - 4, xOf(a, w)), Math.min(w + 4, xOf(b, w))]; }

  function current() { return events[step] || null; }

  function drawTimeline() {
    var s = story, w = width(svgT);
    var lanes = s.clients.length, h = 34 + lanes * LANE + 8;
    svgT.innerHTML = '';
    svgT.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svgT.setAttribute('height', h);
    svgT.setAttribute('data-view', Math.round(view.t0) + '..' + Math.round(view.t1));
    drawAxis(svgT, w, 28, h - 28);
    var laneY = {};
    s.clients.forEach(function (c, i) {
      laneY[c] = 34 + i * LANE;
      el('text', { x: 6, y: laneY[c] + 30, 'class': 'lane-name' }, svgT,
         (s.store ? 'client ' : 'process ') + c + (s.drain === c ? ' (the drain)' : ''));
      el('line', { x1: 0, x2: w, y1: laneY[c] + LANE - 1, y2: laneY[c] + LANE - 1, 'class': 'grid' }, svgT);
    });
    var cur = current();
    var stop = bounds.t1;
    s.ops.forEach(function (o, i) {
      var end = o.e < 0 ? stop : o.e;
      if (end < view.t0 || o.s > view.t1) return;
      var xs = clipX(o.s, end, w), y = laneY[o.c];
      var cls = 'op ' + o.t + (o.bad ? ' bad' : '') + (cur && cur.op === i ? ' current' : '');
      var g = el('g', { 'class': cls, 'data-op': o.id }, svgT);
      el('rect', { x: xs[0], y: y + 3, width: Math.max(3, xs[1] - xs[0]), height: 17, rx: 3 }, g);
      if (xs[1] - xs[0] > 40) el('text', { x: xs[0] + 4, y: y + 15 }, g, opLabel(o));
      title(g, opWords(o) + (o.fault ? '\nfault: ' + o.fault : ''));
      if (o.fault) el('text', { x: xs[1] - 4, y: y + 16, 'class': 'fault-mark' }, svgT, '\u26a1');
    });
    s.attempts.forEach(function (a, i) {
      var start = a.rv >= 0 ? a.rv : a.e;
      if (a.e < view.t0 || start > view.t1) return;
      var xs = clipX(start, a.e, w), y = laneY[a.c] + 26;
      var cls = 'tx' + (a.conflict ? ' conflict' : a.out !== 'success' ? ' error' : a.applied ? '' : ' readonly') +
          (cur && cur.att === i ? ' current' : '');
      var g = el('g', { 'class': cls, 'data-attempt': i }, svgT);
      el('rect', { x: xs[0], y: y, width: Math.max(3, xs[1] - xs[0]), height: 14, rx: 2 }, g);
      if (a.rv >= 0 && a.rv >= view.t0) el('line', { x1: xOf(a.rv, w), x2: xOf(a.rv, w), y1: y - 3, y2: y + 17, 'class': 'grv' }, g);
      var n = a.reads.length;
      a.reads.forEach(function (r, k) {
        var x = xs[0] + (xs[1] - xs[0]) * (k + 1) / (n + 1);
        el('circle', { cx: x, cy: y + 7, r: 3, 'class': 'read' + (r.snap ? ' snap' : '') }, g);
      });
      var xe = xOf(a.e, w);
      if (a.out === 'success') el('circle', { cx: xe, cy: y + 7, r: 4, 'class': 'commit-ok' }, g);
      else el('path', { d: 'M' + (xe - 4) + ' ' + (y + 3) + 'l8 8m0 -8l-8 8', stroke: 'currentColor', 'class': 'aborted' }, g);
      if (a.fault) el('text', { x: xe + 3, y: y + 12, 'class': 'fault-mark' }, g, '\u26a1');
      title(g, a.txt + (a.fault ? '\nfault: ' + a.fault : ''));
    });
    if (cur && cur.t >= view.t0 && cur.t <= view.t1) {
      el('line', { x1: xOf(cur.t, w), x2: xOf(cur.t, w), y1: 22, y2: h, 'class': 'now', id: 'timeline-now' }, svgT);
    }
  }

  var ROW = 18, KEYS_LEFT = 0;
  function drawVersions() {
    var s = story;
    var fig = $('version-figure');
    if (!s.store) { fig.hidden = true; return; }
    fig.hidden = false;
    var w = width(svgV), rows = Math.max(1, s.keys.length), h = 34 + rows * ROW + 10;
    svgV.innerHTML = '';
    svgV.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svgV.setAttribute('height', h);
    drawAxis(svgV, w, 28, h - 28);
    var y0 = 34;
    var rowY = function (k) { return y0 + k * ROW; };
    s.keys.forEach(function (k, i) {
      var t = el('text', { x: 4 + KEYS_LEFT, y: rowY(i) + 13, 'class': 'key-name' }, svgV, k.length > 30 ? k.slice(0, 29) + '\u2026' : k);
      title(t, k);
      el('line', { x1: LEFT, x2: w, y1: rowY(i) + ROW, y2: rowY(i) + ROW, 'class': 'grid' }, svgV);
    });
    if (!s.keys.length) el('text', { x: LEFT + 8, y: y0 + 13, 'class': 'label' }, svgV, 'no keys written or read');
    var defs = el('defs', {}, svgV);
    var marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0 0L10 5L0 10z', fill: '#c92a2a' }, marker);
    var cur = current();
    var visible = function (t) { return t >= view.t0 && t <= view.t1; };
    s.attempts.forEach(function (a, i) {
      var isCur = cur && cur.att === i;
      var g = el('g', { 'class': 'att' + (isCur ? ' current' : ''), 'data-attempt': i }, svgV);
      if (a.rv >= 0 && visible(a.rv)) {
        // Solid: the read conflict ranges the attempt sent (what a later write can meet);
        // dashed: the snapshot reads, over the keys they asked for (they add no range).
        var marks = a.ranges.map(function (r) { return { lo: r.lo, hi: r.hi, snap: false, txt: 'read conflict range ' + r.txt }; });
        a.reads.forEach(function (r) { if (r.snap) marks.push({ lo: r.lo, hi: r.hi, snap: true, txt: r.txt }); });
        marks.forEach(function (r, k) {
          var top = rowY(r.lo), bottom = rowY(Math.max(r.lo, r.hi));
          var rect = el('rect', { x: xOf(a.rv, w) - 3 + 7 * k, y: top + 1, width: 6, height: Math.max(3, bottom - top - 2),
            'class': 'read-range' + (r.snap ? ' snap' : '') + (isCur ? ' current' : '') }, g);
          title(rect, 'client ' + a.c + ' tx#' + a.tx + ' at read version ' + a.rv + ': ' + r.txt);
        });
      }
      if (a.applied && visible(a.cv)) {
        a.writes.forEach(function (wr) {
          var x = xOf(a.cv, w), m;
          if (wr.op === 'clear') {
            var top = rowY(wr.lo), bottom = rowY(Math.max(wr.lo + 1, wr.hi));
            if (wr.hi - wr.lo <= 1) {
              m = el('path', { d: 'M' + (x - 5) + ' ' + (top + 4) + 'l10 10m0 -10l-10 10', 'class': 'write-clear' }, g);
            } else {
              m = el('rect', { x: x - 2, y: top + 2, width: 4, height: bottom - top - 4, 'class': 'write-clear' }, g);
            }
          } else {
            m = el('rect', { x: x - 5, y: rowY(wr.k) + 4, width: 10, height: 10, 'class': wr.op === 'set' ? 'write-set' : 'write-other' }, g);
          }
          title(m, 'client ' + a.c + ' tx#' + a.tx + ' committed at ' + a.cv + ': ' + wr.txt + (wr.v ? ' = ' + wr.v : ''));
        });
      }
      if (a.conflict && visible(a.e)) {
        var c = a.conflict;
        var ty = rowY(c.lo) + Math.max(ROW, rowY(Math.max(c.lo + 1, c.hi)) - rowY(c.lo)) / 2;
        var x2 = xOf(a.e, w), x1 = xOf(c.wv, w), y1 = rowY(Math.min(c.wk, Math.max(0, s.keys.length - 1))) + 9;
        el('path', { d: 'M' + (x2 - 5) + ' ' + (ty - 5) + 'l10 10m0 -10l-10 10', 'class': 'aborted' }, g);
        var arrow = el('path', { d: 'M' + x1 + ' ' + y1 + 'C' + (x1 + x2) / 2 + ' ' + (y1 - 16) + ' ' + (x1 + x2) / 2 + ' ' + (ty - 16) + ' ' + (x2 - 6) + ' ' + ty,
          'class': 'conflict-arrow', 'marker-end': 'url(#arrow)' }, g);
        title(arrow, 'conflict: client ' + c.wc + ' tx#' + c.wtx + ' committed a write at ' + c.wv +
            ' into the read range of client ' + a.c + ' tx#' + a.tx + ' (read at ' + a.rv + '), so its commit was refused');
      }
    });
    if (cur && visible(cur.t)) el('line', { x1: xOf(cur.t, w), x2: xOf(cur.t, w), y1: 22, y2: h, 'class': 'now' }, svgV);
  }

  function drawPanel() {
    var s = story, cur = current();
    var panel = $('step-panel');
    panel.setAttribute('data-step', step);
    $('step-counter').textContent = events.length ? 'event ' + (step + 1) + ' of ' + events.length +
        (cur ? ' at ' + fmtTime(cur.t) : '') : 'no events';
    $('step-event').textContent = cur ? fmtTime(cur.t) + ': ' + cur.text : '';
    var table = $('store-state');
    table.innerHTML = '';
    if (s.store) {
      var st = storeAt(s, step), any = false;
      $('store-version').textContent = String(st.version);
      Object.keys(st.state).map(Number).sort(function (a, b) { return a - b; }).forEach(function (k) {
        any = true;
        var tr = html('tr', st.changed[k] ? { 'class': 'changed' } : {}, table);
        html('td', {}, tr, s.keys[k]);
        html('td', {}, tr, st.state[k]);
      });
      if (!any) html('td', { 'class': 'empty' }, html('tr', {}, table), 'no keys: the queue is empty');
    }
    $('store-heading').hidden = table.hidden = !s.store;
    var m = modelAt(s, step);
    $('model-order').textContent = '(' + data.spec + ', ' + m.taken.length + ' operation(s) linearised: ' + s.lin + ')';
    var ol = $('model-state');
    ol.innerHTML = '';
    m.queue.forEach(function (it) { html('li', {}, ol, it.text); });
    ol.hidden = !m.queue.length;
    ol.previousElementSibling.textContent = m.queue.length ? 'head (next out' + (data.spec === 'priority' ? ': by priority' : '') + ')' : '(empty)';
    var check = $('model-check');
    if (m.mismatch) {
      check.className = 'bad';
      check.textContent = '\u2718 ' + opWords(m.mismatch.op) + ': the sequential ' + data.spec + ' queue would have given ' + m.mismatch.want + '.';
    } else {
      check.className = '';
      check.textContent = m.taken.length ? '\u2714 every answer so far is what the sequential queue gives.' : '';
    }
  }

  function redraw() { drawTimeline(); drawVersions(); drawPanel(); }

  // ---- stepping, zoom, pan ----
  function setStep(i) {
    step = Math.max(0, Math.min(events.length - 1, i));
    var cur = current();
    if (cur && (cur.t < view.t0 || cur.t > view.t1)) {
      var span = view.t1 - view.t0;
      view.t0 = cur.t - span / 2; view.t1 = cur.t + span / 2;
    }
    redraw();
  }
  function goToOp(id) {
    for (var i = 0; i < events.length; i++) {
      var e = events[i];
      if (e.op !== undefined && story.ops[e.op].id === id) { setStep(i); return; }
    }
  }
  function zoom(factor, at) {
    var span = view.t1 - view.t0;
    if (at === undefined) { var cur = current(); at = cur ? cur.t : (view.t0 + view.t1) / 2; }
    var newSpan = Math.max(20, Math.min((bounds.t1 - bounds.t0) * 4, span * factor));
    var f = (at - view.t0) / span;
    view.t0 = at - f * newSpan; view.t1 = view.t0 + newSpan;
    redraw();
  }
  function pan(fraction) {
    var d = (view.t1 - view.t0) * fraction;
    view.t0 += d; view.t1 += d;
    redraw();
  }
  function fit() {
    view.t0 = bounds.t0; view.t1 = bounds.t1;
    redraw();
  }
  $('step-first').onclick = function () { setStep(0); };
  $('step-back').onclick = function () { setStep(step - 1); };
  $('step-forward').onclick = function () { setStep(step + 1); };
  $('step-last').onclick = function () { setStep(events.length - 1); };
  $('zoom-in').onclick = function () { zoom(0.5); };
  $('zoom-out').onclick = function () { zoom(2); };
  $('zoom-fit').onclick = fit;
  document.addEventListener('keydown', function (e) {
    if (!story) return;
    var k = e.key;
    if (k === 'ArrowRight' && e.shiftKey) pan(0.2);
    else if (k === 'ArrowLeft' && e.shiftKey) pan(-0.2);
    else if (k === 'ArrowRight') setStep(step + 1);
    else if (k === 'ArrowLeft') setStep(step - 1);
    else if (k === 'Home') setStep(0);
    else if (k === 'End') setStep(events.length - 1);
    else if (k === '+' || k === '=') zoom(0.5);
    else if (k === '-') zoom(2);
    else if (k === '0' || k === 'f') fit();
    else return;
    e.preventDefault();
  });
  function timeAt(svg, clientX) {
    var r = svg.getBoundingClientRect(), w = width(svg);
    var x = (clientX - r.left) * w / r.width;
    return view.t0 + (x - LEFT) / (w - LEFT - 12) * (view.t1 - view.t0);
  }
  [svgT, svgV].forEach(function (svg) {
    svg.addEventListener('wheel', function (e) {
      e.preventDefault();
      zoom(e.deltaY > 0 ? 1.25 : 0.8, timeAt(svg, e.clientX));
    }, { passive: false });
    var drag = null;
    svg.addEventListener('mousedown', function (e) { drag = { x: e.clientX, t0: view.t0, t1: view.t1 }; svg.classList.add('dragging'); });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      var r = svg.getBoundingClientRect(), w = width(svg);
      var dt = (e.clientX - drag.x) * w / r.width / (w - LEFT - 12) * (drag.t1 - drag.t0);
      view.t0 = drag.t0 - dt; view.t1 = drag.t1 - dt;
      drawTimeline(); drawVersions();
    });
    window.addEventListener('mouseup', function () { drag = null; svg.classList.remove('dragging'); });
  });

  function choose(name) {
    var found = stories.filter(function (s) { return s.name === name; })[0] || stories[0];
    if (!found) return;
    story = found;
    events = buildEvents(story);
    var t0 = Infinity, t1 = -Infinity;
    story.ops.forEach(function (o) { t0 = Math.min(t0, o.s); t1 = Math.max(t1, o.e, o.s); });
    story.attempts.forEach(function (a) { t0 = Math.min(t0, a.rv >= 0 ? a.rv : a.e); t1 = Math.max(t1, a.e); });
    if (!isFinite(t0)) { t0 = 0; t1 = 1; }
    // A window of a big run: fit its operations' invocations, not the long ones it overlaps.
    if (story.window) { t0 = story.window[0]; t1 = Math.max(t0 + 1, story.window[1] + (story.window[1] - story.window[0]) / 2); }
    var pad = Math.max(10, (t1 - t0) * 0.02);
    bounds = { t0: t0 - pad, t1: t1 + pad };
    view = { t0: bounds.t0, t1: bounds.t1 };
    step = 0;
    Array.prototype.forEach.call($('stories').children, function (b) {
      b.classList.toggle('active', b.getAttribute('data-story') === story.name);
    });
    $('story-caption').textContent = story.caption;
    $('trace').textContent = story.trace || '(no step trace for this drawing)';
    $('trace-section').hidden = !story.trace;
    showViolation();
    // Open on the problem: the first event after which the sequential model disagrees (small
    // stories), else the first event of a violating operation.
    var first = -1;
    if (events.length <= 600) {
      for (var i = 0; i < events.length && first < 0; i++) {
        if (modelAt(story, i).mismatch) first = i;
      }
    }
    events.forEach(function (e, i) { if (first < 0 && e.op !== undefined && story.ops[e.op].bad) first = i; });
    step = first < 0 ? 0 : first;
    if (first >= 0 && !(story.verdict || data.verdict).ok) {
      $('step-panel').setAttribute('data-opened-on', first);
    }
    redraw();
  }

  // ---- the whole run, per time bucket ----
  function drawOverview() {
    var sm = data.summary, svg = $('overview');
    var n = sm.ok.length, w = width(svg), h = 120, top = 10, base = 96;
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svg.setAttribute('height', h);
    var max = 1;
    for (var i = 0; i < n; i++) max = Math.max(max, sm.ok[i], sm.conflicts[i]);
    var bw = (w - LEFT - 12) / n;
    el('text', { x: 4, y: 40, 'class': 'label' }, svg, 'per ' + fmtTime(sm.bucket_us));
    for (i = 0; i < n; i++) {
      var x = LEFT + i * bw, hOk = (base - top) * sm.ok[i] / max, hC = (base - top) * sm.conflicts[i] / max;
      if (hOk > 0) title(el('rect', { x: x, y: base - hOk, width: Math.max(1, bw * 0.55), height: hOk, 'class': 'bucket-ok' }, svg),
          fmtTime(i * sm.bucket_us) + ': ' + sm.ok[i] + ' ok, ' + sm.invoked[i] + ' invoked, ' + sm.attempts[i] + ' attempts, ' + sm.conflicts[i] + ' conflicts, ' + sm.faults[i] + ' faults');
      if (hC > 0) el('rect', { x: x + bw * 0.55, y: base - hC, width: Math.max(1, bw * 0.45), height: hC, 'class': 'bucket-conflict' }, svg);
      if (sm.violating[i] > 0) title(el('rect', { x: x, y: base + 4, width: Math.max(2, bw), height: 8, 'class': 'bucket-bad' }, svg), sm.violating[i] + ' violating operation(s) start here');
    }
    el('line', { x1: LEFT, x2: w - 12, y1: base, y2: base, stroke: '#adb5bd' }, svg);
    el('text', { x: LEFT, y: h - 4, 'class': 'label' }, svg, '0');
    el('text', { x: w - 12, y: h - 4, 'class': 'label', 'text-anchor': 'end' }, svg, fmtTime(sm.end));
    $('overview-caption').textContent = 'Green: operations completed ok per ' + fmtTime(sm.bucket_us) +
        '; red: transaction conflicts; a red mark below: a violating operation started there. ' +
        (data.operations > 2000 ? 'The run has ' + data.operations + ' operations: it is summarised here, and drawn in full only around its violating operations (the drawings above).'
                                : 'Every operation is drawn above.');
  }

  stories.forEach(function (s) {
    var b = html('button', { 'data-story': s.name }, $('stories'), s.name === 'counterexample' ? 'shrunk counterexample' :
        s.name === 'run' ? 'the whole run' : s.name === 'history' ? 'the history' : s.name);
    b.addEventListener('click', function () { choose(s.name); });
  });
  drawOverview();
  var params = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
    var i = kv.indexOf('=');
    if (i > 0) params[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
  });
  if (stories.length) {
    choose(params.story || stories[0].name);
  } else {
    $('controls').hidden = true;
    $('views').hidden = true;
    $('stories').textContent = 'Nothing to draw in full: the run is summarised below.';
  }
  // #at=first-conflict opens on the first commit a conflict refused; #at=N on event N.
  if (story && params.at === 'first-conflict') {
    for (var i = 0; i < events.length; i++) {
      if (events[i].kind === 'commit' && story.attempts[events[i].att].conflict) { setStep(i); break; }
    }
  } else if (story && params.at) {
    setStep(Number(params.at) || 0);
  }
  if (params.zoom) zoom(Number(params.zoom) || 1);
  if (params.pan) pan(Number(params.pan) || 0);
  if (params.keys) {
    params.keys.split(',').forEach(function (k) {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    });
  }
  window.addEventListener('resize', function () { if (story) redraw(); });
  document.body.setAttribute('data-render-ms', Math.round(performance.now()));
})();
