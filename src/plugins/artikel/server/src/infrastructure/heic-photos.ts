import fs from 'node:fs/promises';
import path from 'node:path';
import { Piscina } from 'piscina';
import { errors } from '@strapi/utils';
import { copyPhotoTags } from './exiftool';
import type { HeicTask } from './heic-thread';

// One photo at a time: each decode holds about 150 MB for 12 megapixels.
const THREADS = 1;
// Photos that may wait for the thread; more are refused with a 429 until it catches up.
const MAX_WAITING = 4;
// Half a second measured for 12 megapixels on a loaded 2-core machine; 100 megapixels (the pixel
// limit) about ten times that, with the queue ahead of it.
const DEADLINE_MS = 90_000;

// The HEIF brands of HEVC-coded images (ISO/IEC 23008-12): `heic`, `heix` (10 bit), `hevc`, `hevx`
// (sequences), `heim`, `heis` (multi-layer). AVIF (`avif`, `avis`) is HEIF too, and sharp reads it.
const HEVC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);

let pool: Piscina<HeicTask, { width: number; height: number }> | null = null;

function thread(): Piscina<HeicTask, { width: number; height: number }> {
  // Compiled next to this file, as text-thread.js is.
  pool ??= new Piscina({
    filename: path.join(__dirname, 'heic-thread.js'),
    minThreads: 0,
    maxThreads: THREADS,
    maxQueue: MAX_WAITING,
    idleTimeout: 30_000,
  });
  return pool;
}

/** Whether the file at `filePath` is a HEVC-coded HEIF image, by its `ftyp` box (its first bytes), whatever its name says. */
export async function isHeicFile(filePath: string): Promise<boolean> {
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    return bytesRead === 12 && head.toString('latin1', 4, 8) === 'ftyp' && HEVC_BRANDS.has(head.toString('latin1', 8, 12));
  } finally {
    await handle.close();
  }
}

/**
 * Writes the HEIC photo at `input` as a JPEG at `output`, with its metadata (camera, lens, exposure,
 * when it was taken, colour profile) copied by ExifTool, upright. A full queue is a 429; a file
 * libheif cannot read is a 400 that says so.
 */
export async function heicToJpeg(input: string, output: string): Promise<{ width: number; height: number }> {
  const running = thread();
  if (running.queueSize >= MAX_WAITING)
    throw new errors.RateLimitError('Too many phone photos are being converted at once; send this one again in a few seconds', {
      retryAfter: 5,
    });
  let size: { width: number; height: number };
  try {
    size = await running.run({ input, output }, { signal: AbortSignal.timeout(DEADLINE_MS) });
  } catch (error) {
    await fs.rm(output, { force: true });
    throw new errors.ValidationError(
      `The HEIC photo could not be read (${(error as Error).message}); export it from the phone as JPEG and upload that`,
    );
  }
  await copyPhotoTags(input, output);
  return size;
}

/** Stops the thread, if one runs (at the service's stop). */
export async function endHeicThread(): Promise<void> {
  const running = pool;
  pool = null;
  await running?.destroy();
}
