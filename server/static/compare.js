// rep serve: the Compare tab. Two versions of a robots.txt side by side,
// compared by POST /api/diff (the one diff of package robotsdiff, as
// rep diff -json prints it): for each group of crawlers that sees the same
// change, the rules added and removed, the crawl interval, the usage
// statements, and the URLs whose verdict flips with the deciding line
// before and after, witness paths included. The state lives in the URL
// fragment (cold, cnew, cagents, curls) through app.js's writeHash, so a
// comparison can be shared. Uses app.js's helpers ($, el, api, ...).
'use strict';

const cmp = {
  old: $('cmp-old'), new: $('cmp-new'), agents: $('cmp-agents'), urls: $('cmp-urls'),
  seq: 0, timer: 0, inflight: null,
};

// compareHash adds the tab's fields to the fragment app.js writes.
function compareHash(p) {
  const big = cmp.old.value.length + cmp.new.value.length > maxHashRobots;
  if (cmp.old.value && !big) p.set('cold', cmp.old.value);
  if (cmp.new.value && !big) p.set('cnew', cmp.new.value);
  if (cmp.agents.value) p.set('cagents', cmp.agents.value);
  if (cmp.urls.value) p.set('curls', cmp.urls.value);
}

// compareRead restores the tab's fields from the fragment and compares.
function compareRead(p) {
  cmp.old.value = p.get('cold') || '';
  cmp.new.value = p.get('cnew') || '';
  cmp.agents.value = p.get('cagents') || '';
  cmp.urls.value = p.get('curls') || '';
  scheduleCompare(false);
}

function scheduleCompare(write) {
  clearTimeout(cmp.timer);
  cmp.timer = setTimeout(runCompare, 150);
  if (write) writeHash();
}

async function runCompare() {
  const my = ++cmp.seq;
  if (cmp.inflight) cmp.inflight.abort();
  cmp.inflight = new AbortController();
  if (!cmp.old.value && !cmp.new.value) {
    show($('cmp-error'), false);
    show($('cmp-names'), false);
    $('cmp-out').classList.remove('stale');
    $('cmp-summary').textContent = 'Paste two versions to compare them.';
    for (const id of ['cmp-sitemaps', 'cmp-clusters']) $(id).replaceChildren();
    $('cmp-unchanged').textContent = '';
    return;
  }
  const urls = cmp.urls.value.split(/\r?\n/).map((s) => s.trim()).filter((s) => s !== '');
  const agents = cmp.agents.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  try {
    const d = await api('/api/diff', { old: cmp.old.value, new: cmp.new.value, agents, urls }, cmp.inflight.signal);
    if (my !== cmp.seq) return;
    show($('cmp-error'), false);
    $('cmp-out').classList.remove('stale');
    renderCompare(d);
  } catch (e) {
    if (isAbort(e) || my !== cmp.seq) return;
    $('cmp-error').textContent = e.message;
    show($('cmp-error'), true);
    $('cmp-out').classList.add('stale');
  }
}

// verdictCell shows one side of a flip: the verdict and its deciding line.
function verdictCell(v, usage) {
  const td = el('td', 'cmp-why');
  if (usage) {
    td.textContent = usage;
    return td;
  }
  td.appendChild(el('span', 'badge ' + (v.allowed ? 'allow' : 'block'), v.allowed ? 'Allowed' : 'Blocked'));
  td.appendChild(document.createTextNode(' '));
  if (v.line > 0 && v.via !== 'fetch') {
    td.appendChild(el('span', 'hint', 'line ' + v.line + ' '));
    td.appendChild(el('code', null, v.rule));
  } else {
    td.appendChild(el('span', 'hint', v.reason));
  }
  return td;
}

function usageWords(f, side) {
  return (f.usage || []).map((u) => u.category + ' ' + u[side]).join(', ');
}

function renderCompare(d) {
  // Names the registry does not know, one click from what was meant (the
  // server's "named", as a crawl's start event gives them).
  const names = $('cmp-names');
  names.replaceChildren();
  for (const c of d.named || []) {
    if (!c.did_you_mean || !c.did_you_mean.length) continue;
    names.appendChild(didYouMean(c.agent, c.did_you_mean, (name) => replaceName(cmp.agents, c.agent, name),
      'It is compared as the files name it.'));
  }
  show(names, names.childElementCount > 0);
  $('cmp-summary').textContent = d.summary.charAt(0).toUpperCase() + d.summary.slice(1) + '.' +
    (d.witnesses ? ' ' + plural(d.witnesses, 'witness path') + (d.urls ? ' and ' + plural(d.urls, 'URL') : '') + ' tested.' : '');
  $('cmp-summary').className = 'outcome' + (d.blocked > 0 ? ' bad' : d.changed ? '' : ' ok');
  const sm = document.createDocumentFragment();
  for (const s of d.sitemaps) {
    sm.appendChild(el('li', 'cmp-sitemap', (s.added ? 'Sitemap added: ' : 'Sitemap removed: ') + s.url + ' (' + (s.added ? 'new' : 'old') + ' line ' + s.line + ')'));
  }
  $('cmp-sitemaps').replaceChildren(sm);
  const byName = new Map(d.crawlers.map((c) => [c.agent, c]));
  const out = document.createDocumentFragment();
  d.clusters.forEach((names, i) => {
    const c = byName.get(names[0]);
    const box = el('section', 'cmp-cluster');
    box.dataset.index = String(i);
    const h = el('h3');
    h.appendChild(el('span', 'cmp-names', names.join(', ')));
    h.appendChild(el('span', 'hint', ' · ' + c.engine + ' rules'));
    box.appendChild(h);
    const facts = el('ul', 'plain cmp-facts');
    const fact = (cls, text, code) => {
      const li = el('li', cls, text);
      if (code) li.appendChild(el('code', null, code));
      facts.appendChild(li);
    };
    if (c.group_changed) fact('cmp-group', 'Group: ' + ((c.group_before && c.group_before.agent) || 'none') + ' → ' + ((c.group_after && c.group_after.agent) || 'none'));
    for (const r of c.removed) fact('cmp-removed', '− old line ' + r.line + ': ', r.rule);
    for (const r of c.added) fact('cmp-added', '+ new line ' + r.line + ': ', r.rule);
    if (c.delay) fact('cmp-delay', 'Crawl interval: ' + (c.delay.before_seconds || 'none') + (c.delay.before_seconds ? ' s' : '') + ' → ' + (c.delay.after_seconds || 'none') + (c.delay.after_seconds ? ' s' : ''));
    for (const u of c.usage) fact('cmp-usage', (u.added ? '+ new line ' : '− old line ') + u.line + ': ', u.text);
    box.appendChild(facts);
    if (c.flips.length) {
      const wrap = el('div', 'table-wrap');
      const t = el('table', 'cmp-flips');
      t.appendChild(el('caption', 'sr', 'URLs that flip for ' + names.join(', ')));
      const hr = el('tr');
      for (const x of ['Change', 'URL', 'Before', 'After']) {
        const th = el('th', null, x);
        th.scope = 'col';
        hr.appendChild(th);
      }
      const thead = el('thead');
      thead.appendChild(hr);
      t.appendChild(thead);
      const tb = el('tbody');
      for (const f of c.flips) {
        const tr = el('tr', 'cmp-flip ' + f.kind);
        tr.dataset.url = f.url;
        const kind = el('td', 'cmp-kind');
        kind.appendChild(el('span', 'badge ' + (f.kind === 'blocked' ? 'block' : f.kind === 'allowed' ? 'allow' : 'none'),
          { blocked: 'Now blocked', allowed: 'Now allowed', usage: 'Usage' }[f.kind]));
        tr.appendChild(kind);
        const u = urlNode('url', f.url);
        if (f.witness) u.appendChild(el('span', 'cmp-witness hint', ' witness'));
        tr.appendChild(u);
        const usage = f.kind === 'usage';
        tr.appendChild(verdictCell(f.before, usage ? usageWords(f, 'before') : ''));
        tr.appendChild(verdictCell(f.after, usage ? usageWords(f, 'after') : ''));
        tb.appendChild(tr);
      }
      t.appendChild(tb);
      wrap.appendChild(t);
      box.appendChild(wrap);
      const n = c.blocked + c.unblocked + c.usage_flips;
      if (n > c.flips.length) box.appendChild(el('p', 'hint', '… and ' + fmtInt(n - c.flips.length) + ' more'));
    } else {
      box.appendChild(el('p', 'hint', 'No URL flips.'));
    }
    out.appendChild(box);
  });
  $('cmp-clusters').replaceChildren(out);
  const same = d.crawlers.filter((c) => !c.changed).map((c) => c.agent);
  $('cmp-unchanged').textContent = d.changed && same.length ? 'No change in meaning for ' + same.join(', ') + '.' : '';
}

for (const e of [cmp.old, cmp.new, cmp.agents, cmp.urls]) e.addEventListener('input', () => scheduleCompare(true));

$('cmp-share').addEventListener('click', async () => {
  writeHashNow();
  try {
    await navigator.clipboard.writeText(location.href);
    $('cmp-share-note').textContent = cmp.old.value.length + cmp.new.value.length > maxHashRobots
      ? 'Link copied, without the files: they are too large for a link.'
      : 'Link copied.';
  } catch (e) {
    $('cmp-share-note').textContent = 'Copy the address bar: it holds this comparison.';
  }
});

// app.js read the fragment before this script ran: read the tab's part.
compareRead(new URLSearchParams(location.hash.slice(1)));
