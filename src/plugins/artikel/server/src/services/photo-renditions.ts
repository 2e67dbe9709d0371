import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '@strapi/strapi';
import { RENDITION_FORMATS, RENDITION_MIMES, isRenditionKey, renditionKey, renditionSizes } from '../domain/photo-renditions';
import { decodedAt, encodeRendition, shownSizeOf } from '../infrastructure/image-analysis';
import { detached } from '../infrastructure/detached-work';
import { getConfig } from '../infrastructure/get-service';
import { inPhotoTurn } from '../infrastructure/photo-turns';
import { findPhotoFile, sameVersion, saveFormats, type PhotoFile } from '../repositories/photo-files';
import { photoJobs, type PhotoJob } from '../repositories/photo-jobs';
import { fileOnDisk, storeThroughProvider, storedBytes } from '../infrastructure/stored-uploads';

/** Strapi's own breakpoints when the upload plugin's configuration sets none. */
const DEFAULT_BREAKPOINTS = { large: 1000, medium: 750, small: 500 };

/** Images the renditions are made from: what sharp decodes and a browser would show. */
const RENDERABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/tiff']);

export type RenditionOutcome = 'made' | 'present' | 'skipped' | 'gone';

/** What a run of the renditions would do to a file: make them, find them there, or leave it (not a photo, or gone). */
export type RenditionPlan = 'make' | Exclude<RenditionOutcome, 'made'>;

/** The storage failed some of a photo's renditions: the job is tried again later (see retryDelayMs). */
class StorageFailed extends Error {
  override readonly name = 'StorageFailed';
}

/** How long an instance keeps a photo it works on before another may take it (it died meanwhile). */
const CLAIM_MS = 15 * 60_000;
/** The longest wait between two tries of a photo the storage keeps failing. */
const LONGEST_RETRY_MS = 60 * 60_000;
/** How often each instance looks for photos that came due (retries, another instance's leftovers). */
const LONGEST_POLL_MS = 5_000;

/** The wait before the next try of a photo the storage failed `attempts` times before: doubled each time, at most an hour. */
export function retryDelayMs(firstRetryMs: number, attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, firstRetryMs * 2 ** Math.min(attempts, 20));
}

/**
 * AVIF and WebP copies of each uploaded photo at Strapi's breakpoints, made after the upload has
 * answered and stored through the upload provider beside Strapi's own sizes. Each photo waits as a
 * row of repositories/photo-jobs.ts, so an outage of the storage or a restart loses nothing: one
 * photo at a time per instance (encoding AVIF takes a core for a second or more), a photo the
 * storage failed tried again with a doubling wait, and each photo claimed by one instance. A format
 * that fails to encode is left out and logged (trying again would fail again); the upload itself is
 * never touched.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const jobs = photoJobs(strapi);
  let running: Promise<void> | null = null;
  let poller: NodeJS.Timeout | null = null;
  let stopped = false;

  async function uploadRendition(
    file: PhotoFile,
    key: string,
    mime: string,
    path: string,
    made: { width: number; height: number; bytes: number },
  ) {
    const ext = `.${key.split('_')[0]}`;
    return storeThroughProvider(
      strapi,
      fileOnDisk(path, {
        name: `${key}_${file.name}`,
        hash: `${key}_${file.hash}`,
        ext,
        mime,
        path: null,
        width: made.width,
        height: made.height,
        size: Math.round((made.bytes / 1000) * 100) / 100,
        sizeInBytes: made.bytes,
      }),
    );
  }

  /**
   * The stored original decoded once at the largest rendition size, and the sizes to make; null
   * for a file sharp cannot read. The file's bytes (megabytes for a camera's photo) are let go here.
   */
  async function decodedStored(file: PhotoFile, breakpoints: Record<string, number>) {
    const source = await storedBytes(strapi, file.url);
    const shown = await shownSizeOf(source);
    if (shown === null) return null;
    const sizes = renditionSizes(breakpoints, Math.max(shown.width, shown.height));
    return { decoded: await decodedAt(source, Math.max(...sizes.map(([, pixels]) => pixels))), sizes };
  }

  const breakpointsOf = () => strapi.config.get('plugin::upload.breakpoints', DEFAULT_BREAKPOINTS) as Record<string, number>;

  /** What render() would do to a file, without decoding it (a file sharp cannot read is found out by render). */
  function planFor(file: PhotoFile | null, options: { again?: boolean } = {}): RenditionPlan {
    if (file === null) return 'gone';
    if (file.mime === null || !RENDERABLE.has(file.mime)) return 'skipped';
    // Done when every rendition its size calls for is stored (a service stopped halfway leaves some out).
    const expected =
      file.width && file.height
        ? RENDITION_FORMATS.filter((format) => file.mime !== RENDITION_MIMES[format]).flatMap((format) =>
            renditionSizes(breakpointsOf(), Math.max(file.width as number, file.height as number)).map(([size]) =>
              renditionKey(format, size),
            ),
          )
        : [];
    const existing = Object.keys(file.formats).filter(isRenditionKey);
    return !options.again && existing.length > 0 && expected.every((key) => key in file.formats) ? 'present' : 'make';
  }

  /**
   * Makes the renditions of one file now (the jobs and the one-off photo command call it). Throws
   * StorageFailed when the storage failed to give the original or to take a rendition, after
   * keeping the renditions it did store.
   */
  async function render(id: number, options: { again?: boolean } = {}): Promise<RenditionOutcome> {
    const file = await findPhotoFile(strapi, id);
    const plan = planFor(file, options);
    if (plan !== 'make') return plan;
    if (file === null) return 'gone'; // planFor said so already; this tells the compiler.

    const stored = await decodedStored(file, breakpointsOf()).catch((error: unknown) => {
      throw new StorageFailed(`the original could not be read from the storage: ${(error as Error).message}`);
    });
    if (stored === null) return 'skipped';
    const { decoded, sizes } = stored;
    const folder = await mkdtemp(join(tmpdir(), 'artikel-renditions-'));
    const made: Record<string, Record<string, unknown>> = {};
    let storageFailure: string | null = null;
    // A photo deleted or replaced while its renditions are made stops being worked on.
    const stillCurrent = async () => {
      const now = await findPhotoFile(strapi, id);
      return now !== null && sameVersion(now, file);
    };
    try {
      work: for (const format of RENDITION_FORMATS) {
        if (file.mime === RENDITION_MIMES[format]) continue;
        for (const [size, pixels] of sizes) {
          if (stopped) break work;
          if (!(await stillCurrent())) break work;
          const key = renditionKey(format, size);
          const path = join(folder, `${key}.${format}`);
          let encoded: Awaited<ReturnType<typeof encodeRendition>>;
          try {
            encoded = await encodeRendition(decoded, format, pixels, path);
          } catch (error) {
            strapi.log.warn(
              `artikel: no ${key} rendition of file ${file.id} (${(error as Error).message}); the photo is served without it`,
            );
            continue;
          }
          try {
            made[key] = await uploadRendition(file, key, RENDITION_MIMES[format], path, encoded);
          } catch (error) {
            storageFailure ??= `the storage did not take the ${key} rendition: ${(error as Error).message}`;
          }
        }
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }

    const current = await findPhotoFile(strapi, id);
    const kept = current === null ? {} : Object.fromEntries(Object.entries(current.formats).filter(([key]) => !isRenditionKey(key)));
    const saved = current !== null && sameVersion(current, file) && (await saveFormats(strapi, id, file, { ...kept, ...made }));
    // Renditions of a version that is gone, or that this run replaced, are deleted from the store.
    const orphans = saved
      ? Object.entries(current.formats).filter(([key]) => isRenditionKey(key) && !(key in made) && current.formats[key].url !== undefined)
      : Object.entries(made);
    for (const [, entry] of orphans) {
      try {
        await (strapi.plugin('upload').provider as { delete: (file: unknown) => Promise<void> }).delete(entry);
      } catch (error) {
        strapi.log.warn(`artikel: a rendition left over from file ${id} could not be deleted (${(error as Error).message})`);
      }
    }
    if (storageFailure !== null && current !== null && sameVersion(current, file)) throw new StorageFailed(storageFailure);
    return saved ? 'made' : 'gone';
  }

  /** One photo's job: done and gone, or (the storage failed it) due again after a doubling wait. */
  async function work(job: PhotoJob): Promise<void> {
    try {
      // In a turn at decoding photos, beside the uploads (see infrastructure/photo-turns.ts).
      const slots = getConfig(strapi, 'photoConcurrency');
      await (inPhotoTurn(slots, 'renditions', () => render(job.fileId)) ?? render(job.fileId));
      // Stopped half-way (the service is stopping): what was made is kept, the rest waits for the next start.
      if (stopped) await jobs.release(job);
      else await jobs.finish(job);
    } catch (error) {
      const waitMs = retryDelayMs(getConfig(strapi, 'photoRetrySeconds') * 1000, job.attempts);
      await jobs.retryAt(job, Date.now() + waitMs, (error as Error).message);
      strapi.log.warn(
        `artikel: the renditions of file ${job.fileId} failed (${(error as Error).message}); ` +
          `tried again in ${Math.round(waitMs / 1000)} s (failure ${job.attempts + 1})`,
      );
    }
  }

  /**
   * Works through the photos that are due, one at a time, until none is (a run already going carries
   * on). The run is detached from the upload that started it: another photo's renditions are none of
   * that upload's objects.
   */
  function drain(): void {
    if (running !== null || stopped) return;
    running = detached(async () => {
      while (!stopped) {
        const now = Date.now();
        const job = await jobs.claimDue(now, now + CLAIM_MS);
        if (job === null) return;
        await work(job);
      }
    })
      .catch((error: unknown) => {
        strapi.log.warn(`artikel: the photo renditions paused (${(error as Error).message})`);
      })
      .finally(() => {
        running = null;
      });
  }

  return {
    render,
    /** What render() would do to the file (the photo command's dry run reports it). */
    async plan(id: number, options: { again?: boolean } = {}): Promise<RenditionPlan> {
      return planFor(await findPhotoFile(strapi, id), options);
    },
    /** How many photos wait for their renditions, and how many of them the storage failed. */
    waiting: () => jobs.counts(),
    /** A photo made the one-off way (npm run photos:process) waits no longer. */
    done: (id: number) => jobs.forget(id),
    /** A file waits for its renditions (a new upload, a replaced file): stored, then worked on at once by this instance. */
    async enqueue(id: number): Promise<void> {
      await jobs.add(id, Date.now());
      drain();
    },
    /**
     * Once the service listens (a script or CLI command never works on photos): says how many
     * photos wait, works through them, and looks again for due ones every few seconds.
     */
    start(): void {
      const begin = async () => {
        if (stopped) return;
        const { waiting, failing } = await jobs.counts();
        if (waiting > 0) {
          const failed = failing > 0 ? ` (${failing} of them after a storage failure)` : '';
          strapi.log.info(`artikel: ${waiting} photos wait for their AVIF and WebP renditions${failed}; they are made in the background`);
        }
        poller = setInterval(drain, Math.min(LONGEST_POLL_MS, getConfig(strapi, 'photoRetrySeconds') * 1000));
        poller.unref();
        drain();
      };
      const start = () =>
        void begin().catch((error: unknown) => strapi.log.warn(`artikel: photo renditions not started (${(error as Error).message})`));
      const server = strapi.server.httpServer;
      if (server.listening) start();
      else server.once('listening', start);
    },
    async stop(): Promise<void> {
      stopped = true;
      if (poller !== null) clearInterval(poller);
      poller = null;
      await running;
    },
  };
};
