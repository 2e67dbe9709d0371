import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
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
      await stored(file, (clean) => provider.upload.call(extended, clean));
    },
    async replace(newFile, oldFile) {
      await stored(newFile, (clean) => provider.replace.call(extended, clean, oldFile));
    },
  };
  return extended;
}

// What only the file on disk says; every other field the provider sets (its URL, its metadata) is the stored file's.
const ON_DISK_ONLY = new Set(['filepath', 'getStream']);

/**
 * Stores a copy of the file without its private metadata, and gives the file what storing the copy
 * set (its URL, its size). The file's own bytes are never rewritten: Strapi stores an original while
 * it decodes the same file for the smaller copies (the upload service's uploadImage), and rewriting
 * it meanwhile made that decoding fail ("vipspng: libpng read error").
 */
async function stored(file: FileOnItsWay, store: (clean: FileOnItsWay) => Promise<void>): Promise<void> {
  const { clean, done } = await withoutPrivateMetadata(file);
  try {
    await store(clean);
  } finally {
    await done();
  }
  if (clean === file) return;
  for (const [field, value] of Object.entries(clean)) if (!ON_DISK_ONLY.has(field)) file[field] = value;
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

/**
 * The file to store: the file itself when it can hold no private metadata, else a copy in a folder
 * of its own with only the public tags kept; `done` removes that folder once the copy is stored.
 */
async function withoutPrivateMetadata(file: FileOnItsWay): Promise<{ clean: FileOnItsWay; done: () => Promise<void> }> {
  const untouched = { clean: file, done: nothingToRemove };
  if (!isRasterImage(file.mime)) return untouched;
  // Read where it lies: most files (every smaller copy) hold none, and need no folder.
  if (file.filepath !== undefined && !(await mayHoldPrivateMetadata(file.filepath))) return untouched;
  const folder = await mkdtemp(join(tmpdir(), 'artikel-upload-'));
  const done = () => rm(folder, { recursive: true, force: true });
  try {
    const path = join(folder, `${file.hash}${file.ext ?? ''}`);
    if (file.filepath !== undefined) await copyFile(file.filepath, path);
    else {
      // A file that came as a stream only is written down first.
      await pipeline(file.getStream(), createWriteStream(path));
      if (!(await mayHoldPrivateMetadata(path))) {
        await done();
        return untouched;
      }
    }
    let cleanPath = path;
    try {
      await keepOnlyPublicTags(path);
    } catch {
      // ExifTool refused the file (damaged metadata): its pixels, encoded again, carry none at all.
      cleanPath = await reencodedWithoutMetadata(file, path);
    }
    const bytes = (await stat(cleanPath)).size;
    const clean: FileOnItsWay = {
      ...file,
      filepath: cleanPath,
      getStream: () => createReadStream(cleanPath),
      sizeInBytes: bytes,
      size: Math.round((bytes / 1000) * 100) / 100,
    };
    return { clean, done };
  } catch (error) {
    await done();
    throw error;
  }
}

async function reencodedWithoutMetadata(file: FileOnItsWay, path: string): Promise<string> {
  const target = `${path}.clean`;
  try {
    await sharp(path).rotate().toFile(target);
  } catch {
    throw new errors.ApplicationError(
      `"${file.name ?? 'This file'}" cannot be read as an image, so its location data cannot be removed: export the photo again from your photo editor and upload it again.`,
    );
  }
  return target;
}
