import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { errors } from '@strapi/utils';
import sharp from 'sharp';
import { keepOnlyPublicTags } from '../infrastructure/exiftool';
import { isRasterImage, type FileOnItsWay, type ProviderService } from '../infrastructure/upload-files';

/**
 * No stored image carries a GPS position, a serial number or an owner's name, whatever the Media
 * Library's settings and whichever upload provider stores it: every file passes through the upload
 * plugin's provider service on its way into storage (originals, replacements and every smaller copy),
 * and this wraps that service. Its metadata is rewritten by ExifTool without decoding the pixels, so
 * an original uploaded with size optimization off stays the photographer's file but for those fields.
 */
export function keepPrivateMetadataOut(provider: ProviderService): ProviderService {
  const extended: ProviderService = {
    ...provider,
    async upload(file) {
      const done = await removePrivateMetadata(file);
      try {
        return await provider.upload.call(extended, file);
      } finally {
        await done();
      }
    },
    async replace(newFile, oldFile) {
      const done = await removePrivateMetadata(newFile);
      try {
        return await provider.replace.call(extended, newFile, oldFile);
      } finally {
        await done();
      }
    },
  };
  return extended;
}

/** Whether sharp sees metadata in the file that could say where or by whose camera it was taken. */
async function mayHoldPrivateMetadata(path: string): Promise<boolean> {
  try {
    const metadata = await sharp(path).metadata();
    return Boolean(metadata.exif || metadata.xmp || metadata.iptc || metadata.comments?.length);
  } catch {
    // A format sharp does not read (HEIC, say): ExifTool still knows it.
    return true;
  }
}

const nothingToRemove = async () => undefined;

/** Cleans the file before it is stored; the function it answers removes what the cleaning wrote once the file is stored. */
async function removePrivateMetadata(file: FileOnItsWay): Promise<() => Promise<void>> {
  if (!isRasterImage(file.mime)) return nothingToRemove;
  let ownFolder: string | null = null;
  if (file.filepath === undefined) ownFolder = await writtenToDisk(file);
  const done = ownFolder === null ? nothingToRemove : () => rm(ownFolder as string, { recursive: true, force: true });
  const path = file.filepath as string;
  try {
    if (!(await mayHoldPrivateMetadata(path))) return done;
    try {
      await keepOnlyPublicTags(path);
      await sizeFromDisk(file, path);
    } catch {
      // ExifTool refused the file (damaged metadata): its pixels, encoded again, carry none at all.
      await reencodeWithoutMetadata(file, path);
    }
    return done;
  } catch (error) {
    await done();
    throw error;
  }
}

async function reencodeWithoutMetadata(file: FileOnItsWay, path: string): Promise<void> {
  const target = `${path}.clean`;
  try {
    await sharp(path).rotate().toFile(target);
  } catch {
    throw new errors.ApplicationError(
      `"${file.name ?? 'This file'}" cannot be read as an image, so its location data cannot be removed: export the photo again from your photo editor and upload it again.`,
    );
  }
  file.filepath = target;
  file.getStream = () => createReadStream(target);
  await sizeFromDisk(file, target);
}

async function sizeFromDisk(file: FileOnItsWay, path: string): Promise<void> {
  const bytes = (await stat(path)).size;
  file.sizeInBytes = bytes;
  file.size = Math.round((bytes / 1000) * 100) / 100;
}

/** A file that came as a stream only, written to a folder of its own (answered) so it can be rewritten. */
async function writtenToDisk(file: FileOnItsWay): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'artikel-upload-'));
  const path = join(folder, `${file.hash}${file.ext ?? ''}`);
  await pipeline(file.getStream(), createWriteStream(path));
  file.filepath = path;
  file.getStream = () => createReadStream(path);
  return folder;
}
