import { AsyncLocalStorage } from 'node:async_hooks';
import type { Core } from '@strapi/strapi';
import type { FileOnItsWay, ProviderService, UploadService } from '../infrastructure/upload-files';
import { holdsStoredObject } from '../repositories/photo-files';

/** The objects one upload (or replace) stored, and the storing still under way. */
interface UploadScope {
  stored: FileOnItsWay[];
  underWay: Array<Promise<unknown>>;
}

const currentUpload = new AsyncLocalStorage<UploadScope>();

/**
 * Records each object the provider stores during an upload (see cleanUpFailedUploads); outside
 * an upload (the renditions, the photo command) nothing is recorded.
 */
export function recordStoredObjects(provider: ProviderService): ProviderService {
  const recording: ProviderService = {
    ...provider,
    async upload(file) {
      const scope = currentUpload.getStore();
      const storing = provider.upload.call(recording, file);
      scope?.underWay.push(storing);
      await storing;
      scope?.stored.push(file);
    },
  };
  return recording;
}

/**
 * An upload that fails half-way (the storage went away between the original and its sizes) leaves
 * no object behind: Strapi stores a photo's original, thumbnail and sizes at once and gives up at
 * the first failure, so once everything under way has settled, each object of this upload that no
 * Media Library file holds is deleted. The editor then uploads it again into a clean bucket.
 */
export function cleanUpFailedUploads(strapi: Core.Strapi) {
  const deleteOrphans = async (scope: UploadScope): Promise<void> => {
    await Promise.allSettled(scope.underWay);
    const provider = strapi.plugin('upload').provider as { delete: (file: unknown) => Promise<void> };
    for (const file of scope.stored) {
      try {
        if (await holdsStoredObject(strapi, file.hash)) continue;
        await provider.delete(file);
      } catch (error) {
        strapi.log.warn(
          `artikel: ${String(file.url ?? file.hash)} of a failed upload could not be deleted from the storage (${(error as Error).message})`,
        );
      }
    }
  };
  const cleaned =
    <Args extends unknown[]>(run: (...args: Args) => Promise<unknown>) =>
    (...args: Args): Promise<unknown> => {
      const scope: UploadScope = { stored: [], underWay: [] };
      return currentUpload.run(scope, async () => {
        try {
          return await run(...args);
        } catch (error) {
          await deleteOrphans(scope);
          throw error;
        }
      });
    };
  return (service: UploadService): UploadService => ({
    ...service,
    upload: cleaned(service.upload.bind(service)),
    replace: cleaned(service.replace.bind(service)),
  });
}
