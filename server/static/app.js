// rep serve: the robots.txt tester page. Plain JavaScript, no build step:
// it calls the JSON API (/api/check, /api/lint, /api/fetch, /api/page) and
// keeps its state in the URL fragment so that a result can be shared.
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
  selectTab(get('tab', 'robots'), false);
  return p;
}

let hashTimer = 0;
function writeHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(writeHashNow, 120);
}

function writeHashNow() {
  clearTimeout(hashTimer);
  const p = new URLSearchParams();
  const tab = $('tab-page').getAttribute('aria-selected') === 'true' ? 'page' : 'robots';
  if (tab !== 'robots') p.set('tab', tab);
  p.set('agent', agentEl.value);
  if (profileEl.value) p.set('profile', profileEl.value);
  if (urlsEl.value) p.set('urls', urlsEl.value);
  if (robotsEl.value) p.set('robots', robotsEl.value);
  if ($('page-url').value) p.set('purl', $('page-url').value);
  if ($('page-headers').value) p.set('pheaders', $('page-headers').value);
  if ($('page-html').value) p.set('phtml', $('page-html').value);
  if ($('page-agents').value) p.set('pagents', $('page-agents').value);
  if ($('page-use-robots').checked) p.set('probots', '1');
  history.replaceState(null, '', '#' + p.toString());
}

// ---- tabs -----------------------------------------------------------------

function selectTab(name, focus) {
  const page = name === 'page';
  $('tab-robots').setAttribute('aria-selected', String(!page));
  $('tab-page').setAttribute('aria-selected', String(page));
  $('tab-robots').tabIndex = page ? -1 : 0;
  $('tab-page').tabIndex = page ? 0 : -1;
  show($('panel-robots'), !page);
  show($('panel-page'), page);
  if (focus) $(page ? 'tab-page' : 'tab-robots').focus();
}

for (const id of ['tab-robots', 'tab-page']) {
  $(id).addEventListener('click', () => { selectTab(id === 'tab-page' ? 'page' : 'robots', false); writeHash(); });
  $(id).addEventListener('keydown', (ev) => {
    if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(ev.key)) {
      ev.preventDefault();
      const toPage = ev.key === 'End' || ((ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') && id === 'tab-robots');
      selectTab(toPage ? 'page' : 'robots', true);
      writeHash();
    }
  });
}

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
    const cls = m ? ' ' + [...m].join(' ') : '';
    const g = el('div', 'n' + cls, String(n));
    gut.appendChild(g);
    const l = el('div', 'l' + cls);
    l.id = 'L' + n;
    l.appendChild(el('span', 't', text));
    if (notes.has(n)) l.appendChild(el('span', 'note', '   ← ' + notes.get(n)));
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

function urlList() {
  return urlsEl.value.split(/\r?\n/).map((s) => s.trim()).filter((s) => s !== '');
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
  const robots = robotsEl.value;
  const body = { robots, agent: agentEl.value.trim() || '*', urls: urlList(), profile: profileEl.value };
  try {
    // The check resolves the engine (the crawler's own unless one is
    // picked); the file is linted under the same one.
    const check = await api('/api/check', body, inflight.signal);
    const lintBody = { robots, profile: check.engine };
    if (servedAt) lintBody.url = servedAt;
    const lint = await api('/api/lint', lintBody, inflight.signal);
    if (my !== seq) return;
    last = { check, lint };
    show($('check-error'), false);
  } catch (e) {
    if (isAbort(e) || my !== seq) return;
    $('check-error').textContent = e.message;
    show($('check-error'), true);
    return;
  }
  const firstHit = last.check.results.find((r) => r.line > 0);
  if (current === 0 || !last.check.results.some((r) => r.line === current)) current = firstHit ? firstHit.line : 0;
  renderEditor();
  renderResults();
  renderGroup();
  renderLint();
  renderSitemaps();
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
    if (r.line > 0 && r.line === current) tr.className = 'selected';
    const v = el('td');
    v.appendChild(el('span', 'badge ' + (r.allowed ? 'allow' : 'block'), r.allowed ? 'Allowed' : 'Blocked'));
    tr.appendChild(v);
    tr.appendChild(el('td', 'url', r.url));
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
  const notes = el('ul', 'notes');
  notes.id = 'agent-notes';
  for (const n of c.notes) notes.appendChild(el('li', '', n));
  notes.appendChild(el('li', 'hint', 'Rules of the ' + c.engine + ' engine.'));
  box.appendChild(notes);
  if (c.delay) {
    box.appendChild(el('p', 'hint', who + ' waits ' + c.delay.seconds + ' s between requests: ' + c.delay.from + '.'));
  } else if (c.crawl_delay) {
    box.appendChild(el('p', 'hint', 'Crawl-delay ' + c.crawl_delay.seconds + ' s (line ' + c.crawl_delay.line + '): not read under ' + c.engine + ' rules (Bing and Yandex read it).'));
  }
  if (c.truncated) box.appendChild(el('p', 'banner-warn', 'The file is over 500 KiB: crawlers ignore everything after the limit.'));
}

function renderLint() {
  const list = $('lint-list');
  const items = document.createDocumentFragment();
  const fs = last.lint.findings;
  $('lint-summary').textContent = fs.length === 0
    ? 'No problems found in ' + last.lint.lines + ' line' + (last.lint.lines === 1 ? '' : 's') + '.'
    : fs.length + ' finding' + (fs.length > 1 ? 's' : '') + ':';
  for (const f of fs) {
    const li = el('li');
    li.appendChild(el('span', 'sev ' + f.severity, f.severity));
    if (f.line > 0) {
      const b = el('button', 'link', 'line ' + f.line);
      b.type = 'button';
      b.addEventListener('click', () => goToLine(f.line, true));
      li.appendChild(b);
      li.appendChild(document.createTextNode(': '));
    }
    li.appendChild(document.createTextNode(f.message + (f.hint ? ' — ' + f.hint : '')));
    items.appendChild(li);
  }
  list.replaceChildren(items);
}

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

// ---- fetching a robots.txt ---------------------------------------------------

function kib(n) { return n < 1024 ? n + ' bytes' : (n / 1024).toFixed(1) + ' KiB'; }

$('fetch-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const box = $('fetch-outcome');
  const url = $('fetch-url').value.trim();
  if (!url) { $('fetch-url').focus(); return; }
  $('fetch-go').disabled = true;
  box.className = 'outcome';
  box.textContent = 'Fetching…';
  show(box, true);
  try {
    const d = await api('/api/fetch', { url });
    const o = d.outcome;
    const redirects = o.redirects || [];
    box.replaceChildren();
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
    if (o.verdict !== 'use-rules') box.className = 'outcome bad';
    robotsEl.value = d.robots;
    servedAt = o.final_url || o.url;
    if (!urlsEl.value.trim()) urlsEl.value = new URL(o.url).origin + '/';
    current = 0;
    renderEditor();
    scheduleCheck();
  } catch (e) {
    box.className = 'outcome bad';
    box.textContent = e.message;
  } finally {
    $('fetch-go').disabled = !info.fetch;
  }
});

// ---- sharing -----------------------------------------------------------------

$('share').addEventListener('click', async () => {
  writeHashNow();
  try {
    await navigator.clipboard.writeText(location.href);
    $('share-note').textContent = 'Link copied.';
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
  ['tdm_reservation', 'tdm-reservation'], ['ai_train', 'AI training'],
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
  const blocked = d.crawlers.filter((c) => c.blocked);
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

  const wrap = el('div', 'table-wrap');
  const t = el('table', 'page-table');
  t.id = 'page-table';
  const cap = el('caption', 'sr', 'Effective directives per crawler');
  t.appendChild(cap);
  const hr = el('tr');
  hr.appendChild(Object.assign(el('th', '', 'Crawler'), { scope: 'col' }));
  hr.appendChild(Object.assign(el('th', '', 'robots.txt'), { scope: 'col' }));
  for (const [, label] of pageFields) hr.appendChild(Object.assign(el('th', '', label), { scope: 'col' }));
  const th = el('thead');
  th.appendChild(hr);
  t.appendChild(th);
  const tb = el('tbody');
  for (const c of d.crawlers) {
    const tr = el('tr', c.blocked ? 'blocked' : '');
    tr.dataset.agent = c.agent;
    const name = el('td');
    name.appendChild(el('strong', '', c.agent));
    name.appendChild(el('span', 'from', c.engine + ' rules'));
    for (const n of c.notes || []) name.appendChild(el('span', 'from note', n));
    tr.appendChild(name);
    const rb = el('td');
    if (c.robots) {
      rb.appendChild(el('span', 'badge ' + (c.robots.allowed ? 'allow' : 'block'), c.robots.allowed ? 'Allowed' : 'Blocked'));
      if (c.robots.line) rb.appendChild(el('span', 'from', 'line ' + c.robots.line + ': ' + c.robots.rule));
      else if (c.robots.via === 'fetch') rb.appendChild(el('span', 'from', c.robots.reason));
    } else {
      rb.appendChild(el('span', 'hint', 'not checked'));
    }
    tr.appendChild(rb);
    const byField = new Map(c.values.map((v) => [v.field, v]));
    for (const [field] of pageFields) {
      const v = byField.get(field) || { value: null };
      const td = el('td');
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
  t.appendChild(tb);
  wrap.appendChild(t);
  frag.appendChild(wrap);

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
