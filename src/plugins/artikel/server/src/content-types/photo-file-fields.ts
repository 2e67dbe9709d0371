import type { Core } from '@strapi/strapi';
import { PHOTO_FILE_FIELDS, UPLOAD_FILE_UID } from '../constants';

/**
 * Adds the plugin's fields to the Media Library's files. Prefixed, so that a field Strapi adds later
 * never meets one of them; private and hidden, so Strapi's own file answers and forms stay as they
 * were (the article reads serve them in each photo record).
 */
export function addPhotoFileFields(strapi: Core.Strapi): void {
  strapi.get('content-types').extend(UPLOAD_FILE_UID, (contentType: { attributes: Record<string, unknown> }) => {
    const hidden = { private: true, configurable: false, visible: false };
    contentType.attributes[PHOTO_FILE_FIELDS.placeholder] = { type: 'string', maxLength: 255, ...hidden };
    contentType.attributes[PHOTO_FILE_FIELDS.color] = { type: 'string', maxLength: 7, ...hidden };
    contentType.attributes[PHOTO_FILE_FIELDS.exif] = { type: 'json', ...hidden };
  });
}
