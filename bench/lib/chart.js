// @ts-check
'use strict';

// A hand-written SVG, so the result needs nothing to be looked at but a browser or GitHub's viewer.

// Every server the benchmark knows, and the stores it is measured on (raw reads SQLite only; two
// instances are measured on PostgreSQL, which is what several instances share in production).
const SERVERS = [
  { key: 'ours', label: '/api/artikel (ours)', color: '#2563eb', stores: ['sqlite', 'postgres'] },
  { key: 'uncached', label: 'ours, response cache off', color: '#7c3aed', stores: ['sqlite', 'postgres'] },
  { key: 'stock', label: 'stock Strapi REST', color: '#9ca3af', stores: ['sqlite', 'postgres'] },
  { key: 'raw', label: 'raw node:http + SQLite (FTS5)', color: '#16a34a', stores: ['sqlite'] },
  { key: 'rawlike', label: 'raw, search by LIKE scan', color: '#86efac', stores: ['sqlite'], endpoints: ['q'] },
  { key: 'ours2', label: 'two instances of ours (ours×2)', color: '#1e3a8a', stores: ['postgres'] },
];

// The ratios of requests/s shown per endpoint, on the stores where both servers are measured.
const RATIOS = [
  { key: 'oursToStock', over: 'ours', under: 'stock', label: 'ours/stock', stores: ['sqlite', 'postgres'] },
  { key: 'oursToRaw', over: 'ours', under: 'raw', label: 'ours/raw', stores: ['sqlite'] },
  { key: 'uncachedToRaw', over: 'uncached', under: 'raw', label: 'uncached/raw', stores: ['sqlite'] },
  { key: 'uncachedToRawLike', over: 'uncached', under: 'rawlike', label: 'uncached/rawlike', stores: ['sqlite'], endpoints: ['q'] },
  { key: 'ours2ToOurs', over: 'ours2', under: 'ours', label: 'ours×2/ours', stores: ['postgres'] },
];

const STORE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The store a results object was measured on; results written before there was a choice are SQLite. */
const storeOf = (results) => results.options.store ?? 'sqlite';
const serversOf = (results) => SERVERS.filter((server) => server.stores.includes(storeOf(results)));
/** The ratios shown on a store, and for one endpoint those that apply to it (some servers answer one endpoint only). */
const ratiosFor = (store, endpointKey = null) =>
  RATIOS.filter(
    (ratio) => ratio.stores.includes(store) && (endpointKey === null || !ratio.endpoints || ratio.endpoints.includes(endpointKey)),
  );
/** "SQLite", or "PostgreSQL 15.4" when the run recorded the server's version. */
const storeName = (results) => results.store?.version ?? STORE_NAMES[storeOf(results)];

const WIDTH = 980;
const LABEL_WIDTH = 235;
const BAR_AREA = 450;
const BAR_HEIGHT = 16;
const BAR_GAP = 3;
const GROUP_GAP = 22;
const TOP = 104;

const escapeXml = (text) =>
  String(text).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);
const number = (value) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1));

/** An axis end and tick step of 1, 2 or 5 times a power of ten, with at most about five ticks. */
function niceScale(largest) {
  const rough = largest / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = /** @type {number} */ ([1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough));
  return { max: Math.ceil(largest / step) * step, step };
}

/** How a ratio that is only a bound is written (see ratiosOf in report.js). */
const BOUND_SIGNS = { 'at least': '>', 'at most': '<' };

function ratioText(value) {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

/** Grouped horizontal bars of requests/s per endpoint, with the ratios under each endpoint name. */
function renderChart(results) {
  const endpoints = results.endpoints;
  const servers = serversOf(results);
  const measured = endpoints.flatMap((endpoint) => servers.map((server) => endpoint.results[server.key]?.rps ?? 0));
  const { max, step } = niceScale(Math.max(1, ...measured));
  const groupHeight = servers.length * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;
  const chartBottom = TOP + endpoints.length * (groupHeight + GROUP_GAP);
  const footerLines = [];
  if (results.searchSql && !results.searchSql.skipped) {
    const s = results.searchSql;
    footerLines.push(
      `SQL only, ${s.words} words: LIKE scan median ${s.likeMedianMs.toFixed(2)} ms, FTS5 index median ${s.ftsMedianMs.toFixed(2)} ms (LIKE/FTS ${s.ratio.toFixed(1)}×).`,
    );
  } else if (results.searchSql?.skipped) {
    footerLines.push(`SQL search comparison skipped: ${results.searchSql.skipped}.`);
  }
  footerLines.push(
    storeOf(results) === 'postgres'
      ? 'Mean requests/s over each run; ours/stock > 1 means ours is faster; ours×2 is two instances of ours on the same database, the connections split between them.'
      : 'Mean requests/s over each run; ours/stock > 1 means ours is faster; raw does every read in full (no response cache).',
  );
  footerLines.push('A bar marked ! had non-2xx answers or errors and is not a valid result. Stock cannot count views on the slug read.');
  const height = chartBottom + 44 + footerLines.length * 18;

  const parts = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`);
  const o = results.options;
  parts.push(
    `<text x="20" y="28" font-size="17" font-weight="600" fill="#111827">Requests per second, ${o.connections} connections, ${o.articles.toLocaleString('en-US')} articles on ${escapeXml(storeName(results))}</text>`,
  );
  parts.push(
    `<text x="20" y="48" fill="#4b5563">${escapeXml(`${results.createdAt} · ${o.rounds ? `${o.rounds} rounds of ` : ''}${o.duration} s per endpoint after ${o.warmup} s warm-up · ${results.machine.cpus} × ${results.machine.cpuModel} · Node ${results.machine.node}`)}</text>`,
  );
  servers.forEach((server, i) => {
    const x = 20 + i * 230;
    parts.push(`<rect x="${x}" y="62" width="14" height="14" fill="${server.color}"/>`);
    parts.push(`<text x="${x + 20}" y="74" fill="#111827">${escapeXml(server.label)}</text>`);
  });

  // Light vertical grid so bar lengths can be read against values.
  for (let value = 0; value <= max + step / 2; value += step) {
    const x = LABEL_WIDTH + (BAR_AREA * value) / max;
    parts.push(`<line x1="${x.toFixed(1)}" y1="${TOP - 4}" x2="${x.toFixed(1)}" y2="${chartBottom - GROUP_GAP + 4}" stroke="#e5e7eb"/>`);
    parts.push(
      `<text x="${x.toFixed(1)}" y="${chartBottom - GROUP_GAP + 18}" text-anchor="middle" fill="#6b7280">${value.toLocaleString('en-US')}</text>`,
    );
  }
  parts.push(`<text x="${LABEL_WIDTH + BAR_AREA}" y="${chartBottom - GROUP_GAP + 34}" text-anchor="end" fill="#6b7280">requests/s</text>`);

  endpoints.forEach((endpoint, g) => {
    const y0 = TOP + g * (groupHeight + GROUP_GAP);
    parts.push(
      `<text x="${LABEL_WIDTH - 10}" y="${y0 + groupHeight / 2 - 3}" text-anchor="end" font-weight="600" fill="#111827">${escapeXml(endpoint.label)}</text>`,
    );
    const bounded = (key) => `${BOUND_SIGNS[endpoint.ratios.bounds?.[key]] ?? ''}${ratioText(endpoint.ratios[key])}`;
    const ratios = `${ratiosFor(storeOf(results), endpoint.key)
      .map((ratio) => `${ratio.label} ${bounded(ratio.key)}`)
      .join(' · ')}${endpoint.valid ? '' : ' !'}`;
    parts.push(
      `<text x="${LABEL_WIDTH - 10}" y="${y0 + groupHeight / 2 + 13}" text-anchor="end" font-size="11" fill="${endpoint.valid ? '#4b5563' : '#dc2626'}">${escapeXml(ratios)}</text>`,
    );
    servers.forEach((server, i) => {
      const run = endpoint.results[server.key];
      const y = y0 + i * (BAR_HEIGHT + BAR_GAP);
      if (!run) {
        const text = server.endpoints && !server.endpoints.includes(endpoint.key) ? `${server.endpoints.join(', ')} only` : 'not measured';
        parts.push(`<text x="${LABEL_WIDTH + 4}" y="${y + 12}" fill="#6b7280">${escapeXml(text)}</text>`);
        return;
      }
      const width = Math.max(1, (run.rps / max) * BAR_AREA);
      const flagged = run.non2xx > 0 || run.errors > 0;
      parts.push(
        `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${server.color}"${flagged ? ' fill-opacity="0.45" stroke="#dc2626"' : ''}/>`,
      );
      const label = `${run.slowerThanWindow ? `no answer within ${run.seconds} s (< ${number(run.rps)} req/s)` : `${number(run.rps)} req/s · p50 ${run.p50} ms · p99 ${run.p99} ms`}${flagged ? ` ! ${run.non2xx} non-2xx, ${run.errors} errors` : ''}`;
      parts.push(`<text x="${LABEL_WIDTH + width + 6}" y="${y + 12}" fill="${flagged ? '#dc2626' : '#374151'}">${escapeXml(label)}</text>`);
    });
  });

  footerLines.forEach((line, i) => {
    parts.push(`<text x="20" y="${chartBottom + 44 + i * 18}" fill="#4b5563">${escapeXml(line)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

module.exports = { BOUND_SIGNS, RATIOS, SERVERS, STORE_NAMES, escapeXml, ratiosFor, renderChart, serversOf, storeName, storeOf };
