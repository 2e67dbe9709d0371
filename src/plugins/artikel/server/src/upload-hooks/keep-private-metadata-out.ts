import { createWriteStream } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createReadStream } from 'node:fs';
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
      await removePrivateMetadata(file);
      return provider.upload.call(extended, file);
    },
    async replace(newFile, oldFile) {
      await removePrivateMetadata(newFile);
      return provider.replace.call(extended, newFile, oldFile);
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

async function removePrivateMetadata(file: FileOnItsWay): Promise<void> {
  if (!isRasterImage(file.mime)) return;
  const path = file.filepath ?? (await writtenToDisk(file));
  if (!(await mayHoldPrivateMetadata(path))) return;
  try {
    await keepOnlyPublicTags(path);
  } catch {
    // ExifTool refused the file (damaged metadata): its pixels, encoded again, carry none at all.
    await reencodeWithoutMetadata(file, path);
    return;
  }
  await sizeFromDisk(file, path);
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

/** A file that came as a stream only, written to a folder of its own so it can be rewritten. */
async function writtenToDisk(file: FileOnItsWay): Promise<string> {
  const folder = file.tmpWorkingDirectory ?? (await mkdtemp(join(tmpdir(), 'artikel-upload-')));
  const path = join(folder, `clean-${file.hash}${file.ext ?? ''}`);
  await pipeline(file.getStream(), createWriteStream(path));
  file.filepath = path;
  file.getStream = () => createReadStream(path);
  return path;
}
