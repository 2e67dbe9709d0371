import type { Core } from '@strapi/strapi';
import { PHOTO_FILE_FIELDS, UPLOAD_FILE_UID } from '../constants';

/**
 * Adds the plugin's fields to the Media Library's files. Prefixed, so that a field Strapi adds later
 * never meets one of them; hidden from the Media Library's forms (they are read from the file, not
 * typed). Not private: the Document Service refuses to read private fields, and the article reads
 * that populate photos through it need them.
 */
export function addPhotoFileFields(strapi: Core.Strapi): void {
  strapi.get('content-types').extend(UPLOAD_FILE_UID, (contentType: { attributes: Record<string, unknown> }) => {
    const hidden = { configurable: false, visible: false };
    contentType.attributes[PHOTO_FILE_FIELDS.placeholder] = { type: 'string', maxLength: 255, ...hidden };
    contentType.attributes[PHOTO_FILE_FIELDS.color] = { type: 'string', maxLength: 7, ...hidden };
    contentType.attributes[PHOTO_FILE_FIELDS.exif] = { type: 'json', ...hidden };
  });
}
