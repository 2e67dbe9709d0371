import type { Core } from '@strapi/strapi';
import { photoExifOf } from '../domain/photo-exif';
import { readTags } from '../infrastructure/exiftool';
import { lookOf } from '../infrastructure/image-analysis';
import { fileOnDisk, storeThroughProvider, storedBytes, withTemporaryFile } from '../infrastructure/stored-uploads';
import { photoFilesAfter, savePhotoFacts, type PhotoFile } from '../repositories/photo-files';
import { getService } from '../infrastructure/get-service';

/** Tags that say where a photo was taken or whose camera took it. */
const PRIVATE_TAG = /^GPS|SerialNumber|OwnerName/i;

const PAGE = 50;

export interface StoredPhotosReport {
  files: number;
  /** Stored files (originals or sizes) that carried private metadata: cleaned, or that would be on a dry run. */
  cleaned: number;
  /** Photos given their placeholder, colour and camera data. */
  described: number;
  /** Photos given their AVIF and WebP renditions (on a dry run: that would be). */
  rendered: number;
  failed: number;
  /** Photos waiting for the service to make their renditions (after a storage failure, or not yet started). */
  waiting: number;
}

export interface StoredPhotosOptions {
  dryRun?: boolean;
  /** Describe and render again photos that were already done. */
  again?: boolean;
  progress?: (line: string) => void;
}

/**
 * The one-off pass over photos uploaded before this plugin cleaned and described uploads (or brought
 * in by a data transfer, which writes files without the upload hooks): each stored file of each
 * image loses its private metadata, each photo gets its placeholder, colour and camera data (read
 * before cleaning), and its AVIF and WebP renditions. Safe to run again: done work is skipped.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  /** The stored files of a photo: the original first, then each of its formats. */
  const storedFilesOf = (file: PhotoFile) => [
    { url: file.url, hash: file.hash, ext: file.ext, mime: file.mime, name: file.name },
    ...Object.values(file.formats).flatMap((format) =>
      typeof format.url === 'string' && typeof format.hash === 'string'
        ? [
            {
              url: format.url,
              hash: format.hash,
              ext: (format.ext as string | undefined) ?? null,
              mime: (format.mime as string | undefined) ?? null,
              name: String(format.name ?? file.name),
            },
          ]
        : [],
    ),
  ];

  async function processOne(file: PhotoFile, options: StoredPhotosOptions, report: StoredPhotosReport): Promise<void> {
    const describe = options.again || file.placeholder === null;
    for (const [index, stored] of storedFilesOf(file).entries()) {
      const bytes = await storedBytes(strapi, stored.url);
      await withTemporaryFile(bytes, `${stored.hash}${stored.ext ?? ''}`, async (path) => {
        const tags = (await readTags(path)) as Record<string, unknown>;
        const original = index === 0;
        if (original && describe) {
          report.described += 1;
          if (!options.dryRun) {
            const look = await lookOf(path).catch(() => ({ placeholder: null, color: null }));
            await savePhotoFacts(strapi, file.id, { ...look, exif: photoExifOf(tags) });
          }
        }
        if (!Object.keys(tags).some((tag) => PRIVATE_TAG.test(tag))) return;
        report.cleaned += 1;
        options.progress?.(`${options.dryRun ? 'would clean' : 'cleaning'} ${stored.url}`);
        if (options.dryRun) return;
        // Stored again under its own name through the provider service, whose privacy hook cleans it.
        await storeThroughProvider(
          strapi,
          fileOnDisk(path, { name: stored.name, hash: stored.hash, ext: stored.ext ?? '', mime: stored.mime ?? undefined, path: null }),
        );
      });
    }
    const renditions = getService(strapi, 'photo-renditions');
    if (options.dryRun) {
      if ((await renditions.plan(file.id, { again: options.again })) === 'make') report.rendered += 1;
      return;
    }
    const outcome = await renditions.render(file.id, { again: options.again });
    await renditions.done(file.id);
    if (outcome === 'made') report.rendered += 1;
  }

  return {
    async processAll(options: StoredPhotosOptions = {}): Promise<StoredPhotosReport> {
      const report: StoredPhotosReport = { files: 0, cleaned: 0, described: 0, rendered: 0, failed: 0, waiting: 0 };
      for (let after = 0; ;) {
        const page = await photoFilesAfter(strapi, after, PAGE);
        if (page.length === 0) {
          report.waiting = (await getService(strapi, 'photo-renditions').waiting()).waiting;
          return report;
        }
        for (const file of page) {
          after = file.id;
          report.files += 1;
          try {
            await processOne(file, options, report);
          } catch (error) {
            report.failed += 1;
            options.progress?.(`file ${file.id} (${file.url}) failed: ${(error as Error).message}`);
          }
        }
      }
    },
  };
};
