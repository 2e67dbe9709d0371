// @ts-check
'use strict';

// What a photo costs the service and a visitor (issue 32).
//
//   node bench/photo-upload.js [--uploads 5] [--at-once 6] [--gallery 20] [--gallery-width 3000] [--skip-build]
//
// Our app (`strapi start`, production, `npm start`'s heap cap) on a new, empty SQLite file, with
// the first administrator registered through the admin's route:
// 1. Upload: a 24-megapixel camera JPEG (6000×4000, photo-like pixels from bench/lib/photo-like.js,
//    quality 90, with the camera's EXIF, GPS included) is POSTed to the Media Library's /upload
//    route --uploads times, one after the other. For each: the request's time (the service reads
//    the file, removes its private metadata, records its camera data, BlurHash and colour, and
//    makes Strapi's sizes) and the time until its AVIF and WebP renditions are stored (made in the
//    background after the answer; the file record is polled every 100 ms). The next upload starts
//    once they are there. The process's RSS is sampled every 50 ms from /proc; its peak (VmHWM)
//    is read at the end.
// 1b. At once: --at-once uploads of the same photo sent together (an editor dropping a card's
//    photos into the Media Library), their renditions awaited; the highest RSS sampled meanwhile,
//    and the RSS a minute after the last rendition (issue 54: at most 600 MB, then under 450 MB).
// 2. Gallery: --gallery distinct photo-like JPEGs (--gallery-width × 2/3, another seed each) are
//    uploaded and their renditions awaited; then, for each, the 1000-px copies a browser would load
//    at 1000 px are fetched as a browser fetches them: Strapi's `large` JPEG, the `avif_large` and
//    the `webp_large`. Their bytes are summed.
// Every upload is deleted through the Media Library's route afterwards, and the file removed.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('./lib/args');
const { cameraJpeg } = require('./lib/photo-like');
const { build, gitState, machine, say } = require('./lib/run-steps');
const { DATA_DIR, RESULTS_DIR } = require('./lib/server-env');
const { memoryOf, percentile, registerEditor, startApp, stopServer } = require('./lib/side-runs');
const { sqliteStore } = require('./lib/store');
const { serviceNodeOptions } = require('../scripts/node-options');

const BIG = { width: 6000, height: 4000 };
const RENDITIONS_TIMEOUT_MS = 600_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * @typedef {{ url: string, width: number, height: number, mime: string, size: number }} Format
 * @typedef {{ id: number, name: string, url: string, size: number, formats: Record<string, Format> | null }} UploadedFile
 */

/** The Media Library's routes, as its pages call them, with the editor's admin token. */
function mediaLibrary(baseUrl, jwt) {
  const authorization = { Authorization: `Bearer ${jwt}` };
  return {
    /** @returns {Promise<{ file: UploadedFile, ms: number }>} */
    async upload(name, bytes) {
      const form = new FormData();
      form.append('files', new Blob([bytes], { type: 'image/jpeg' }), name);
      const started = performance.now();
      const response = await fetch(`${baseUrl}/upload`, { method: 'POST', headers: authorization, body: form });
      const text = await response.text();
      const ms = performance.now() - started;
      if (response.status !== 201) throw new Error(`POST /upload of ${name} answered ${response.status}: ${text.slice(0, 300)}`);
      return { file: JSON.parse(text)[0], ms };
    },
    /** @returns {Promise<UploadedFile>} */
    async read(id) {
      const response = await fetch(`${baseUrl}/upload/files/${id}`, { headers: authorization });
      if (response.status !== 200) throw new Error(`GET /upload/files/${id} answered ${response.status}`);
      return /** @type {UploadedFile} */ (await response.json());
    },
    async remove(id) {
      const response = await fetch(`${baseUrl}/upload/files/${id}`, { method: 'DELETE', headers: authorization });
      await response.text();
    },
  };
}

/**
 * Polls the file record until its AVIF and WebP renditions are stored (they are saved together, once
 * all are made); the moment they were first seen, and the record then.
 * @returns {Promise<{ at: number, file: UploadedFile }>}
 */
async function untilRenditions(library, id) {
  const deadline = performance.now() + RENDITIONS_TIMEOUT_MS;
  for (;;) {
    const file = await library.read(id);
    const keys = Object.keys(file.formats ?? {});
    if (keys.some((key) => key.startsWith('avif_')) && keys.some((key) => key.startsWith('webp_'))) return { at: performance.now(), file };
    if (performance.now() > deadline) throw new Error(`file ${id} has no AVIF and WebP renditions after ${RENDITIONS_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
}

/** Samples the server's RSS every 50 ms; `stop()` gives the highest sample in MB. */
function rssSampler(pid) {
  let highest = 0;
  const timer = setInterval(() => {
    try {
      highest = Math.max(highest, memoryOf(pid).rssMb);
    } catch {
      // the process ended
    }
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return highest;
    },
  };
}

/** The bytes a browser receives for a URL of the service, with the type it was sent as. */
async function fetchedBytes(baseUrl, url) {
  const response = await fetch(new URL(url, baseUrl));
  const bytes = Buffer.from(await response.arrayBuffer()).length;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { bytes, type: response.headers.get('content-type') };
}

async function main() {
  const options = parseArgs(process.argv.slice(2), { uploads: 5, atOnce: 6, gallery: 20, galleryWidth: 3000, skipBuild: false });
  const createdAt = new Date().toISOString();
  // What else loads this shared machine shows in the load average: recorded before and after.
  const loadBefore = os.loadavg().map((value) => round(value, 2));
  const buildInfo = build(options.skipBuild);

  const file = path.join(DATA_DIR, 'photo-upload.db');
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const server = await startApp({
    store: sqliteStore(file),
    name: 'photo-upload',
    extra: { ARTIKEL_RATE_LIMIT: '0' },
    waitForIndex: false,
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const pid = /** @type {number} */ (server.child.pid);
  const uploaded = [];
  /** @type {ReturnType<typeof mediaLibrary> | null} */
  let library = null;
  try {
    const editor = await registerEditor(baseUrl);
    const media = mediaLibrary(baseUrl, editor.jwt);
    library = media;
    const afterStart = memoryOf(pid);
    say(`[photo-upload] server up: RSS ${afterStart.rssMb} MB (peak so far ${afterStart.peakRssMb} MB), heap cap: ${serviceNodeOptions()}`);

    // 1. The 24-megapixel upload.
    let started = performance.now();
    const big = await cameraJpeg(BIG.width, BIG.height, 24);
    say(
      `[photo-upload] a ${BIG.width}×${BIG.height} camera JPEG of ${round(big.length / 1e6, 2)} MB made in ${round((performance.now() - started) / 1000)} s`,
    );
    const runs = [];
    for (let n = 0; n < options.uploads; n += 1) {
      const sampler = rssSampler(pid);
      started = performance.now();
      const { file: record, ms } = await library.upload(`camera-${n + 1}.jpg`, big);
      uploaded.push(record.id);
      const answered = performance.now();
      const ready = await untilRenditions(library, record.id);
      const renditions = Object.keys(ready.file.formats ?? {}).filter((key) => /^(avif|webp)_/.test(key));
      const run = {
        uploadMs: round(ms, 0),
        renditionsAfterAnswerMs: round(ready.at - answered, 0),
        totalMs: round(ready.at - started, 0),
        peakRssMb: sampler.stop(),
        formats: Object.keys(ready.file.formats ?? {}).length,
        renditions: renditions.sort(),
      };
      runs.push(run);
      say(
        `[photo-upload] upload ${n + 1}: answered in ${run.uploadMs} ms, AVIF and WebP stored ${run.renditionsAfterAnswerMs} ms later (${run.renditions.join(', ')}), RSS at most ${run.peakRssMb} MB`,
      );
    }
    const peakAfterUploads = memoryOf(pid);
    const upload = {
      photo: { ...BIG, megapixels: (BIG.width * BIG.height) / 1e6, bytes: big.length, jpegQuality: 90 },
      runs,
      uploadP50Ms: percentile(
        runs.map((run) => run.uploadMs),
        50,
      ),
      renditionsAfterAnswerP50Ms: percentile(
        runs.map((run) => run.renditionsAfterAnswerMs),
        50,
      ),
      totalP50Ms: percentile(
        runs.map((run) => run.totalMs),
        50,
      ),
      rssAfterStartMb: afterStart.rssMb,
      sampledPeakRssMb: Math.max(...runs.map((run) => run.peakRssMb)),
      peakRssMb: peakAfterUploads.peakRssMb,
    };
    say(
      `[photo-upload] ${options.uploads} uploads of 24 MP: p50 ${upload.uploadP50Ms} ms the request, renditions ${upload.renditionsAfterAnswerP50Ms} ms after it, peak RSS ${upload.peakRssMb} MB (${upload.rssAfterStartMb} MB after start)`,
    );

    // 1b. The same photo --at-once times together.
    const atOnceSampler = rssSampler(pid);
    started = performance.now();
    const together = await Promise.all(Array.from({ length: options.atOnce }, (_, n) => media.upload(`at-once-${n + 1}.jpg`, big)));
    const togetherAnsweredMs = performance.now() - started;
    uploaded.push(...together.map(({ file: record }) => record.id));
    for (const { file: record } of together) await untilRenditions(library, record.id);
    const atOnce = {
      uploads: options.atOnce,
      lastAnsweredMs: round(togetherAnsweredMs, 0),
      allRenditionsMs: round(performance.now() - started, 0),
      peakRssMb: atOnceSampler.stop(),
      rssAMinuteAfterMb: 0,
    };
    await sleep(60_000);
    atOnce.rssAMinuteAfterMb = memoryOf(pid).rssMb;
    say(
      `[photo-upload] ${options.atOnce} uploads of 24 MP at once: all answered in ${atOnce.lastAnsweredMs} ms, every rendition stored after ${atOnce.allRenditionsMs} ms; RSS at most ${atOnce.peakRssMb} MB, ${atOnce.rssAMinuteAfterMb} MB a minute later`,
    );

    // 2. The gallery of distinct photos at 1000 px.
    const galleryHeight = Math.round((options.galleryWidth * 2) / 3);
    const photos = [];
    const galleryUploadMs = [];
    for (let n = 0; n < options.gallery; n += 1) {
      const bytes = await cameraJpeg(options.galleryWidth, galleryHeight, 1000 + n);
      const { file: record, ms } = await library.upload(`gallery-${n + 1}.jpg`, bytes);
      uploaded.push(record.id);
      galleryUploadMs.push(ms);
      photos.push({ id: record.id, originalBytes: bytes.length });
    }
    const perPhoto = [];
    for (const photo of photos) {
      const { file: record } = await untilRenditions(library, photo.id);
      const formats = record.formats ?? {};
      const sizes = {};
      for (const [key, type] of [
        ['large', 'image/jpeg'],
        ['avif_large', 'image/avif'],
        ['webp_large', 'image/webp'],
      ]) {
        if (!formats[key]) throw new Error(`file ${photo.id} has no ${key} (formats: ${Object.keys(formats).join(', ')})`);
        const fetched = await fetchedBytes(baseUrl, formats[key].url);
        if (fetched.type !== type) throw new Error(`${formats[key].url} was sent as ${fetched.type}, not ${type}`);
        sizes[key] = { bytes: fetched.bytes, width: formats[key].width, height: formats[key].height };
      }
      perPhoto.push({ id: photo.id, originalBytes: photo.originalBytes, ...sizes });
    }
    const sum = (key) => perPhoto.reduce((total, photo) => total + photo[key].bytes, 0);
    const gallery = {
      photos: options.gallery,
      source: { width: options.galleryWidth, height: galleryHeight, jpegQuality: 90 },
      uploadP50Ms: percentile(galleryUploadMs, 50),
      at1000px: {
        jpegBytes: sum('large'),
        avifBytes: sum('avif_large'),
        webpBytes: sum('webp_large'),
      },
      avifOverJpeg: round(sum('avif_large') / sum('large'), 3),
      webpOverJpeg: round(sum('webp_large') / sum('large'), 3),
      perPhoto,
    };
    say(
      `[photo-upload] a gallery of ${options.gallery} photos at 1000 px: JPEG ${round(gallery.at1000px.jpegBytes / 1e6, 2)} MB, AVIF ${round(gallery.at1000px.avifBytes / 1e6, 2)} MB (${gallery.avifOverJpeg}×), WebP ${round(gallery.at1000px.webpBytes / 1e6, 2)} MB (${gallery.webpOverJpeg}×)`,
    );

    const results = {
      kind: 'photo-upload',
      createdAt,
      options,
      machine: machine(),
      app: gitState(),
      build: buildInfo,
      heapCap: serviceNodeOptions(),
      loadAverage: { before: loadBefore, after: os.loadavg().map((value) => round(value, 2)) },
      upload,
      atOnce,
      peakRssMbOverRun: memoryOf(pid).peakRssMb,
      gallery,
    };
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const out = path.join(RESULTS_DIR, 'latest-photo-upload.json');
    fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    say(`[photo-upload] results in ${path.relative(process.cwd(), out)}`);
  } finally {
    // The uploads leave public/uploads through the Media Library's own delete, renditions included.
    if (library) for (const id of uploaded) await library.remove(id).catch(() => undefined);
    await stopServer(server);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
