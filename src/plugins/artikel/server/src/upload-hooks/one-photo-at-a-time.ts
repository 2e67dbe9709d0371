import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getConfig } from '../infrastructure/get-service';
import { inPhotoTurn } from '../infrastructure/photo-turns';
import type { UploadService } from '../infrastructure/upload-files';

const tooManyWaiting = (): errors.RateLimitError =>
  new errors.RateLimitError('Too many of your photos are waiting to be processed; upload the next ones once these are in.', {
    retryAfterSeconds: 30,
  });

/**
 * Uploads take turns at decoding photos (ARTIKEL_PHOTO_CONCURRENCY at once per instance, default
 * 1; see infrastructure/photo-turns.ts), so six photos dropped together are processed one after the
 * other in bounded memory instead of all at once; each editor's (or token's) uploads wait in a line
 * of their own.
 */
export function onePhotoAtATime(strapi: Core.Strapi) {
  const inTurn = <T>(uploader: unknown, work: () => Promise<T>): Promise<T> => {
    const turn = inPhotoTurn(getConfig(strapi, 'photoConcurrency'), `uploader:${String(uploader ?? 'token')}`, work);
    if (turn === null) throw tooManyWaiting();
    return turn;
  };
  return (service: UploadService): UploadService => ({
    ...service,
    upload: (input, options) => inTurn(options?.user?.id, () => service.upload(input, options)),
    replace: (id, input, options) => inTurn(options?.user?.id, () => service.replace(id, input, options)),
  });
}
