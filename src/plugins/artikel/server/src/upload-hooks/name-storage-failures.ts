import type { Core } from '@strapi/strapi';
import createError from 'http-errors';
import { editorLanguage } from '../infrastructure/editor-language';
import type { ProviderService } from '../infrastructure/upload-files';

interface S3ProviderOptions {
  s3Options?: { endpoint?: unknown; params?: { Bucket?: unknown } };
}

/** The bucket and its address, as the upload plugin's configuration names them; null on the local provider. */
function bucketOf(strapi: Core.Strapi): { bucket: string; endpoint: string } | null {
  const provider = strapi.config.get('plugin::upload.provider') as string | undefined;
  if (provider === undefined || provider === 'local') return null;
  const options = (strapi.config.get('plugin::upload.providerOptions') ?? {}) as S3ProviderOptions;
  const bucket = typeof options.s3Options?.params?.Bucket === 'string' ? options.s3Options.params.Bucket : '(unnamed)';
  const endpoint = typeof options.s3Options?.endpoint === 'string' ? options.s3Options.endpoint : 'AWS S3';
  return { bucket, endpoint };
}

/** What the storage answered, in a few words and without a secret: an error's code or name. */
function whatFailed(error: unknown): string {
  const { code, name, $metadata } = (error ?? {}) as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = typeof $metadata?.httpStatusCode === 'number' ? `HTTP ${$metadata.httpStatusCode} ` : '';
  const label = typeof code === 'string' ? code : typeof name === 'string' ? name : 'an error';
  return `${status}${label}`.slice(0, 120);
}

/** The failure told to an editor, in the admin language they chose (Indonesian or English). */
const STORAGE_FAILED = {
  en: (bucket: string, endpoint: string, failed: string) =>
    `The photo could not be stored: the bucket "${bucket}" at ${endpoint} answered ${failed}. Check that the object storage is running and reachable from the service, and its S3_* settings; nothing of this upload was kept, upload it again once the storage answers`,
  id: (bucket: string, endpoint: string, failed: string) =>
    `Foto tidak dapat disimpan: bucket "${bucket}" di ${endpoint} menjawab ${failed}. Pastikan penyimpanan objek berjalan dan dapat dijangkau dari layanan, dan periksa pengaturan S3_*; tidak ada bagian unggahan ini yang disimpan, unggah lagi setelah penyimpanan menjawab`,
};

/**
 * An upload the object storage refuses or does not answer is a 503 that names the bucket, its
 * address and what failed, with what to check (never a credential), instead of a bare 500: the
 * editor knows it is the storage (in their admin language), and the operator where to look (the
 * log says the same, in English).
 */
export function nameStorageFailures(strapi: Core.Strapi) {
  return (provider: ProviderService): ProviderService => {
    const named = (error: unknown): Error => {
      const bucket = bucketOf(strapi);
      if (bucket === null) return error as Error;
      const failed = whatFailed(error);
      strapi.log.error(`artikel: ${STORAGE_FAILED.en(bucket.bucket, bucket.endpoint, failed)}`);
      const message = STORAGE_FAILED[editorLanguage(strapi) === 'id' ? 'id' : 'en'](bucket.bucket, bucket.endpoint, failed);
      return createError(503, message, { details: { bucket: bucket.bucket } });
    };
    const extended: ProviderService = {
      ...provider,
      async upload(file) {
        try {
          return await provider.upload.call(extended, file);
        } catch (error) {
          throw named(error);
        }
      },
      async replace(newFile, oldFile) {
        try {
          return await provider.replace.call(extended, newFile, oldFile);
        } catch (error) {
          throw named(error);
        }
      },
    };
    return extended;
  };
}
