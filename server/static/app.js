// rep serve: the robots.txt tester page. Plain JavaScript, no build step:
// it calls the JSON API (/api/check, /api/lint, /api/fetch, /api/page,
// /api/crawl, /api/crawlers) and keeps its state in the URL fragment so that a result
// can be shared. Every error clears, or marks out of date, the results it
// makes wrong.
'use strict';

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

const robotsEl = $('robots');
const urlsEl = $('urls');
const agentEl = $('agent');
const profileEl = $('profile');
const lineHeight = () => parseFloat(getComputedStyle(robotsEl).lineHeight) || 20;

let info = { fetch: false, note: '' };
let last = { check: null, lint: null }; // latest answers, for redrawing
let current = 0; // the line the selected result points at
let seq = 0; // request sequence: answers to stale requests are dropped
let inflight = null;
let servedAt = ''; // the robots.txt URL the editor's text was fetched from

// api calls an endpoint and returns its JSON, throwing the server's
// {"error"} message on a 4xx/5xx answer.
async function api(path, body, signal) {
  const opt = { signal, headers: {} };
  if (body !== undefined) {
    opt.method = 'POST';
    opt.headers['Content-Type'] = 'application/json';
    opt.body = JSON.stringify(body);
  }
  const res = await fetch(path, opt);
  let data;
  try {
    data = await res.json();
  } catch (e) {
    data = { error: 'the server answered ' + res.status + ' without JSON' };
  }
  if (!res.ok) {
    const err = new Error((data && data.error) || 'HTTP ' + res.status);
    err.status = res.status;
    throw err;
  }
  return data;
}

const isAbort = (e) => e && e.name === 'AbortError';

// urlNode renders a URL that may break after / ? & = # only: long URLs
// wrap at their parts instead of one character per line.
function urlNode(cls, url) {
  const e = el('td', cls);
  const parts = String(url).split(/(?<=[/?&=#])/);
  parts.forEach((p, i) => {
    e.appendChild(document.createTextNode(p));
    if (i < parts.length - 1) e.appendChild(el('wbr'));
  });
  return e;
}

const fmtInt = (n) => n.toLocaleString('en-US');

// didYouMean renders "Unknown crawler “who” — did you mean A or B?" for
// a name the registry does not know (the server's did_you_mean), each
// name a button that calls pick(name), then tail.
function didYouMean(who, names, pick, tail) {
  const p = el('p', 'did-you-mean');
  p.dataset.agent = who;
  p.appendChild(document.createTextNode('Unknown crawler “' + who + '” — did you mean '));
  names.forEach((name, i) => {
    if (i > 0) p.appendChild(document.createTextNode(i === names.length - 1 ? ' or ' : ', '));
    const b = el('button', 'link', name);
    b.type = 'button';
    b.dataset.name = name;
    b.addEventListener('click', () => pick(name));
    p.appendChild(b);
  });
  p.appendChild(document.createTextNode('? ' + tail));
  return p;
}

// replaceName puts name in place of old in a comma-separated list of
// crawlers (an input's value), once: a name the list has already is not
// added again.
function replaceName(input, old, name) {
  const seen = new Set();
  input.value = input.value.split(',').map((s) => (s.trim() === old ? name : s.trim()))
    .filter((s) => s && !seen.has(s.toLowerCase()) && seen.add(s.toLowerCase())).join(', ');
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

// isNoteOfName tells a note the did-you-mean line already says.
const isNoteOfName = (n) => n.startsWith('unknown crawler ');

// The text sent for checking: crawlers read the first 500 KiB, so a huge
// paste is sent up to 2 Mi characters (always more than 500 KiB, and
// within the server's 8 MiB request limit); the server cuts it where
// crawlers do and says where.
const maxSend = 2 << 20;
const robotsToSend = () => (robotsEl.value.length > maxSend ? robotsEl.value.slice(0, maxSend) : robotsEl.value);

function show(node, on) { node.hidden = !on; }

// ---- state in the URL fragment -------------------------------------------

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const get = (k, d) => (p.has(k) ? p.get(k) : d);
  robotsEl.value = get('robots', robotsEl.value);
  urlsEl.value = get('urls', urlsEl.value);
  agentEl.value = get('agent', agentEl.value);
  const prof = get('profile', '');
  profileEl.value = [...profileEl.options].some((o) => o.value === prof) ? prof : '';
  $('page-url').value = get('purl', $('page-url').value);
  $('page-headers').value = get('pheaders', $('page-headers').value);
  $('page-html').value = get('phtml', $('page-html').value);
  $('page-agents').value = get('pagents', $('page-agents').value);
  if ($('page-headers').value || $('page-html').value) $('page-paste').open = true;
  $('page-use-robots').checked = get('probots', '') === '1';
  $('matrix-agents').value = get('matrix', $('matrix-agents').value);
  $('site-url').value = get('surl', $('site-url').value);
  $('site-agents').value = get('sagents', $('site-agents').value);
  $('site-max').value = get('smax', $('site-max').value);
  selectTab(get('tab', 'robots'), false);
  if (typeof compareRead === 'function') compareRead(p); // compare.js
  return p;
}

const maxHashRobots = 64 << 10;
let hashTimer = 0;
function writeHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(writeHashNow, 120);
}

function writeHashNow() {
  clearTimeout(hashTimer);
  const p = new URLSearchParams();
  const tab = tabs.find((n) => $('tab-' + n).getAttribute('aria-selected') === 'true') || 'robots';
  if (tab !== 'robots') p.set('tab', tab);
  p.set('agent', agentEl.value);
  if (profileEl.value) p.set('profile', profileEl.value);
  if (urlsEl.value) p.set('urls', urlsEl.value);
  // A link holds the file only while it stays a reasonable URL.
  if (robotsEl.value && robotsEl.value.length <= maxHashRobots) p.set('robots', robotsEl.value);
  if ($('page-url').value) p.set('purl', $('page-url').value);
  if ($('page-headers').value) p.set('pheaders', $('page-headers').value);
  if ($('page-html').value) p.set('phtml', $('page-html').value);
  if ($('page-agents').value) p.set('pagents', $('page-agents').value);
  if ($('page-use-robots').checked) p.set('probots', '1');
  p.set('matrix', $('matrix-agents').value);
  if ($('site-url').value) p.set('surl', $('site-url').value);
  if ($('site-agents').value !== 'Googlebot, bingbot') p.set('sagents', $('site-agents').value);
  if ($('site-max').value !== '50') p.set('smax', $('site-max').value);
  if (typeof compareHash === 'function') compareHash(p); // compare.js
  history.replaceState(null, '', '#' + p.toString());
}

// ---- tabs -----------------------------------------------------------------

const tabs = ['robots', 'page', 'compare', 'site'];

function selectTab(name, focus) {
  if (!tabs.includes(name)) name = 'robots';
  for (const n of tabs) {
    const on = n === name;
    $('tab-' + n).setAttribute('aria-selected', String(on));
    $('tab-' + n).tabIndex = on ? 0 : -1;
    show($('panel-' + n), on);
  }
  if (focus) $('tab-' + name).focus();
}

tabs.forEach((name, i) => {
  const b = $('tab-' + name);
  b.addEventListener('click', () => { selectTab(name, false); writeHash(); });
  b.addEventListener('keydown', (ev) => {
    const to = { ArrowRight: (i + 1) % tabs.length, ArrowLeft: (i + tabs.length - 1) % tabs.length, Home: 0, End: tabs.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    selectTab(tabs[to], true);
    writeHash();
  });
});

// ---- the editor ------------------------------------------------------------

function splitLines(s) { return s.split(/\r\n|\r|\n/); }

// renderEditor redraws the gutter and the backdrop: line numbers, the
// chosen group's lines, the deciding lines of the verdicts, and the lint
// findings on their lines.
function renderEditor() {
  const lines = splitLines(robotsEl.value);
  const marks = new Map();
  const mark = (n, c) => { if (!marks.has(n)) marks.set(n, new Set()); marks.get(n).add(c); };
  const notes = new Map();
  const c = last.check;
  if (c) {
    for (const n of c.group.lines) mark(n, 'ua');
    for (const n of c.group.rule_lines) mark(n, 'rule');
    for (const r of c.results) if (r.line > 0) mark(r.line, r.allowed ? 'hit-allow' : 'hit-block');
  }
  if (current > 0) mark(current, 'current');
  const cutAt = c && c.truncated ? c.parsed_lines : 0;
  if (last.lint) {
    for (const f of last.lint.findings) {
      if (f.line <= 0) continue;
      mark(f.line, 'lint-' + f.severity);
      if (!notes.has(f.line)) notes.set(f.line, f.message);
    }
  }
  const gut = document.createDocumentFragment();
  const back = document.createDocumentFragment();
  lines.forEach((text, i) => {
    const n = i + 1;
    const m = marks.get(n);
    let cls = m ? ' ' + [...m].join(' ') : '';
    if (cutAt && n > cutAt) cls += n === cutAt + 1 ? ' cut cut-start' : ' cut';
    const g = el('div', 'n' + cls, String(n));
    gut.appendChild(g);
    const l = el('div', 'l' + cls);
    l.id = 'L' + n;
    l.appendChild(el('span', 't', text));
    if (notes.has(n)) l.appendChild(el('span', 'note', '   ← ' + notes.get(n)));
    else if (cutAt && n === cutAt + 1) l.appendChild(el('span', 'note', '   ← crawlers stop reading before this line'));
    back.appendChild(l);
  });
  $('gutter').replaceChildren(gut);
  $('backdrop').replaceChildren(back);
  syncScroll();
}

function syncScroll() {
  const y = robotsEl.scrollTop, x = robotsEl.scrollLeft;
  $('gutter').style.transform = 'translateY(' + -y + 'px)';
  $('backdrop').style.transform = 'translate(' + -x + 'px,' + -y + 'px)';
}
robotsEl.addEventListener('scroll', syncScroll);

// goToLine scrolls the editor to line n and marks it as the current one.
function goToLine(n, select) {
  current = n;
  renderEditor();
  const lh = lineHeight();
  const top = (n - 1) * lh;
  if (top < robotsEl.scrollTop || top > robotsEl.scrollTop + robotsEl.clientHeight - 2 * lh) {
    robotsEl.scrollTop = Math.max(0, top - robotsEl.clientHeight / 3);
  }
  syncScroll();
  if (select) {
    const lines = splitLines(robotsEl.value);
    let start = 0;
    for (let i = 0; i < n - 1 && i < lines.length; i++) start += lines[i].length + 1;
    robotsEl.focus();
    robotsEl.setSelectionRange(start, start + (lines[n - 1] || '').length);
  }
}

// ---- checking ----------------------------------------------------------------

// urlList returns the URLs to test with their 1-based line in the list.
function urlList() {
  const out = [];
  urlsEl.value.split(/\r?\n/).forEach((s, i) => {
    s = s.trim();
    if (s !== '') out.push({ line: i + 1, url: s });
  });
  return out;
}

// stale marks the results an error made wrong, or clears the mark.
function stale(ids, on) {
  for (const id of ids) $(id).classList.toggle('stale', on);
}

let checkTimer = 0;
function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 150);
  writeHash();
}

async function runCheck() {
  const my = ++seq;
  if (inflight) inflight.abort();
  inflight = new AbortController();
  const robots = robotsToSend();
  const list = urlList();
  const body = { robots, agent: agentEl.value.trim() || '*', urls: list.map((u) => u.url), profile: profileEl.value };
  try {
    // The check resolves the engine (the crawler's own unless one is
    // picked); the file is linted under the same one.
    const check = await api('/api/check', body, inflight.signal);
    const lintBody = { robots, profile: check.engine };
    if (servedAt) lintBody.url = servedAt;
    const lint = await api('/api/lint', lintBody, inflight.signal);
    if (my !== seq) return;
    check.lines = list.map((u) => u.line);
    last = { check, lint };
    show($('check-error'), false);
    stale(['check-out', 'lint-box'], false);
  } catch (e) {
    if (isAbort(e) || my !== seq) return;
    $('check-error').textContent = e.message;
    show($('check-error'), true);
    // The verdicts, group, sitemaps, findings and matrix on screen are
    // for the previous input: say so, and take their marks off the
    // editor.
    stale(['check-out', 'lint-box', 'matrix-box'], true);
    last = { check: null, lint: null };
    current = 0;
    show($('cut-note'), false);
    renderEditor();
    return;
  }
  const firstHit = last.check.results.find((r) => r.line > 0);
  if (current === 0 || !last.check.results.some((r) => r.line === current)) current = firstHit ? firstHit.line : 0;
  renderEditor();
  renderResults();
  renderGroup();
  renderCut();
  renderLint();
  renderSitemaps();
  renderUsage();
  scheduleMatrix();
}

// renderCut says where crawlers stop reading a file over 500 KiB.
function renderCut() {
  const c = last.check;
  const box = $('cut-note');
  if (!c.truncated) { show(box, false); return; }
  const size = new TextEncoder().encode(robotsEl.value).length;
  box.textContent = 'This file is ' + kib(size) + '. Crawlers read only the first 500 KiB (RFC 9309 §2.5; Google stops there too): lines 1 to ' +
    fmtInt(c.parsed_lines) + ' (' + fmtInt(c.parsed_bytes) + ' bytes). Everything from line ' + fmtInt(c.parsed_lines + 1) + ' on is ignored, and shown struck through.' +
    (robotsEl.value.length > maxSend ? ' (Only the first ' + fmtInt(maxSend) + ' characters were sent for checking.)' : '');
  show(box, true);
}

function renderResults() {
  const tb = $('results-body');
  const rows = document.createDocumentFragment();
  const c = last.check;
  if (c.results.length === 0) {
    const tr = el('tr');
    const td = el('td', 'hint', 'Enter URLs or paths to see their verdicts.');
    td.colSpan = 3;
    tr.appendChild(td);
    rows.appendChild(tr);
  }
  c.results.forEach((r, i) => {
    const tr = el('tr');
    tr.dataset.index = String(i);
    tr.dataset.line = String(c.lines[i]);
    if (r.error) {
      // A bad URL is marked on its own line; the others are checked.
      tr.className = 'bad-url';
      const v = el('td');
      v.appendChild(el('span', 'badge err', 'Bad URL'));
      tr.appendChild(v);
      tr.appendChild(urlNode('url', r.url));
      tr.appendChild(el('td', 'url-error', 'line ' + c.lines[i] + ' of the URL list: ' + r.error));
      rows.appendChild(tr);
      return;
    }
    if (r.line > 0 && r.line === current) tr.className = 'selected';
    const v = el('td');
    v.appendChild(el('span', 'badge ' + (r.allowed ? 'allow' : 'block'), r.allowed ? 'Allowed' : 'Blocked'));
    tr.appendChild(v);
    tr.appendChild(urlNode('url', r.url));
    const d = el('td');
    if (r.line > 0) {
      const b = el('button', 'link', 'line ' + r.line);
      b.type = 'button';
      b.setAttribute('aria-label', 'Show line ' + r.line + ' in the editor');
      b.addEventListener('click', () => { goToLine(r.line, false); renderResults(); });
      d.appendChild(b);
      d.appendChild(document.createTextNode(' '));
      d.appendChild(el('code', 'rule', r.rule));
    } else {
      d.appendChild(el('span', 'hint', 'no rule matched'));
    }
    if (r.reason && r.reason !== 'longest matching rule' && r.reason !== 'no rule matched') {
      d.appendChild(el('div', 'hint', r.reason));
    }
    tr.appendChild(d);
    rows.appendChild(tr);
  });
  tb.replaceChildren(rows);
}

// ---- usage preferences -------------------------------------------------------

// The usage categories of package usage (draft-ietf-aipref-vocab-08), in
// its order: the label statements name, the verdict's JSON field, and the
// vocabulary's title.
const usageCategories = [
  { label: 'train-ai', field: 'train_ai', title: 'AI training' },
  { label: 'ai-use', field: 'ai_use', title: 'AI use', hint: 'input to AI answers' },
  { label: 'search', field: 'search', title: 'Search' },
];
const prefWords = { allowed: 'Allowed', disallowed: 'Disallowed', unknown: 'No preference' };
const prefBadge = { allowed: 'allow', disallowed: 'block', unknown: 'none' };
const prefSays = { allowed: 'allows', disallowed: 'disallows', unknown: 'states no preference' };

// usageRole says what a statement did in its verdict, from the verdict's
// own fields: outweighed (set by the server's combining), scoped to part
// of the page, no preference, or else it decided its category.
function usageRole(e) {
  if (e.outweighed) return ['outweighed', 'outweighed'];
  if (e.scope) return ['scoped', 'for ' + e.scope + ' only'];
  if (e.pref === 'unknown') return ['none', 'no preference'];
  return ['decides', 'decides'];
}

// usageTable draws one usage verdict: a row per category with its
// preference and every statement about it, the deciding ones first, then
// those a more restrictive statement outweighed and those that count for
// nothing. goTo, when given, makes robots.txt lines buttons to the editor.
function usageTable(v, caption, goTo) {
  const t = el('table', 'usage');
  t.appendChild(el('caption', 'sr', caption));
  const hr = el('tr');
  for (const h of ['Purpose', 'Preference', 'Statements (the most restrictive wins)']) hr.appendChild(Object.assign(el('th', '', h), { scope: 'col' }));
  const thead = el('thead');
  thead.appendChild(hr);
  t.appendChild(thead);
  const tb = el('tbody');
  const order = { decides: 0, outweighed: 1, scoped: 2, none: 3 };
  for (const c of usageCategories) {
    const pref = v[c.field];
    const tr = el('tr');
    tr.dataset.category = c.label;
    tr.dataset.pref = pref;
    const th = el('th');
    th.scope = 'row';
    th.appendChild(document.createTextNode(c.title + ' '));
    th.appendChild(el('code', '', c.label));
    if (c.hint) th.appendChild(el('span', 'from', c.hint));
    tr.appendChild(th);
    const p = el('td');
    p.appendChild(el('span', 'badge ' + prefBadge[pref], prefWords[pref]));
    tr.appendChild(p);
    const st = el('td');
    const es = v.evidence.filter((e) => e.category === c.label)
      .sort((a, b) => order[usageRole(a)[0]] - order[usageRole(b)[0]]);
    if (es.length === 0) st.appendChild(el('span', 'hint', 'no statement'));
    const ul = el('ul', 'usage-evidence');
    for (const e of es) {
      const [role, roleText] = usageRole(e);
      const li = el('li', role);
      li.dataset.carrier = e.carrier;
      li.dataset.role = role;
      li.dataset.pref = e.pref;
      if (e.line) li.dataset.line = String(e.line);
      li.appendChild(el('span', 'role ' + role, roleText));
      li.appendChild(document.createTextNode(' '));
      // The carrier, and where it is unless that names it already
      // ("Content-Usage header (line 2)").
      const where = e.where || (e.line ? 'line ' + e.line : '');
      const robotsLine = e.carrier.startsWith('robots.txt') && e.line > 0;
      if (where.startsWith(e.carrier)) {
        li.appendChild(el('strong', '', where));
      } else {
        li.appendChild(el('strong', '', e.carrier));
        if (goTo && robotsLine) {
          li.appendChild(document.createTextNode(' · '));
          const b = el('button', 'link', 'line ' + e.line);
          b.type = 'button';
          b.setAttribute('aria-label', 'Show line ' + e.line + ' in the editor');
          b.addEventListener('click', () => goTo(e.line));
          li.appendChild(b);
        } else if (where) {
          li.appendChild(document.createTextNode(' · ' + where));
        }
      }
      li.appendChild(document.createTextNode(' ' + prefSays[e.pref]));
      li.appendChild(el('code', '', e.value));
      ul.appendChild(li);
    }
    if (es.length) st.appendChild(ul);
    tr.appendChild(st);
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  const wrap = el('div', 'table-wrap');
  wrap.appendChild(t);
  return wrap;
}

// usageShort sums a verdict up in the syntax of a Content-Usage line
// (train-ai=n search=y), leaving out categories with no preference.
function usageShort(v) {
  const parts = usageCategories.filter((c) => v[c.field] !== 'unknown').map((c) => c.label + '=' + (v[c.field] === 'allowed' ? 'y' : 'n'));
  return parts.length ? parts.join(' ') : 'no preference';
}
function usageLong(v) {
  return usageCategories.map((c) => c.title + ': ' + prefWords[v[c.field]].toLowerCase()).join('; ');
}

// renderUsage shows the usage verdict of each URL the check answered:
// robots.txt's Content-Usage and Content-Signal statements for it.
function renderUsage() {
  const c = last.check;
  const box = $('usage-out');
  const frag = document.createDocumentFragment();
  const checked = c.results.map((r, i) => [r, i]).filter(([r]) => !r.error);
  if (checked.length && !checked.some(([r]) => r.usage)) {
    frag.appendChild(el('p', 'hint', 'No Content-Usage or Content-Signal line in this file: it states no usage preference.'));
  }
  for (const [r, i] of checked) {
    if (!r.usage) continue;
    const sec = el('section', 'usage-url');
    sec.dataset.index = String(i);
    const h = el('h3');
    h.appendChild(el('span', 'url', r.url));
    h.appendChild(el('span', 'hint', ' · ' + usageShort(r.usage)));
    sec.appendChild(h);
    if (!r.allowed) sec.appendChild(el('p', 'hint', 'robots.txt blocks this URL: Content-Usage lines apply only where crawling is allowed, so none is read for it.'));
    sec.appendChild(usageTable(r.usage, 'Usage preferences for ' + r.url, (n) => { goToLine(n, false); renderResults(); }));
    frag.appendChild(sec);
  }
  box.replaceChildren(frag);
}

function lineList(ns) {
  if (ns.length === 1) return 'line ' + ns[0];
  return 'lines ' + ns.slice(0, -1).join(', ') + ' and ' + ns[ns.length - 1];
}

function renderGroup() {
  const c = last.check;
  const g = c.group;
  const who = c.tokens[0] || c.agent;
  const box = $('group');
  box.replaceChildren();
  const p = el('p');
  p.id = 'group-text';
  let text = g.agent
    ? who + ' obeys the group for “' + g.agent + '” (user-agent on ' + lineList(g.lines) + '): ' + g.why
    : who + ' obeys no group: ' + g.why + '; every URL is allowed';
  if (g.lines.length > 1) text += '; groups naming the same crawler are merged (RFC 9309 §2.2.1)';
  p.textContent = text + '. ' + (g.rule_lines.length ? g.rule_lines.length + ' rule' + (g.rule_lines.length > 1 ? 's' : '') + ' in force.' : 'It has no rules.');
  box.appendChild(p);
  if (c.did_you_mean && c.did_you_mean.length) {
    // An unknown name close to known ones: answered as the file names
    // it, and one click away from what was probably meant.
    const dym = didYouMean(who, c.did_you_mean, (name) => { agentEl.value = name; scheduleCheck(); },
      'It is answered as the file names it, with no registry fallback or * group exception.');
    dym.id = 'did-you-mean';
    box.appendChild(dym);
  }
  const notes = el('ul', 'notes');
  notes.id = 'agent-notes';
  for (const n of c.notes) if (!isNoteOfName(n)) notes.appendChild(el('li', '', n));
  notes.appendChild(el('li', 'hint', 'Rules of the ' + c.engine + ' engine.'));
  box.appendChild(notes);
  if (c.delay) {
    box.appendChild(el('p', 'hint', who + ' waits ' + c.delay.seconds + ' s between requests: ' + c.delay.from + '.'));
  } else if (c.crawl_delay) {
    box.appendChild(el('p', 'hint', 'Crawl-delay ' + c.crawl_delay.seconds + ' s (line ' + c.crawl_delay.line + '): not read under ' + c.engine + ' rules (Bing and Yandex read it).'));
  }
}

const sevOrder = { error: 0, warning: 1, info: 2 };
const plural = (n, word) => fmtInt(n) + ' ' + word + (n === 1 ? '' : 's');

// renderLint lists the findings grouped by code, with counts, showing the
// severities ticked above the list (errors and warnings by default).
function renderLint() {
  const fs = last.lint.findings;
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of fs) counts[f.severity] = (counts[f.severity] || 0) + 1;
  for (const sev of Object.keys(counts)) $('count-' + sev).textContent = fmtInt(counts[sev]);
  const shown = new Set([...document.querySelectorAll('#lint-box input[data-sev]')].filter((i) => i.checked).map((i) => i.dataset.sev));
  const hidden = fs.filter((f) => !shown.has(f.severity)).length;
  $('lint-summary').textContent = fs.length === 0
    ? 'none in ' + plural(last.lint.lines, 'line') + '.'
    : plural(counts.error, 'error') + ', ' + plural(counts.warning, 'warning') + ', ' + plural(counts.info, 'info') +
      (hidden ? ' (' + fmtInt(hidden) + ' hidden by the filter)' : '');
  const groups = new Map();
  for (const f of fs) {
    if (!shown.has(f.severity)) continue;
    if (!groups.has(f.code)) groups.set(f.code, []);
    groups.get(f.code).push(f);
  }
  const sorted = [...groups.values()].sort((a, b) => sevOrder[a[0].severity] - sevOrder[b[0].severity] || b.length - a.length);
  const frag = document.createDocumentFragment();
  for (const g of sorted) {
    const f0 = g[0];
    const det = el('details', 'lint-group');
    det.dataset.code = f0.code;
    det.dataset.severity = f0.severity;
    det.dataset.count = String(g.length);
    det.open = g.length <= 3 || sorted.length === 1;
    const sum = el('summary');
    sum.appendChild(el('span', 'sev ' + f0.severity, f0.severity));
    sum.appendChild(el('code', '', f0.code));
    sum.appendChild(document.createTextNode(' '));
    sum.appendChild(el('span', 'count', '×' + fmtInt(g.length)));
    sum.appendChild(document.createTextNode(' ' + f0.message));
    det.appendChild(sum);
    const ul = el('ul');
    for (const f of g.slice(0, 500)) {
      const li = el('li');
      if (f.line > 0) {
        const b = el('button', 'link', 'line ' + f.line);
        b.type = 'button';
        b.addEventListener('click', () => goToLine(f.line, true));
        li.appendChild(b);
        li.appendChild(document.createTextNode(': '));
      }
      li.appendChild(document.createTextNode(f.message + (f.hint ? ' — ' + f.hint : '')));
      ul.appendChild(li);
    }
    if (g.length > 500) ul.appendChild(el('li', 'hint', '… and ' + fmtInt(g.length - 500) + ' more'));
    det.appendChild(ul);
    frag.appendChild(det);
  }
  if (fs.length > 0 && sorted.length === 0) frag.appendChild(el('p', 'hint', 'Every finding is hidden by the filter above.'));
  $('lint-list').replaceChildren(frag);
}
for (const i of document.querySelectorAll('#lint-box input[data-sev]')) i.addEventListener('change', () => { if (last.lint) renderLint(); });

function renderSitemaps() {
  const ul = $('sitemaps');
  const items = document.createDocumentFragment();
  const sm = last.check.sitemaps;
  if (sm.length === 0) items.appendChild(el('li', 'hint', 'No Sitemap lines.'));
  for (const s of sm) {
    const li = el('li');
    const b = el('button', 'link', 'line ' + s.line);
    b.type = 'button';
    b.addEventListener('click', () => goToLine(s.line, true));
    li.appendChild(b);
    li.appendChild(document.createTextNode(' '));
    if (/^https?:\/\//i.test(s.url)) {
      const a = el('a', '', s.url);
      a.href = s.url;
      a.rel = 'noopener noreferrer';
      a.target = '_blank';
      li.appendChild(a);
    } else {
      li.appendChild(el('span', '', s.url));
      li.appendChild(el('span', 'hint', ' (not an absolute URL)'));
    }
    items.appendChild(li);
  }
  ul.replaceChildren(items);
}

for (const e of [robotsEl, urlsEl, agentEl]) e.addEventListener('input', scheduleCheck);
profileEl.addEventListener('change', scheduleCheck);
robotsEl.addEventListener('input', () => renderEditor());

// ---- the matrix: crawlers × URLs ------------------------------------------------

let crawlerList = [];
let matrixSeq = 0;
let matrixTimer = 0;
const maxMatrix = 40;

function matrixAgents() { return agentNames($('matrix-agents')); }

function scheduleMatrix() {
  clearTimeout(matrixTimer);
  matrixTimer = setTimeout(runMatrix, 100);
}

// runMatrix checks every URL for every crawler (one /api/check each, in
// parallel) and draws one table: URLs down, crawlers across.
async function runMatrix() {
  const my = ++matrixSeq;
  const agents = matrixAgents().slice(0, maxMatrix);
  const list = urlList();
  const table = $('matrix');
  if (agents.length === 0 || list.length === 0) {
    table.replaceChildren(el('caption', 'hint', agents.length === 0 ? 'Add crawlers to see the table.' : 'Enter URLs above to see the table.'));
    show($('matrix-error'), false);
    stale(['matrix-box'], false);
    return;
  }
  const robots = robotsToSend();
  let answers;
  try {
    answers = await Promise.all(agents.map((agent) => api('/api/check', { robots, agent, urls: list.map((u) => u.url), profile: profileEl.value })));
  } catch (e) {
    if (my !== matrixSeq) return;
    $('matrix-error').textContent = e.message;
    show($('matrix-error'), true);
    stale(['matrix-box'], true);
    return;
  }
  if (my !== matrixSeq) return;
  show($('matrix-error'), false);
  stale(['matrix-box'], false);
  const frag = document.createDocumentFragment();
  frag.appendChild(el('caption', 'sr', 'Verdict per crawler and URL'));
  const head = el('tr');
  head.appendChild(Object.assign(el('th', 'url', 'URL'), { scope: 'col' }));
  answers.forEach((a, j) => {
    const th = el('th', '', a.tokens[0] || agents[j]);
    th.scope = 'col';
    th.title = agents[j] + ' · ' + a.engine + ' rules';
    th.dataset.agent = agents[j];
    if (a.did_you_mean && a.did_you_mean.length) {
      // A misspelt name is answered as the file names it: say so where
      // its column is read.
      th.classList.add('unknown');
      th.appendChild(el('span', 'cell-line', 'did you mean ' + a.did_you_mean.join(', ') + '?'));
    }
    head.appendChild(th);
  });
  const thead = el('thead');
  thead.appendChild(head);
  frag.appendChild(thead);
  const tb = el('tbody');
  list.forEach((u, i) => {
    const tr = el('tr');
    tr.dataset.line = String(u.line);
    const th = urlNode('url', u.url);
    tr.appendChild(th);
    answers.forEach((a, j) => {
      const r = a.results[i];
      const td = el('td');
      td.dataset.agent = agents[j];
      if (r.error) {
        td.appendChild(el('span', 'badge err', 'Bad URL'));
        td.appendChild(el('span', 'cell-line', 'URL line ' + u.line));
      } else {
        td.appendChild(el('span', 'badge ' + (r.allowed ? 'allow' : 'block'), r.allowed ? 'Allowed' : 'Blocked'));
        td.appendChild(el('span', 'cell-line', r.line > 0 ? 'line ' + r.line : 'no rule'));
        td.title = r.line > 0 ? r.rule : r.reason;
        if (r.usage) {
          const u = el('span', 'cell-line cell-usage', 'usage ' + usageShort(r.usage));
          u.dataset.usage = usageShort(r.usage);
          u.title = usageLong(r.usage);
          td.appendChild(u);
        }
      }
      tr.appendChild(td);
    });
    tb.appendChild(tr);
  });
  frag.appendChild(tb);
  table.replaceChildren(frag);
}

// agentNames splits a comma-separated crawler list, each name once.
function agentNames(input) {
  const seen = new Set();
  return input.value.split(',').map((s) => s.trim()).filter((s) => s && !seen.has(s.toLowerCase()) && seen.add(s.toLowerCase()));
}

// renderPurposes offers the registry's crawlers by purpose, for the
// matrix and the Site tab: each chip adds a purpose's crawlers to a list.
function renderPurposes() {
  const by = new Map();
  for (const c of crawlerList) {
    if (!by.has(c.purpose)) by.set(c.purpose, []);
    by.get(c.purpose).push(c.name);
  }
  const order = ['search', 'ai-training', 'ai-search', 'ai', 'user-fetch', 'ads', 'archive', 'seo', 'preview'];
  const purposes = [...by.keys()].sort((a, b) => ((order.indexOf(a) + 1) || 99) - ((order.indexOf(b) + 1) || 99) || a.localeCompare(b));
  for (const [box, input, changed] of [['matrix-purposes', 'matrix-agents', scheduleMatrix], ['site-purposes', 'site-agents', () => {}]]) {
    const frag = document.createDocumentFragment();
    for (const p of purposes) {
      const b = el('button', 'secondary', '+ ' + p + ' (' + by.get(p).length + ')');
      b.type = 'button';
      b.dataset.purpose = p;
      b.title = by.get(p).join(', ');
      b.addEventListener('click', () => {
        const have = agentNames($(input));
        const lower = new Set(have.map((a) => a.toLowerCase()));
        for (const n of by.get(p)) if (!lower.has(n.toLowerCase())) have.push(n);
        $(input).value = have.join(', ');
        writeHash();
        changed();
      });
      frag.appendChild(b);
    }
    $(box).replaceChildren(frag);
  }
}

$('matrix-agents').addEventListener('input', () => { writeHash(); scheduleMatrix(); });
$('matrix-clear').addEventListener('click', () => { $('matrix-agents').value = ''; writeHash(); scheduleMatrix(); });

// ---- downloading the edited file -------------------------------------------------

$('download').addEventListener('click', () => {
  const a = el('a');
  a.href = URL.createObjectURL(new Blob([robotsEl.value], { type: 'text/plain;charset=utf-8' }));
  a.download = 'robots.txt';
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
});

// ---- fetching a robots.txt ---------------------------------------------------

function kib(n) {
  if (n < 1024) return n + ' bytes';
  if (n < 1 << 20) return (n / 1024).toFixed(1) + ' KiB';
  return (n / (1 << 20)).toFixed(2) + ' MiB';
}

// loadEditor puts a fetched text in the editor. When it replaces text of
// the user's, an Undo button in box puts that text back (a textarea's own
// undo does not cover a value set by script).
function loadEditor(text, from, box) {
  const before = { text: robotsEl.value, servedAt };
  robotsEl.value = text;
  servedAt = from;
  current = 0;
  renderEditor();
  scheduleCheck();
  const old = $('fetch-undo');
  if (old) old.remove();
  if (before.text.trim() === '' || before.text === text) return;
  const undo = el('button', 'secondary', 'Undo: put back the text the fetch replaced');
  undo.type = 'button';
  undo.id = 'fetch-undo';
  undo.addEventListener('click', () => {
    robotsEl.value = before.text;
    servedAt = before.servedAt;
    current = 0;
    undo.remove();
    box.appendChild(Object.assign(el('p', 'hint', 'Your text is back in the editor.'), { id: 'fetch-undone' }));
    renderEditor();
    scheduleCheck();
  });
  box.appendChild(undo);
}

$('fetch-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const box = $('fetch-outcome');
  const url = $('fetch-url').value.trim();
  if (!url) { $('fetch-url').focus(); return; }
  $('fetch-go').disabled = true;
  box.className = 'outcome';
  delete box.dataset.verdict;
  box.textContent = 'Fetching…';
  show(box, true);
  try {
    const d = await api('/api/fetch', { url });
    const o = d.outcome;
    const redirects = o.redirects || [];
    box.replaceChildren();
    // Styled by what the fetch means for crawlers: rules apply (2xx),
    // no restrictions (4xx), or everything disallowed (5xx, 429,
    // unreachable).
    const meaning = { 'use-rules': ['ok', 'The rules in the file apply'], 'allow-all': ['allow', 'No restrictions: everything is allowed'], 'disallow-all': ['bad', 'Everything is disallowed'] }[o.verdict] || ['bad', o.verdict];
    box.className = 'outcome ' + meaning[0];
    box.dataset.verdict = o.verdict;
    box.dataset.case = o.case;
    box.appendChild(el('p', 'verdict', meaning[1]));
    const head = el('p');
    head.appendChild(el('strong', '', o.status ? 'HTTP ' + o.status : 'No response'));
    head.appendChild(document.createTextNode(' from ' + o.url + ' · ' + kib(o.bytes) + ' · ' +
      (o.cached ? 'cached (' + o.source + ')' : Math.round(o.duration_ms) + ' ms')));
    box.appendChild(head);
    if (redirects.length) {
      box.appendChild(el('p', 'hint', redirects.length + ' redirect' + (redirects.length > 1 ? 's' : '') + ':'));
      const ol = el('ol');
      for (const r of redirects) ol.appendChild(el('li', '', r));
      box.appendChild(ol);
    }
    box.appendChild(el('p', '', o.explain));
    if (o.error) box.appendChild(el('p', 'hint', o.error));
    for (const w of o.warnings || []) box.appendChild(el('p', 'hint', 'warning: ' + w));
    if (o.verdict === 'use-rules') {
      // A file was served: it goes into the editor, and the text it
      // replaces is one click away.
      if (!urlsEl.value.trim()) urlsEl.value = new URL(o.url).origin + '/';
      loadEditor(d.robots, o.final_url || o.url, box);
    } else {
      // No file: the site is read as allowing or disallowing everything.
      // That is the fetch's verdict, shown here; the editor keeps the
      // text being worked on, unless asked to take the equivalent file.
      const kept = el('p', 'kept');
      kept.id = 'fetch-kept';
      kept.textContent = 'No robots.txt was read, so the editor keeps your text: the verdicts below are for it, not for ' + o.url + '. ' +
        (o.verdict === 'disallow-all'
          ? 'Crawlers read this site as if its robots.txt said “User-agent: * / Disallow: /”, and retry later.'
          : 'Crawlers read this site as if it had an empty robots.txt.');
      box.appendChild(kept);
      const load = el('button', 'secondary', 'Put the equivalent robots.txt in the editor');
      load.type = 'button';
      load.id = 'fetch-load';
      load.addEventListener('click', () => { load.remove(); loadEditor(d.robots, servedAt, box); });
      box.appendChild(load);
    }
  } catch (e) {
    box.className = 'outcome bad';
    box.dataset.verdict = 'error';
    box.replaceChildren(el('p', 'verdict', 'Not fetched'), el('p', '', e.message),
      el('p', 'hint', 'The editor still holds the text from before; its results below are for that text, not for ' + url + '.'));
  } finally {
    $('fetch-go').disabled = !info.fetch;
  }
});

// ---- sharing -----------------------------------------------------------------

$('share').addEventListener('click', async () => {
  writeHashNow();
  try {
    await navigator.clipboard.writeText(location.href);
    $('share-note').textContent = robotsEl.value.length > maxHashRobots
      ? 'Link copied, without the file: it is too large for a link (download it instead).'
      : 'Link copied.';
  } catch (e) {
    $('share-note').textContent = 'Copy the address bar: it holds this result.';
  }
});

// ---- page tab ------------------------------------------------------------------

const pageFields = [
  ['index', 'index'], ['follow', 'follow'], ['snippet', 'snippet'], ['archive', 'archive'],
  ['max_snippet', 'max-snippet'], ['max_image_preview', 'max-image-preview'], ['max_video_preview', 'max-video-preview'],
  ['translate', 'translate'], ['imageindex', 'imageindex'], ['unavailable_after', 'unavailable_after'],
  ['indexifembedded', 'indexifembedded'], ['noai', 'AI use (noai)'], ['noimageai', 'image AI (noimageai)'],
  ['tdm_reservation', 'tdm-reservation'], ['ai_train', 'Content-Usage train-ai'],
];

function fmtValue(field, v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') {
    if (field === 'noai' || field === 'noimageai') return v ? 'refused' : 'allowed';
    if (field === 'indexifembedded') return v ? 'yes' : '—';
    return v ? 'yes' : 'no';
  }
  if (field === 'max_snippet' || field === 'max_video_preview') return v < 0 ? 'no limit' : String(v);
  if (field === 'tdm_reservation') return v === 1 ? 'reserved' : 'not reserved';
  return String(v);
}

$('page-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  writeHash();
  const out = $('page-out');
  const body = {};
  const url = $('page-url').value.trim();
  const headers = $('page-headers').value;
  const html = $('page-html').value;
  // A URL to fetch must be absolute; beside a pasted response it only
  // names the page, and the server says what it makes of it.
  const bad = headers.trim() || html.trim() ? null : pageURLProblem(url);
  if (bad) {
    // Said here, in words, rather than as the URL parser's error.
    out.replaceChildren();
    $('page-error').replaceChildren(document.createTextNode(bad.text));
    if (bad.fix) {
      const b = el('button', 'link', 'Check ' + bad.fix + ' instead');
      b.type = 'button';
      b.id = 'page-url-fix';
      b.addEventListener('click', () => { $('page-url').value = bad.fix; $('page-form').requestSubmit(); });
      $('page-error').appendChild(document.createTextNode(' '));
      $('page-error').appendChild(b);
    }
    show($('page-error'), true);
    return;
  }
  if (url) body.url = url;
  if (headers.trim()) body.headers = headers;
  if (html.trim()) body.html = html;
  const agents = $('page-agents').value.split(',').map((s) => s.trim()).filter((s) => s);
  if (agents.length) body.agents = agents;
  if (profileEl.value) body.profile = profileEl.value;
  if ($('page-use-robots').checked) body.robots = robotsEl.value;
  show($('page-error'), false);
  $('page-go').disabled = true;
  out.replaceChildren(el('p', 'hint', 'Checking…'));
  try {
    renderPage(await api('/api/page', body));
  } catch (e) {
    out.replaceChildren();
    $('page-error').textContent = e.message;
    show($('page-error'), true);
  } finally {
    $('page-go').disabled = false;
  }
});

// pageURLProblem says what is wrong with the Page tab's URL, or null: it
// must be absolute http(s), as a crawler requests it. A URL without a
// scheme ("example.com/page") gets the https:// one it most likely meant.
function pageURLProblem(url) {
  if (!url) return null;
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  if (!m || /^[^/:]+:\d/.test(url)) { // none, or host:port
    const fix = 'https://' + url.replace(/^\/+/, '');
    return { text: '“' + url + '” has no scheme: give the page\'s absolute URL, starting with https:// or http://.', fix: url.startsWith('/') ? '' : fix };
  }
  if (!/^https?$/i.test(m[1])) return { text: '“' + url + '”: the scheme ' + m[1] + ': is not http or https; robots rules govern web pages only.' };
  if (!/^https?:\/\/[^/?#]/i.test(url)) return { text: '“' + url + '” has no host: give the page\'s absolute URL, e.g. https://example.com/article.' };
  return null;
}

// summaryLine says in one line whether a crawler may index the page, and
// why: robots.txt first (a blocked page is never fetched), then noindex,
// then what else the page restricts. A crawler that keeps no index (AI
// training, ads, a control token: the server's meaning) is told what
// robots.txt's answer means for it instead, as a fact, not a problem.
function summaryLine(c) {
  const li = el('li');
  li.dataset.agent = c.agent;
  li.dataset.kind = c.kind;
  if (c.meaning) {
    li.className = 'fact';
    const by = c.robots ? (c.robots.line ? 'robots.txt line ' + c.robots.line + ': ' + c.robots.rule : c.robots.reason) : 'robots.txt not checked';
    li.appendChild(el('strong', '', c.agent + ': ' + c.meaning));
    li.appendChild(el('span', 'why', ' — ' + by + '.'));
    return li;
  }
  const vals = new Map(c.values.map((v) => [v.field, v]));
  const idx = vals.get('index') || {};
  let ok = true;
  let why;
  if (c.robots && !c.robots.allowed) {
    ok = false;
    why = 'robots.txt blocks it' + (c.robots.line ? ' (line ' + c.robots.line + ': ' + c.robots.rule + ')' : ' (' + c.robots.reason + ')') +
      ', so it never reads the page; the URL alone may still be listed from links';
  } else if (idx.value === false) {
    ok = false;
    why = (idx.rule || 'noindex') + (idx.source ? ' (' + idx.source + ')' : '');
  } else {
    const parts = [c.robots ? 'robots.txt allows it' + (c.robots.line ? ' (line ' + c.robots.line + ')' : '') : 'robots.txt not checked', 'no noindex'];
    const limits = c.values.filter((v) => v.source && v.field !== 'index').map((v) => (v.rule || v.field) + ' (' + v.source + ')');
    if (limits.length) parts.push('but ' + limits.join(', '));
    why = parts.join(', ');
  }
  li.className = ok ? 'yes' : 'no';
  li.dataset.indexable = String(ok);
  li.appendChild(el('strong', '', (ok ? '✓ ' : '✗ ') + c.agent + ': ' + (ok ? 'indexable' : 'not indexable')));
  li.appendChild(el('span', 'why', ' — ' + why + '.'));
  return li;
}

function renderPage(d) {
  const out = $('page-out');
  const frag = document.createDocumentFragment();
  if (d.fetch) {
    const f = d.fetch;
    const p = el('div', 'outcome');
    p.appendChild(el('strong', '', 'HTTP ' + f.status));
    p.appendChild(document.createTextNode(' · ' + (f.content_type || 'no Content-Type') + ' · ' + kib(f.bytes) + ' read · ' + Math.round(f.duration_ms) + ' ms'));
    if (f.redirects.length) p.appendChild(el('div', 'hint', 'Redirected to ' + f.redirects.join(' → ')));
    frag.appendChild(p);
  }
  // Names the registry does not know, one click from what was meant.
  const unknown = d.crawlers.filter((c) => c.did_you_mean && c.did_you_mean.length);
  if (unknown.length) {
    const box = el('div');
    box.id = 'page-did-you-mean';
    for (const c of unknown) {
      box.appendChild(didYouMean(c.agent, c.did_you_mean, (name) => { replaceName($('page-agents'), c.agent, name); $('page-form').requestSubmit(); },
        'It is checked as the page and robots.txt name it.'));
    }
    frag.appendChild(box);
  }
  // The warning is for indexers: a crawler that keeps no index (an AI
  // training crawler blocked on purpose) loses nothing by it.
  const blocked = d.crawlers.filter((c) => c.blocked && !c.meaning);
  if (blocked.length) {
    const w = el('div', 'banner-warn');
    w.id = 'page-blocked';
    w.textContent = 'robots.txt blocks this page for ' + blocked.map((c) => c.agent).join(', ') +
      ': they never fetch it, so they never see the directives below. A blocked URL can still be indexed from links, without its content; to keep it out of results, allow crawling and use noindex.';
    frag.appendChild(w);
  }
  if (d.robots.source === 'none' && d.robots.note) frag.appendChild(el('p', 'hint', d.robots.note));
  if (d.robots.source === 'fetched' && d.robots.outcome) {
    const o = d.robots.outcome;
    frag.appendChild(el('p', 'hint', 'robots.txt: ' + o.url + ' — ' + (o.status ? 'HTTP ' + o.status : 'no response') + ', ' + o.verdict));
  }
  if (d.robots.source === 'pasted') frag.appendChild(el('p', 'hint', 'robots.txt: the text of the robots.txt tab.'));

  // One line per crawler first: indexable or not, and why.
  frag.appendChild(el('h2', '', 'Indexable?'));
  const sumList = el('ul', 'page-summary');
  sumList.id = 'page-summary';
  for (const c of d.crawlers) sumList.appendChild(summaryLine(c));
  frag.appendChild(sumList);

  // Then every directive: directives down, crawlers across.
  frag.appendChild(el('h2', '', 'Every directive, per crawler'));
  const wrap = el('div', 'table-wrap');
  const t = el('table', 'page-table');
  t.id = 'page-table';
  t.appendChild(el('caption', 'sr', 'Effective directives per crawler'));
  const hr = el('tr');
  hr.appendChild(Object.assign(el('th', '', 'Directive'), { scope: 'col' }));
  for (const c of d.crawlers) {
    const th = el('th', c.blocked ? 'blocked' : '');
    th.scope = 'col';
    th.dataset.agent = c.agent;
    th.appendChild(el('strong', '', c.agent));
    th.appendChild(el('span', 'from', c.engine + ' rules'));
    for (const n of c.notes || []) if (!isNoteOfName(n)) th.appendChild(el('span', 'from note', n));
    // Sources this crawler's engine does not read at all (a Robots-Tag
    // member under google rules); the server's note says why.
    for (const n of c.not_read || []) {
      const s = el('span', 'from note not-read', n.where + ': not read');
      s.title = n.note;
      th.appendChild(s);
    }
    hr.appendChild(th);
  }
  const th = el('thead');
  th.appendChild(hr);
  t.appendChild(th);
  const tb = el('tbody');
  const robotsRow = el('tr');
  robotsRow.appendChild(Object.assign(el('th', '', 'robots.txt'), { scope: 'row' }));
  for (const c of d.crawlers) {
    const rb = el('td', c.blocked ? 'blocked' : '');
    rb.dataset.agent = c.agent;
    rb.dataset.field = 'robots';
    if (c.robots) {
      rb.appendChild(el('span', 'badge ' + (c.robots.allowed ? 'allow' : 'block'), c.robots.allowed ? 'Allowed' : 'Blocked'));
      if (c.robots.line) rb.appendChild(el('span', 'from', 'line ' + c.robots.line + ': ' + c.robots.rule));
      else if (c.robots.via === 'fetch') rb.appendChild(el('span', 'from', c.robots.reason));
    } else {
      rb.appendChild(el('span', 'hint', 'not checked'));
    }
    robotsRow.appendChild(rb);
  }
  tb.appendChild(robotsRow);
  const byAgent = new Map(d.crawlers.map((c) => [c.agent, new Map(c.values.map((v) => [v.field, v]))]));
  for (const [field, label] of pageFields) {
    const tr = el('tr');
    tr.dataset.field = field;
    tr.appendChild(Object.assign(el('th', '', label), { scope: 'row' }));
    for (const c of d.crawlers) {
      const v = byAgent.get(c.agent).get(field) || { value: null };
      const td = el('td', c.blocked ? 'blocked' : '');
      td.dataset.agent = c.agent;
      td.dataset.field = field;
      td.appendChild(document.createTextNode(fmtValue(field, v.value)));
      if (v.source) {
        td.classList.add('set');
        if (v.value === false) td.classList.add('no');
        td.appendChild(el('span', 'from', (v.rule ? v.rule + ' · ' : '') + v.source));
      }
      tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  // The usage verdict per crawler: each category's preference and the
  // statements that decided it; the evidence in full is below.
  for (const cat of usageCategories) {
    const tr = el('tr');
    tr.dataset.field = 'usage-' + cat.label;
    tr.appendChild(Object.assign(el('th', '', 'usage: ' + cat.title), { scope: 'row' }));
    for (const c of d.crawlers) {
      const pref = c.usage[cat.field];
      const td = el('td', c.blocked ? 'blocked' : '');
      td.dataset.agent = c.agent;
      td.dataset.field = 'usage-' + cat.label;
      td.dataset.pref = pref;
      td.appendChild(document.createTextNode(prefWords[pref].toLowerCase()));
      const by = c.usage.evidence.filter((e) => e.category === cat.label && usageRole(e)[0] === 'decides');
      if (by.length) {
        td.classList.add('set');
        if (pref === 'disallowed') td.classList.add('no');
        td.appendChild(el('span', 'from', 'by ' + by.map((e) => e.carrier).join(', ')));
      }
      const lost = c.usage.evidence.filter((e) => e.category === cat.label && e.outweighed).length;
      if (lost) td.appendChild(el('span', 'from', plural(lost, 'statement') + ' outweighed'));
      tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  wrap.appendChild(t);
  frag.appendChild(wrap);

  // The usage evidence, one table per verdict: crawlers given the same
  // verdict share one.
  frag.appendChild(el('h2', '', 'Usage preferences (AI training, AI use, search)'));
  const verdicts = new Map();
  for (const c of d.crawlers) {
    const key = JSON.stringify(c.usage);
    if (!verdicts.has(key)) verdicts.set(key, { usage: c.usage, agents: [] });
    verdicts.get(key).agents.push(c.agent);
  }
  const usageBox = el('div');
  usageBox.id = 'page-usage';
  for (const { usage, agents } of verdicts.values()) {
    const sec = el('section', 'usage-url');
    sec.dataset.agents = agents.join(',');
    const h = el('h3', '', 'For ' + agents.join(', '));
    h.appendChild(el('span', 'hint', ' · ' + usageShort(usage)));
    sec.appendChild(h);
    if (usage.evidence.length === 0) {
      sec.appendChild(el('p', 'hint', 'No carrier states a usage preference: no Content-Usage or Content-Signal line in robots.txt for this URL, no Content-Usage or tdm-reservation header, no tdm-reservation meta, no noai.'));
    } else {
      sec.appendChild(usageTable(usage, 'Usage preferences for ' + agents.join(', ')));
    }
    usageBox.appendChild(sec);
  }
  const tdm = d.tdmrep ? el('p', 'hint', d.tdmrep.url + ': ' + (d.tdmrep.note || ('HTTP ' + d.tdmrep.status + ', ' + d.tdmrep.evidence[0].where)))
    : el('p', 'hint', 'The site\'s /.well-known/tdmrep.json is read only for a fetched page.');
  tdm.id = 'page-tdmrep';
  usageBox.appendChild(tdm);
  frag.appendChild(usageBox);

  frag.appendChild(el('h2', '', 'Where the rules came from'));
  const ul = el('ul', 'plain');
  if (d.sources.length === 0) ul.appendChild(el('li', 'hint', 'No robots meta tags or X-Robots-Tag headers: the defaults apply (index, follow).'));
  for (const s of d.sources) ul.appendChild(el('li', '', s.where + ': ' + s.name + (s.value ? ' = ' + s.value : '')));
  frag.appendChild(ul);
  if (d.diagnostics.length) {
    frag.appendChild(el('h2', '', 'Findings'));
    const dl = el('ul', 'findings');
    for (const x of d.diagnostics) {
      const li = el('li');
      li.appendChild(el('span', 'sev ' + x.severity, x.severity));
      li.appendChild(document.createTextNode((x.line ? 'line ' + x.line + ': ' : '') + x.message));
      dl.appendChild(li);
    }
    frag.appendChild(dl);
  }
  out.replaceChildren(frag);
}

for (const id of ['page-url', 'page-headers', 'page-html', 'page-agents']) $(id).addEventListener('input', writeHash);
$('page-use-robots').addEventListener('change', writeHash);

// ---- site tab: a bounded crawl -------------------------------------------------

let siteRun = null; // the crawl running: its AbortController
let siteSeq = 0;
let codeDocs = null; // code -> {severity, title, doc}, from /api/crawl/codes

const stateBadge = { indexable: 'allow', blocked: 'block', noindex: 'block', 'not-ok': 'err', unknown: 'err' };

async function loadCodes() {
  if (codeDocs) return codeDocs;
  const d = await api('/api/crawl/codes');
  codeDocs = new Map(d.codes.map((c) => [c.code, c]));
  return codeDocs;
}

// readLines calls each(object) for every NDJSON line of a streamed body.
async function readLines(res, each) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.trim()) each(JSON.parse(line));
    }
    if (done) break;
  }
  if (buf.trim()) each(JSON.parse(buf));
}

function siteProgress(text, value, max) {
  show($('site-progress'), true);
  if (max !== undefined) $('site-bar').max = max;
  if (value !== undefined) $('site-bar').value = value;
  $('site-count').textContent = text;
}

function siteBusy(on) {
  $('site-go').disabled = on;
  show($('site-stop'), on);
}

$('site-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  writeHash();
  const url = $('site-url').value.trim();
  if (!url) { $('site-url').focus(); return; }
  if (siteRun) siteRun.abort();
  const my = ++siteSeq;
  const ctl = new AbortController();
  siteRun = ctl;
  const body = { url, max_pages: parseInt($('site-max').value, 10) || 0 };
  const agents = agentNames($('site-agents'));
  if (agents.length) body.agents = agents;
  show($('site-error'), false);
  siteNames([]);
  siteBusy(true);
  siteProgress('Starting…', 0);
  let begun = false;
  let st = null;
  try {
    const res = await fetch('/api/crawl', { method: 'POST', signal: ctl.signal, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) {
      let msg = 'HTTP ' + res.status;
      try { msg = (await res.json()).error || msg; } catch (e) { /* not JSON */ }
      throw new Error(msg);
    }
    loadCodes().catch(() => {});
    await readLines(res, (e) => {
      if (my !== siteSeq) return;
      switch (e.type) {
        case 'start':
          begun = true;
          siteNames(e.crawlers || []);
          st = siteStart(e);
          siteProgress('Crawling ' + e.site + ' for ' + e.agents.join(', ') + '…', 0, e.max_pages);
          break;
        case 'page':
          sitePage(st, e.page);
          break;
        case 'progress':
          siteProgress('Crawled ' + fmtInt(e.crawled) + ' of at most ' + fmtInt(st.max) + ' · ' + fmtInt(e.fetched) + ' fetched · ' +
            fmtInt(e.queued) + ' queued · ' + plural(e.findings, 'finding') + ' so far', e.crawled);
          break;
        case 'report':
          st.done = true;
          siteReport(st, e);
          siteProgress((e.timed_out ? 'Stopped at the time limit: ' : 'Done: ') + fmtInt(e.crawled) + ' URLs crawled, ' + fmtInt(e.fetched) + ' fetched in ' +
            e.duration_seconds.toFixed(1) + ' s' + (e.truncated ? '; the page limit left URLs out' : '') + '.', e.crawled, Math.max(e.crawled, 1));
          break;
        case 'error': {
          const err = new Error(e.error);
          err.unreachable = e.unreachable;
          throw err;
        }
      }
    });
    if (my === siteSeq && st && !st.done) throw new Error('the crawl ended without its report');
  } catch (e) {
    if (my !== siteSeq) return;
    if (isAbort(e)) {
      siteProgress('Stopped after ' + fmtInt($('site-bar').value) + ' URLs: findings are reported at the end of a crawl, so there are none; the pages below are those crawled.');
      if (begun) $('site-summary').textContent = 'none: the crawl was stopped.';
    } else if (e.unreachable) {
      // Nothing could be read: say why, and that it is not a site that
      // disallows anything.
      const u = e.unreachable;
      $('site-error').textContent = 'The site could not be read: ' + u.message + '. ' + (u.hint ? u.hint[0].toUpperCase() + u.hint.slice(1) + '. ' : '') +
        'Nothing was crawled: an unreachable site is not one whose robots.txt disallows anything.';
      $('site-error').dataset.cause = u.cause;
      show($('site-error'), true);
      show($('site-progress'), false);
      // The start of this crawl cleared the results before it: there is
      // nothing to show, not results out of date.
      if (begun) show($('site-out'), false);
      else stale(['site-out'], true);
    } else {
      $('site-error').textContent = (begun ? 'The crawl failed: ' : '') + e.message;
      $('site-error').dataset.cause = '';
      show($('site-error'), true);
      show($('site-progress'), false);
      stale(['site-out'], true);
    }
  } finally {
    if (my === siteSeq) {
      siteBusy(false);
      siteRun = null;
    }
  }
});

$('site-stop').addEventListener('click', () => { if (siteRun) siteRun.abort(); });
$('site-clear').addEventListener('click', () => { $('site-agents').value = ''; writeHash(); });
for (const id of ['site-url', 'site-agents', 'site-max']) $(id).addEventListener('input', writeHash);

// siteNames says which crawler names of a crawl the registry does not
// know, each one click from what was probably meant: the click puts the
// name in the list, and the next crawl is the user's to start.
function siteNames(crawlers) {
  const box = $('site-names');
  box.replaceChildren();
  for (const c of crawlers) {
    if (!c.did_you_mean || !c.did_you_mean.length) continue;
    box.appendChild(didYouMean(c.agent, c.did_you_mean, (name) => { replaceName($('site-agents'), c.agent, name); $('site-go').focus(); },
      'It is audited as the site\'s robots.txt names it, as a search crawler.'));
  }
  show(box, box.childElementCount > 0);
}

// siteStart clears the previous results and sets up the pages table for
// the crawlers of the new crawl.
function siteStart(e) {
  stale(['site-out'], false);
  show($('site-out'), true);
  $('site-summary').textContent = 'reported at the end of the crawl.';
  $('site-counts').replaceChildren(el('caption', 'sr', 'Findings by code and crawler'));
  $('site-findings').replaceChildren(el('caption', 'sr', 'Findings'));
  $('site-codes').replaceChildren();
  $('site-pages-note').textContent = '';
  const t = $('site-pages');
  const head = el('tr');
  head.appendChild(Object.assign(el('th', 'url', 'URL'), { scope: 'col' }));
  head.appendChild(Object.assign(el('th', '', 'Status'), { scope: 'col' }));
  for (const a of e.agents) head.appendChild(Object.assign(el('th', '', a), { scope: 'col' }));
  const thead = el('thead');
  thead.appendChild(head);
  const tbody = el('tbody');
  t.replaceChildren(el('caption', 'sr', 'Verdict per page and crawler'), thead, tbody);
  return { agents: e.agents, max: e.max_pages, tbody, pages: 0, done: false };
}

function sitePage(st, p) {
  st.pages++;
  const tr = el('tr');
  tr.dataset.url = p.url;
  tr.appendChild(urlNode('url', p.url));
  const status = el('td', 'status', p.status ? String(p.status) : '—');
  status.dataset.label = 'Status';
  if (p.content_type) status.appendChild(el('span', 'why', p.content_type));
  if (p.in_sitemap) status.appendChild(el('span', 'why', 'in a sitemap'));
  tr.appendChild(status);
  const by = new Map(p.verdicts.map((v) => [v.agent, v]));
  for (const a of st.agents) {
    const v = by.get(a);
    const td = el('td');
    td.dataset.agent = a;
    td.dataset.label = a;
    if (v) {
      td.dataset.state = v.state;
      td.appendChild(el('span', 'badge ' + (stateBadge[v.state] || 'err'), v.state));
      td.appendChild(el('span', 'why', v.why));
    }
    tr.appendChild(td);
  }
  st.tbody.appendChild(tr);
  $('site-pages-note').textContent = plural(st.pages, 'URL') + (st.done ? '' : ' so far');
}

const maxSiteFindings = 1000;

// siteReport draws the findings: counts by code and crawler, then the
// list, then the explanation of each code found.
function siteReport(st, r) {
  const fs = r.findings || [];
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of fs) counts[f.severity]++;
  $('site-summary').textContent = fs.length === 0 ? 'none.' : plural(counts.error, 'error') + ', ' + plural(counts.warning, 'warning') + ', ' + plural(counts.info, 'info') +
    (r.dropped_findings ? ' (' + fmtInt(r.dropped_findings) + ' more not kept)' : '');
  $('site-pages-note').textContent = plural(st.pages, 'URL');
  const codes = new Map();
  for (const f of fs) {
    if (!codes.has(f.code)) codes.set(f.code, { severity: f.severity, by: new Map() });
    const c = codes.get(f.code);
    c.by.set(f.agent, (c.by.get(f.agent) || 0) + 1);
  }
  const order = [...codes.keys()].sort((a, b) => sevOrder[codes.get(a).severity] - sevOrder[codes.get(b).severity] || a.localeCompare(b));
  const shared = fs.some((f) => !f.agent);
  const cols = [...st.agents, ...(shared ? [''] : [])];
  const codeButton = (code) => {
    const b = el('button', 'link code', code);
    b.type = 'button';
    b.dataset.code = code;
    b.setAttribute('aria-label', 'Explain ' + code);
    b.addEventListener('click', () => {
      const d = document.querySelector('#site-codes details[data-code="' + code + '"]');
      if (!d) return;
      d.open = true;
      d.scrollIntoView({ block: 'nearest' });
      d.querySelector('summary').focus();
    });
    return b;
  };
  const ct = $('site-counts');
  const fc = document.createDocumentFragment();
  fc.appendChild(el('caption', 'sr', 'Findings by code and crawler'));
  if (order.length) {
    const head = el('tr');
    head.appendChild(Object.assign(el('th', '', 'Code'), { scope: 'col' }));
    for (const a of cols) head.appendChild(Object.assign(el('th', 'num', a || 'every crawler'), { scope: 'col' }));
    const thead = el('thead');
    thead.appendChild(head);
    fc.appendChild(thead);
    const tb = el('tbody');
    for (const code of order) {
      const c = codes.get(code);
      const tr = el('tr');
      tr.dataset.code = code;
      const th = el('th');
      th.scope = 'row';
      th.appendChild(el('span', 'sev ' + c.severity, c.severity));
      th.appendChild(document.createTextNode(' '));
      th.appendChild(codeButton(code));
      tr.appendChild(th);
      for (const a of cols) {
        const n = c.by.get(a) || 0;
        const td = el('td', 'num', n ? fmtInt(n) : '·');
        td.dataset.agent = a;
        td.dataset.label = a || 'every crawler';
        tr.appendChild(td);
      }
      tb.appendChild(tr);
    }
    fc.appendChild(tb);
  }
  ct.replaceChildren(fc);

  const ft = $('site-findings');
  const ff = document.createDocumentFragment();
  ff.appendChild(el('caption', 'sr', 'Findings'));
  if (fs.length) {
    const head = el('tr');
    for (const h of ['Severity', 'Code', 'Crawler', 'URL', 'Message', 'Evidence']) head.appendChild(Object.assign(el('th', h === 'URL' ? 'url' : '', h), { scope: 'col' }));
    const thead = el('thead');
    thead.appendChild(head);
    ff.appendChild(thead);
    const tb = el('tbody');
    for (const f of fs.slice(0, maxSiteFindings)) {
      const tr = el('tr');
      tr.dataset.code = f.code;
      tr.dataset.agent = f.agent;
      tr.appendChild(el('td', 'sev ' + f.severity, f.severity));
      const c = el('td', 'code');
      c.appendChild(codeButton(f.code));
      tr.appendChild(c);
      tr.appendChild(el('td', 'agent', f.agent || 'every crawler'));
      tr.appendChild(urlNode('url', f.url));
      tr.appendChild(el('td', 'message', f.message));
      tr.appendChild(el('td', 'evidence', f.evidence));
      tb.appendChild(tr);
    }
    if (fs.length > maxSiteFindings) {
      const tr = el('tr');
      const td = el('td', 'hint', '… and ' + fmtInt(fs.length - maxSiteFindings) + ' more (rep crawl -json lists them all)');
      td.colSpan = 6;
      tr.appendChild(td);
      tb.appendChild(tr);
    }
    ff.appendChild(tb);
  }
  ft.replaceChildren(ff);
  renderCodeDocs(order);
}

async function renderCodeDocs(order) {
  const box = $('site-codes');
  if (!order.length) { box.replaceChildren(); return; }
  let docs;
  try {
    docs = await loadCodes();
  } catch (e) {
    box.replaceChildren(el('p', 'hint', 'The explanations of the codes could not be loaded: ' + e.message));
    return;
  }
  const frag = document.createDocumentFragment();
  frag.appendChild(el('h2', '', 'What the codes mean'));
  for (const code of order) {
    const c = docs.get(code);
    if (!c) continue;
    const d = el('details', 'code-doc');
    d.dataset.code = code;
    d.id = 'code-' + code;
    const sum = el('summary');
    sum.appendChild(el('span', 'sev ' + c.severity, c.severity));
    sum.appendChild(el('code', '', code));
    sum.appendChild(document.createTextNode(' ' + c.title));
    d.appendChild(sum);
    for (const para of c.doc.split(/\n\n+/)) {
      if (/^ {4}/.test(para)) d.appendChild(el('pre', '', para.replace(/^ {4}/gm, '')));
      else d.appendChild(el('p', '', para));
    }
    frag.appendChild(d);
  }
  box.replaceChildren(frag);
}

// ---- start -----------------------------------------------------------------------

window.addEventListener('hashchange', () => { restore(readHash()); });

// restore re-runs what the state in the fragment shows: the check, and a
// shared Page result.
function restore(p) {
  renderEditor();
  runCheck();
  if (p.get('tab') === 'page' && (p.get('purl') || p.get('pheaders') || p.get('phtml'))) {
    $('page-form').requestSubmit();
  }
}

async function start() {
  $('page-agents').value = 'Googlebot, Googlebot-Image, bingbot, YandexBot, Applebot, GPTBot, ClaudeBot, CCBot';
  restore(readHash());
  try {
    const [cr, inf] = await Promise.all([api('/api/crawlers'), api('/api/info')]);
    const dl = document.createDocumentFragment();
    for (const c of cr.crawlers) {
      const o = el('option');
      o.value = c.name;
      o.label = (c.operator ? c.operator + ' · ' : '') + c.purpose;
      dl.appendChild(o);
    }
    $('crawler-list').replaceChildren(dl);
    crawlerList = cr.crawlers;
    renderPurposes();
    info = inf;
  } catch (e) {
    info = { fetch: false, note: e.message };
  }
  $('fetch-go').disabled = !info.fetch;
  $('fetch-url').disabled = !info.fetch;
  if (!info.fetch) {
    const box = $('fetch-outcome');
    box.className = 'outcome bad';
    box.textContent = info.note || 'Fetching is not available on this server: paste the robots.txt.';
    show(box, true);
  }
}
start();
