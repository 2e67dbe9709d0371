import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '@strapi/strapi';
import { RENDITION_FORMATS, RENDITION_MIMES, isRenditionKey, renditionKey, renditionSizes } from '../domain/photo-renditions';
import { decodedAt, encodeRendition, shownSizeOf } from '../infrastructure/image-analysis';
import { findPhotoFile, saveFormats, type PhotoFile } from '../repositories/photo-files';
import { fileOnDisk, storeThroughProvider, storedBytes } from '../infrastructure/stored-uploads';

/** Strapi's own breakpoints when the upload plugin's configuration sets none. */
const DEFAULT_BREAKPOINTS = { large: 1000, medium: 750, small: 500 };

/** Images the renditions are made from: what sharp decodes and a browser would show. */
const RENDERABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/tiff']);

export type RenditionOutcome = 'made' | 'present' | 'skipped' | 'gone';

/**
 * AVIF and WebP copies of each uploaded photo at Strapi's breakpoints, made after the upload has
 * answered (one photo at a time per instance: encoding AVIF takes a core for a second or more) and
 * stored through the upload provider beside Strapi's own sizes. A format that fails to encode is
 * left out and logged; the upload itself is never touched.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const waiting: number[] = [];
  const queued = new Set<number>();
  let running: Promise<void> | null = null;
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

  /** Makes the renditions of one file now (the queue and the one-off photo command call it). */
  async function render(id: number, options: { again?: boolean } = {}): Promise<RenditionOutcome> {
    const file = await findPhotoFile(strapi, id);
    if (file === null) return 'gone';
    if (file.mime === null || !RENDERABLE.has(file.mime)) return 'skipped';
    const breakpoints = strapi.config.get('plugin::upload.breakpoints', DEFAULT_BREAKPOINTS) as Record<string, number>;
    // Done when every rendition its size calls for is stored (a service stopped halfway leaves some out).
    const expected =
      file.width && file.height
        ? RENDITION_FORMATS.filter((format) => file.mime !== RENDITION_MIMES[format]).flatMap((format) =>
            renditionSizes(breakpoints, Math.max(file.width as number, file.height as number)).map(([size]) => renditionKey(format, size)),
          )
        : [];
    const existing = Object.keys(file.formats).filter(isRenditionKey);
    if (!options.again && existing.length > 0 && expected.every((key) => key in file.formats)) return 'present';

    const stored = await decodedStored(file, breakpoints);
    if (stored === null) return 'skipped';
    const { decoded, sizes } = stored;
    const folder = await mkdtemp(join(tmpdir(), 'artikel-renditions-'));
    const made: Record<string, Record<string, unknown>> = {};
    // A photo deleted or replaced while its renditions are made stops being worked on.
    const stillCurrent = async () => (await findPhotoFile(strapi, id))?.hash === file.hash;
    try {
      work: for (const format of RENDITION_FORMATS) {
        if (file.mime === RENDITION_MIMES[format]) continue;
        for (const [size, pixels] of sizes) {
          if (stopped) break work;
          if (!(await stillCurrent())) break work;
          const key = renditionKey(format, size);
          try {
            const path = join(folder, `${key}.${format}`);
            const encoded = await encodeRendition(decoded, format, pixels, path);
            made[key] = await uploadRendition(file, key, RENDITION_MIMES[format], path, encoded);
          } catch (error) {
            strapi.log.warn(
              `artikel: no ${key} rendition of file ${file.id} (${(error as Error).message}); the photo is served without it`,
            );
          }
        }
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }

    const current = await findPhotoFile(strapi, id);
    const kept = current === null ? {} : Object.fromEntries(Object.entries(current.formats).filter(([key]) => !isRenditionKey(key)));
    const saved = current !== null && current.hash === file.hash && (await saveFormats(strapi, id, file.hash, { ...kept, ...made }));
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
    return saved ? 'made' : 'gone';
  }

  function drain(): void {
    if (running !== null) return;
    running = (async () => {
      while (waiting.length > 0 && !stopped) {
        const id = waiting.shift() as number;
        queued.delete(id);
        try {
          await render(id);
        } catch (error) {
          strapi.log.warn(
            `artikel: the renditions of file ${id} failed (${(error as Error).message}); run npm run photos:process to try again`,
          );
        }
      }
    })().finally(() => {
      running = null;
    });
  }

  return {
    render,
    /** Queues a file for its renditions (a new upload, a replaced file); files already waiting wait once. */
    enqueue(id: number): void {
      if (stopped || queued.has(id)) return;
      queued.add(id);
      waiting.push(id);
      drain();
    },
    async stop(): Promise<void> {
      stopped = true;
      waiting.length = 0;
      queued.clear();
      await running;
    },
  };
};
