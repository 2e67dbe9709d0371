import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { heicToJpeg, isHeicFile } from '../infrastructure/heic-photos';
import { pixelsOf } from '../infrastructure/image-analysis';
import { refuseIfOversized } from './refuse-oversized-images';
import type { FileOnItsWay, ImageManipulationService } from '../infrastructure/upload-files';

/**
 * Turns a phone's HEIC photo into a JPEG as it enters the Media Library: the libvips in sharp
 * reads no HEVC, so Strapi would store the HEIC as a plain file, without size, renditions,
 * placeholder or camera data, and no browser but Safari shows it. Strapi's first look at an upload
 * is `isImage`; from there on every step (the pixel limit, the camera data, the optimization, the
 * renditions, the provider) sees the JPEG, named as the photo with `.jpg`. Recognized by its bytes
 * (the HEIF brand), whatever its name or declared type.
 */
export function convertPhonePhotos(strapi: Core.Strapi) {
  return (manipulation: ImageManipulationService): ImageManipulationService => ({
    ...manipulation,
    async isImage(file: FileOnItsWay) {
      if (file.filepath !== undefined && (await isHeicFile(file.filepath))) {
        // The pixel limit before the decode, from the header: the decode holds every pixel.
        refuseIfOversized(strapi, file, await pixelsOf(file.filepath));
        await becomeJpeg(file, file.filepath);
      }
      return (manipulation.isImage as (file: FileOnItsWay) => Promise<boolean>)(file);
    },
  });
}

async function becomeJpeg(file: FileOnItsWay, heicPath: string): Promise<void> {
  const jpegPath = path.join(file.tmpWorkingDirectory ?? path.dirname(heicPath), `${file.hash}.jpg`);
  await heicToJpeg(heicPath, jpegPath);
  const bytes = (await fs.promises.stat(jpegPath)).size;
  const name = typeof file.name === 'string' ? file.name.replace(/\.(heic|heif|hif|jpe?g)$/i, '') : file.hash;
  Object.assign(file, {
    filepath: jpegPath,
    getStream: () => fs.createReadStream(jpegPath),
    name: `${name}.jpg`,
    ext: '.jpg',
    mime: 'image/jpeg',
    sizeInBytes: bytes,
    size: Math.round((bytes / 1000) * 100) / 100,
  });
}
