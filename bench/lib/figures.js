// @ts-check
'use strict';

// Results of the scripts beside bench/run.js (mixed workload, memory, writes): each as JSON and as a
// small SVG of horizontal bars, hand-written like chart.js so it needs nothing to be looked at.

const fs = require('node:fs');
const path = require('node:path');
const { escapeXml } = require('./chart');

const WIDTH = 980;
const LABEL_WIDTH = 260;
const BAR_AREA = 430;
const BAR_HEIGHT = 16;
const BAR_GAP = 3;
const GROUP_GAP = 20;
const TOP = 78;
const COLORS = ['#2563eb', '#7c3aed', '#16a34a', '#9ca3af', '#f59e0b'];

/** `groups`: [{ label, bars: [{ label, value, text }] }], bars scaled per chart; `unit` names the axis. */
function renderBars({ title, subtitle, groups, unit, footer = [] }) {
  const max = Math.max(1, ...groups.flatMap((group) => group.bars.map((bar) => bar.value ?? 0)));
  let y = TOP;
  const parts = [];
  for (const group of groups) {
    const height = group.bars.length * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;
    parts.push(
      `<text x="${LABEL_WIDTH - 10}" y="${y + height / 2 + 4}" text-anchor="end" font-weight="600" fill="#111827">${escapeXml(group.label)}</text>`,
    );
    group.bars.forEach((bar, i) => {
      const top = y + i * (BAR_HEIGHT + BAR_GAP);
      const width = Math.max(1, ((bar.value ?? 0) / max) * BAR_AREA);
      parts.push(
        `<rect x="${LABEL_WIDTH}" y="${top}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${COLORS[i % COLORS.length]}"/>`,
      );
      parts.push(`<text x="${LABEL_WIDTH + width + 6}" y="${top + 12}" fill="#374151">${escapeXml(`${bar.label}: ${bar.text}`)}</text>`);
    });
    y += height + GROUP_GAP;
  }
  const height = y + 10 + footer.length * 18 + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="20" y="28" font-size="17" font-weight="600" fill="#111827">${escapeXml(title)}</text>`,
    `<text x="20" y="48" fill="#4b5563">${escapeXml(subtitle)}</text>`,
    `<text x="20" y="66" fill="#6b7280">${escapeXml(`bar length: ${unit}`)}</text>`,
    ...parts,
    ...footer.map((line, i) => `<text x="20" y="${y + 14 + i * 18}" fill="#4b5563">${escapeXml(line)}</text>`),
    '</svg>',
    '',
  ].join('\n');
}

const machineLine = (results) =>
  `${results.createdAt} · ${results.machine.cpus} × ${results.machine.cpuModel} · ${results.machine.memoryGb} GB · Node ${results.machine.node} · ${results.options.articles.toLocaleString('en-US')} articles on SQLite`;
const rate = (run) => `${Math.round(run.rps).toLocaleString('en-US')} req/s · p50 ${run.p50} ms · p99 ${run.p99} ms`;

const CHARTS = {
  mixed: (results) => ({
    title: `Reads while articles are written, ${results.options.connections} connections`,
    subtitle: machineLine(results),
    unit: 'read requests/s',
    groups: Object.entries(results.servers).map(([name, run]) => ({
      label: name === 'ours' ? 'ours' : 'ours, cache off',
      bars: [
        { label: 'reads alone', value: run.readOnly.rps, text: rate(run.readOnly) },
        {
          label: `with ${results.options.writesPerSecond} POST/s + ${results.options.writesPerSecond} edit/s`,
          value: run.mixed.rps,
          text: `${rate(run.mixed)} (${Math.round(100 * run.mixedToReadOnly)} %)`,
        },
      ],
    })),
    footer: Object.entries(results.servers).map(
      ([name, run]) =>
        `${name}: ${run.posts.ok}/${run.posts.count} POSTs (p50 ${run.posts.p50Ms} ms), ${run.edits.ok}/${run.edits.count} edits (p50 ${run.edits.p50Ms} ms), ${run.freshness.checks} freshness checks, ${run.freshness.stale} stale.`,
    ),
  }),
  memory: (results) => ({
    title: `Server memory under a flood of distinct reads (read cache ${results.options.cacheMb} MB, SQLite memory map ${results.options.mmapMb} MB)`,
    subtitle: machineLine(results),
    unit: 'MB resident (RSS)',
    groups: results.steps.map((step) => ({
      label: step.label,
      bars: [
        {
          label: 'RSS',
          value: step.memory.rssMb,
          text: `${step.memory.rssMb} MB (heap and other ${step.memory.anonMb} MB, mapped file ${step.memory.fileMb} MB)`,
        },
        { label: 'peak RSS', value: step.memory.peakRssMb, text: `${step.memory.peakRssMb} MB` },
      ],
    })),
    footer: [
      `Target: peak RSS under ${results.targets.peakRssMb} MB. Answers checked after the flood: ${results.correctness.checked}, wrong: ${results.correctness.wrong}.`,
    ],
  }),
  writes: (results) => ({
    title: `Writes: articles created and published per second${results.options.store === 'postgres' ? ' (PostgreSQL)' : ''}`,
    subtitle: machineLine(results),
    unit: 'articles/s',
    groups: Object.values(results.servers).map((run) => ({
      label: run.label,
      bars: ['sequential', 'concurrent']
        .filter((mode) => run[mode])
        .map((mode) => ({
          label: mode === 'sequential' ? 'one at a time' : `${results.options.concurrency} at once`,
          value: run[mode].perSecond,
          text: `${run[mode].perSecond.toFixed(1)}/s · p50 ${run[mode].p50Ms} ms · p99 ${run[mode].p99Ms} ms${run[mode].failed ? ` · ${run[mode].failed} failed` : ''}`,
        })),
    })),
  }),
};

/** Writes latest-<base>.{json,svg} (earlier runs are in git's history); returns the paths. */
function writeFigures(results, directory, base) {
  fs.mkdirSync(directory, { recursive: true });
  const json = `${JSON.stringify(results, (key, value) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`;
  const svg = renderBars(CHARTS[results.kind](results));
  const written = [];
  for (const name of [`latest-${base}`]) {
    fs.writeFileSync(path.join(directory, `${name}.json`), json);
    fs.writeFileSync(path.join(directory, `${name}.svg`), svg);
    written.push(path.join(directory, `${name}.json`), path.join(directory, `${name}.svg`));
  }
  return written;
}

module.exports = { renderBars, writeFigures };
