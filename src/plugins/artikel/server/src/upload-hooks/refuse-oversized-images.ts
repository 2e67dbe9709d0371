import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { pixelsOf } from '../infrastructure/image-analysis';
import { getConfig } from '../infrastructure/get-service';
import type { FileOnItsWay, ImageManipulationService } from '../infrastructure/upload-files';

/**
 * Refuses an image of more pixels than ARTIKEL_MAX_MEGAPIXELS (100 by default) with a 400 that
 * names the limit, before anything decodes it: Strapi's first look at an upload (isFaultyImage)
 * decodes every pixel, and a 249 KB PNG of 16,000 × 16,000 took 12 s and 150 MB there. The size is
 * read from the file's header alone.
 */
export function refuseOversizedImages(strapi: Core.Strapi) {
  return (manipulation: ImageManipulationService): ImageManipulationService => ({
    ...manipulation,
    async isFaultyImage(file: FileOnItsWay) {
      refuseIfOversized(strapi, file, file.filepath === undefined ? null : await pixelsOf(file.filepath));
      return (manipulation.isFaultyImage as (file: FileOnItsWay) => Promise<boolean>)(file);
    },
  });
}

/** Throws the 400 that names the pixel limit where an image of this size (null: unknown) is past it. */
export function refuseIfOversized(strapi: Core.Strapi, file: FileOnItsWay, size: { width: number; height: number } | null): void {
  const limit = getConfig(strapi, 'maxMegapixels');
  if (size !== null && size.width * size.height > limit * 1_000_000) {
    const megapixels = Math.round((size.width * size.height) / 100_000) / 10;
    const message = `The image ${file.name ?? ''} is ${megapixels} megapixels (${size.width} × ${size.height}); the Media Library takes at most ${limit} megapixels (ARTIKEL_MAX_MEGAPIXELS): scale it down and upload it again`;
    throw new errors.ValidationError(message.replace('image  is', 'image is'), {
      errors: [{ path: ['files'], message, name: 'ValidationError' }],
    });
  }
}
