import type { Core } from '@strapi/strapi';
import { photoExifOf, type PhotoExif } from '../domain/photo-exif';
import { readTags } from '../infrastructure/exiftool';
import { lookOf, type PhotoLook } from '../infrastructure/image-analysis';
import { PHOTO_FILE_FIELDS } from '../constants';
import type { FileOnItsWay, ImageManipulationService } from '../infrastructure/upload-files';

/**
 * Reads what a photo says about itself while it is uploaded, before Strapi's size optimization
 * encodes it again without its metadata: the camera data photographers show (`exif`), and what a
 * page shows while it loads (`placeholder`, `color`). They are stored on the file's record (see
 * content-types/photo-file-fields.ts) by the upload itself. A photo that cannot be read keeps nulls: the upload
 * goes on.
 */
export function recordPhotoFacts(strapi: Core.Strapi) {
  return (manipulation: ImageManipulationService): ImageManipulationService => ({
    ...manipulation,
    async optimize(file) {
      const exif = file.filepath === undefined ? null : await exifOf(strapi, file.filepath);
      const optimized = await manipulation.optimize(file);
      const look: PhotoLook = optimized.filepath === undefined ? { placeholder: null, color: null } : await looks(strapi, optimized);
      return Object.assign(optimized, {
        [PHOTO_FILE_FIELDS.exif]: exif,
        [PHOTO_FILE_FIELDS.placeholder]: look.placeholder,
        [PHOTO_FILE_FIELDS.color]: look.color,
      });
    },
  });
}

async function exifOf(strapi: Core.Strapi, path: string): Promise<PhotoExif | null> {
  try {
    return photoExifOf((await readTags(path)) as Record<string, unknown>);
  } catch (error) {
    strapi.log.warn(`artikel: the metadata of an upload could not be read (${(error as Error).message}); its exif stays empty`);
    return null;
  }
}

async function looks(strapi: Core.Strapi, file: FileOnItsWay): Promise<PhotoLook> {
  try {
    return await lookOf(file.filepath as string);
  } catch (error) {
    strapi.log.warn(`artikel: no placeholder for ${file.name ?? 'an upload'} (${(error as Error).message})`);
    return { placeholder: null, color: null };
  }
}
