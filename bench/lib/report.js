// @ts-check
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { BOUND_SIGNS, ratiosFor, renderChart, serversOf, storeOf } = require('./chart');
const { median } = require('./median');

const isValid = (run) => Boolean(run) && run.non2xx === 0 && run.errors === 0 && (run.requests > 0 || run.slowerThanWindow === true);

/**
 * The store's ratios in requests/s (ours/stock and ours/raw on SQLite, ours/stock and ours×2/ours on
 * PostgreSQL; see RATIOS in chart.js); NaN when either run is missing. A run slower than its window
 * reports an upper bound, which turns the ratio into a bound: `bounds` says which way. With
 * `rounds` (each round's runs by server), a ratio is the median of the rounds' own ratios: the
 * servers of one round ran in the same minute, so a slower stretch of the machine cancels out.
 */
function ratiosOf(results, store = 'sqlite', rounds = [results]) {
  const ratioIn = (runs, a, b) => (runs[a] && runs[b] && runs[b].rps > 0 ? runs[a].rps / runs[b].rps : Number.NaN);
  const ratio = (a, b) => median(rounds.map((runs) => ratioIn(runs, a, b)).filter(Number.isFinite));
  const bound = (a, b) => (results[b]?.slowerThanWindow ? 'at least' : results[a]?.slowerThanWindow ? 'at most' : undefined);
  const wanted = ratiosFor(store);
  const ratios = Object.fromEntries(wanted.map((r) => [r.key, ratio(r.over, r.under)]));
  const bounds = Object.fromEntries(wanted.map((r) => [r.key, bound(r.over, r.under)]));
  return { ...ratios, ...(Object.values(bounds).some(Boolean) ? { bounds } : {}) };
}

const pad = (text, width, right = true) => (right ? String(text).padStart(width) : String(text).padEnd(width));
const rps = (run) =>
  run ? `${run.slowerThanWindow ? '<' : ''}${run.rps >= 100 ? Math.round(run.rps) : run.rps.toFixed(1)}${isValid(run) ? '' : '!'}` : '-';
const ms = (run, key) => (run?.[key] === undefined ? '-' : `${run.slowerThanWindow ? '>' : ''}${run[key]}`);
const times = (value, bound) => (Number.isFinite(value) ? `${BOUND_SIGNS[bound] ?? ''}${value.toFixed(2)}x` : 'n/a');

/** The console table: one row per endpoint, requests/s and latencies per server, then the ratios. */
function formatTable(results) {
  const servers = serversOf(results);
  const ratios = ratiosFor(storeOf(results));
  const labelWidth = Math.max(8, ...results.endpoints.map((endpoint) => endpoint.label.length));
  // A ratio's label is split over the two header lines at its slash: "ours/" above "stock".
  const ratioHead = (line) =>
    ratios.map((ratio) => pad(line === 1 ? `${ratio.label.split('/')[0]}/` : ratio.label.split('/')[1], 7)).join(' ');
  const head1 = `${pad('', labelWidth, false)} | ${servers.map((server) => pad(server.key, 20, false)).join(' | ')} | ${ratioHead(1)}`;
  const head2 = `${pad('endpoint', labelWidth, false)} | ${servers.map(() => `${pad('req/s', 7)} ${pad('p50', 5)} ${pad('p99', 6)}`).join(' | ')} | ${ratioHead(2)}`;
  const lines = [head1, head2, '-'.repeat(head2.length)];
  for (const endpoint of results.endpoints) {
    const cells = servers.map((server) => {
      const run = endpoint.results[server.key];
      return `${pad(rps(run), 7)} ${pad(ms(run, 'p50'), 5)} ${pad(ms(run, 'p99'), 6)}`;
    });
    const flag = endpoint.valid ? '' : '!';
    const ratioCells = ratios.map((ratio) => pad(times(endpoint.ratios[ratio.key], endpoint.ratios.bounds?.[ratio.key]) + flag, 7));
    lines.push(`${pad(endpoint.label, labelWidth, false)} | ${cells.join(' | ')} | ${ratioCells.join(' ')}`);
  }
  lines.push(
    'req/s = mean requests per second; p50/p99 latency in ms; ! = non-2xx answers, errors or a failed check (see PROBLEMS): not a valid result.',
  );
  lines.push('< and > = no answer came back within the measured window: the rate is below one answer per connection per window.');

  const problems = [];
  for (const endpoint of results.endpoints) {
    for (const server of servers) {
      const run = endpoint.results[server.key];
      if (run && !isValid(run)) {
        const codes = Object.entries(run.statusCodes)
          .filter(([code]) => !code.startsWith('2'))
          .map(([code, count]) => `${code}: ${count}`)
          .join(', ');
        problems.push(
          `${server.key} ${endpoint.key}: ${run.non2xx} non-2xx${codes ? ` (${codes})` : ''}, ${run.errors} errors, ${run.timeouts} timeouts, ${run.requests} requests`,
        );
      }
      for (const problem of endpoint.checks[server.key] ?? []) problems.push(`${server.key} ${endpoint.key} check: ${problem}`);
    }
  }
  if (problems.length > 0) lines.push('', 'PROBLEMS:', ...problems.map((problem) => `  ${problem}`));
  if (results.differences.length > 0)
    lines.push('', 'Answers that differ between servers (sampled requests):', ...results.differences.map((line) => `  ${line}`));
  else if (results.agreement.comparedAnswers > 0)
    lines.push(
      `Same articles, totals and order from every server on ${results.agreement.comparedAnswers} sampled requests compared with ${results.agreement.reference ?? 'ours'}.`,
    );
  for (const endpoint of results.endpoints) if (endpoint.note) lines.push(`Note (${endpoint.key}): ${endpoint.note}.`);
  return lines.join('\n');
}

function formatSearch(searchSql) {
  if (!searchSql) return '';
  if (searchSql.skipped) return `SQL search comparison skipped: ${searchSql.skipped}.`;
  const lines = [
    `SQL search, ${searchSql.words} words, count of matching published articles: LIKE scan median ${searchSql.likeMedianMs.toFixed(2)} ms, ` +
      `FTS5 median ${searchSql.ftsMedianMs.toFixed(2)} ms, LIKE/FTS ${searchSql.ratio.toFixed(1)}x.`,
  ];
  if (searchSql.countMismatches.length > 0)
    lines.push(`  Counts differ for ${searchSql.countMismatches.length} words: ${searchSql.countMismatches.slice(0, 5).join('; ')}`);
  return lines.join('\n');
}

/**
 * bench/results/latest-<size>.{json,svg} for SQLite and latest-postgres-<size> for PostgreSQL, so
 * neither store's figures overwrite the other's (earlier runs are in git's history); `someServers`,
 * when a run measured only those (--servers), is added to the name, so the whole comparison stays.
 * Returns the paths written.
 */
function writeResults(results, directory, someServers = []) {
  fs.mkdirSync(directory, { recursive: true });
  const json = `${JSON.stringify(results, (key, value) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`;
  const svg = renderChart(results);
  const written = [];
  const store = storeOf(results) === 'sqlite' ? `${results.options.articles}` : `${storeOf(results)}-${results.options.articles}`;
  // latest-<size>: every server of the store; a run of some of them (--servers) writes latest-<size>-<their names>.
  const size = someServers.length === 0 ? store : `${store}-${someServers.join('+')}`;
  for (const base of [`latest-${size}`]) {
    fs.writeFileSync(path.join(directory, `${base}.json`), json);
    fs.writeFileSync(path.join(directory, `${base}.svg`), svg);
    written.push(path.join(directory, `${base}.json`), path.join(directory, `${base}.svg`));
  }
  return written;
}

module.exports = { formatTable, formatSearch, writeResults, ratiosOf, isValid };
