import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import { cleanUpFailedUploads, recordStoredObjects } from './clean-up-failed-uploads';
import { convertPhonePhotos } from './convert-phone-photos';
import { onePhotoAtATime } from './one-photo-at-a-time';
import { keepPrivateMetadataOut } from './keep-private-metadata-out';
import { recordPhotoFacts } from './record-photo-facts';
import { refuseOversizedImages } from './refuse-oversized-images';
import { nameStorageFailures } from './name-storage-failures';
import { boundImageMemory } from '../infrastructure/image-analysis';
import os from 'node:os';

/**
 * What happens to a photo on its way into the Media Library, in order: a phone's HEIC photo becomes
 * a JPEG (convert-phone-photos), one larger than the pixel limit is refused before anything decodes
 * it (refuse-oversized-images), its camera data, placeholder and colour are read
 * (record-photo-facts), every stored file loses its private metadata (keep-private-metadata-out),
 * uploads take turns at decoding photos (one-photo-at-a-time), a storage failure is named
 * (name-storage-failures) and an upload that fails half-way leaves no object in the store
 * (clean-up-failed-uploads); once the upload has answered, its AVIF and WebP renditions are made
 * (the photo-renditions service). Each hook extends one of the upload plugin's own services
 * through Strapi's service registry, so every way into the Media Library passes it: the admin's
 * upload dialog, the REST upload route, a replaced file.
 */
export function registerUploadHooks(strapi: Core.Strapi): void {
  const services = strapi.get('services');
  services.extend('plugin::upload.image-manipulation', convertPhonePhotos(strapi) as (service: unknown) => unknown);
  services.extend('plugin::upload.image-manipulation', refuseOversizedImages(strapi) as (service: unknown) => unknown);
  services.extend('plugin::upload.image-manipulation', recordPhotoFacts(strapi) as (service: unknown) => unknown);
  boundImageMemory(Math.max(1, os.availableParallelism() - 1));
  services.extend('plugin::upload.provider', keepPrivateMetadataOut as (service: unknown) => unknown);
  services.extend('plugin::upload.provider', nameStorageFailures(strapi) as (service: unknown) => unknown);
  services.extend('plugin::upload.provider', recordStoredObjects as (service: unknown) => unknown);
  services.extend('plugin::upload.upload', cleanUpFailedUploads(strapi) as (service: unknown) => unknown);
  services.extend('plugin::upload.upload', onePhotoAtATime(strapi) as (service: unknown) => unknown);
}

/**
 * Each new or replaced photo waits for its renditions, and the photos left waiting (by an outage
 * of the storage, a restart) are worked on (bootstrap: the event hub runs by then).
 */
export function renderUploadedPhotos(strapi: Core.Strapi): void {
  const renditions = getService(strapi, 'photo-renditions');
  const queue = async (...events: unknown[]) => {
    const id = Number((events[0] as { media?: { id?: unknown } } | undefined)?.media?.id);
    if (!Number.isInteger(id) || id <= 0) return;
    await renditions.enqueue(id).catch((error: unknown) => {
      strapi.log.warn(
        `artikel: file ${id} could not wait for its renditions (${(error as Error).message}); npm run photos:process makes them`,
      );
    });
  };
  strapi.eventHub.on('media.create', queue);
  strapi.eventHub.on('media.update', queue);
  renditions.start();
}
