import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { describeStore, s3ClientOptions, type ObjectStorageSettings } from './object-storage';

/** How long each step of the start-up check may take before the start is refused (an endpoint that never answers). */
const PROBE_STEP_MS = 20_000;

/** The part of a file the upload provider reads (Strapi's upload plugin hands it more). */
interface ProviderFile {
  hash: string;
  ext: string;
  mime: string;
  path?: string | null;
  buffer?: Buffer;
  url?: string;
  [key: string]: unknown;
}

type Params = Record<string, unknown> | undefined;

interface UploadProvider {
  upload: (file: ProviderFile, params?: Params) => Promise<void>;
  uploadStream?: (file: ProviderFile, params?: Params) => Promise<void>;
  replace?: (newFile: ProviderFile, oldFile: ProviderFile) => Promise<void>;
  replaceStream?: (newFile: ProviderFile, oldFile: ProviderFile) => Promise<void>;
  delete: (file: ProviderFile) => Promise<void>;
  extend: (methods: Record<string, unknown>) => void;
}

const uploadProvider = (strapi: Core.Strapi) => strapi.plugin('upload').provider as UploadProvider;

/**
 * Every object the service stores carries Cache-Control (and the provider sets Content-Type from the
 * file's mime type). The upload plugin passes its configured actionOptions to upload and uploadStream
 * only when the caller gives no parameters of its own, and never to replace (the Media Library's
 * "Replace media"); each write is therefore given the header here, whoever calls the provider. A
 * replacement is an upload under the same key (the file keeps its hash), then the old object's
 * removal if its URL changed (another extension), as the provider's own replace does.
 */
export function cacheControlOnEveryObject(strapi: Core.Strapi, settings: ObjectStorageSettings): void {
  const provider = uploadProvider(strapi);
  const upload = provider.upload.bind(provider);
  const uploadStream = (provider.uploadStream ?? provider.upload).bind(provider);
  const remove = provider.delete.bind(provider);
  const withHeader = (params: Params) => ({ ...params, CacheControl: settings.cacheControl });
  const replaceWith = (write: typeof upload) => async (newFile: ProviderFile, oldFile: ProviderFile) => {
    await write(newFile, withHeader(undefined));
    if (newFile.url !== oldFile.url) await remove(oldFile);
  };
  provider.extend({
    upload: (file: ProviderFile, params?: Params) => upload(file, withHeader(params)),
    uploadStream: (file: ProviderFile, params?: Params) => uploadStream(file, withHeader(params)),
    replace: replaceWith(upload),
    replaceStream: replaceWith(uploadStream),
  });
}

/** The step's promise, or a rejection naming it after PROBE_STEP_MS. */
function withinTime<T>(step: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_STEP_MS / 1000} s (${step})`)), PROBE_STEP_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** What failed, in words an operator can act on, without anything the error may carry beyond its name, status and message. */
function reason(error: unknown, settings: ObjectStorageSettings): string {
  const failure = error as { name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: unknown }; code?: unknown };
  const status = typeof failure.$metadata?.httpStatusCode === 'number' ? `HTTP ${failure.$metadata.httpStatusCode} ` : '';
  const name = typeof failure.name === 'string' && failure.name !== 'Error' ? `${failure.name}: ` : '';
  const code = typeof failure.code === 'string' ? ` (${failure.code})` : '';
  let message = `${status}${name}${typeof failure.message === 'string' ? failure.message : String(error)}${code}`;
  // A store's message never holds the secret, but nothing is left to chance.
  if (settings.credentials !== null) message = message.split(settings.credentials.secretAccessKey).join('[secret]');
  return message.slice(0, 500);
}

/**
 * Writes a small object through the upload provider (as a photo is written: same key scheme, ACL and
 * headers), reads it back through the S3 API and compares the bytes, then deletes it. Any step that
 * fails stops the start with a message naming the bucket, the endpoint, the step and the store's
 * answer; nothing secret is written.
 */
export async function checkObjectStorage(strapi: Core.Strapi, settings: ObjectStorageSettings): Promise<void> {
  const provider = uploadProvider(strapi);
  const hash = `artikel-start-check-${crypto.randomBytes(8).toString('hex')}`;
  const body = Buffer.from(`start-up check of ${hash}\n`);
  const probe: ProviderFile = { hash, ext: '.txt', mime: 'text/plain', buffer: body, size: body.length / 1024, name: `${hash}.txt` };
  const key = `${settings.rootPath === '' ? '' : `${settings.rootPath}/`}${hash}.txt`;
  // Loaded here, not with the module: a site without object storage never needs the SDK (35 MB of memory).
  const { GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const client = new S3Client(s3ClientOptions(settings));
  const started = Date.now();
  let step = 'write';
  try {
    await withinTime('writing the check object', provider.upload(probe));
    step = 'read';
    const read = await withinTime(
      'reading the check object',
      client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key })).then(async (answer) => ({
        bytes: Buffer.from((await answer.Body?.transformToByteArray()) ?? []),
        contentType: answer.ContentType,
        cacheControl: answer.CacheControl,
      })),
    );
    if (!read.bytes.equals(body))
      throw new Error(`the object read back (${read.bytes.length} bytes) is not the one written (${body.length})`);
    if (read.cacheControl !== settings.cacheControl || read.contentType !== 'text/plain')
      throw new Error(
        `the store kept Cache-Control "${read.cacheControl ?? ''}" and Content-Type "${read.contentType ?? ''}", not the ones sent ("${settings.cacheControl}", "text/plain")`,
      );
    step = 'delete';
    await withinTime('deleting the check object', provider.delete(probe));
  } catch (error) {
    // A check object left behind when only the delete failed is named, so it can be removed by hand.
    // The store's error is not attached: what it holds beyond its message (the request, its
    // signature) is not for logs.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(
      `Uploads are configured for object storage (S3_BUCKET), but the ${describeStore(settings)} failed the start-up check: could not ${step} the check object "${key}": ${reason(error, settings)}. Check S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and the credentials (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY), and that they may write, read and delete objects in the bucket; the service does not start until they can.`,
    );
  } finally {
    client.destroy();
  }
  strapi.log.info(`uploads go to the ${describeStore(settings)} (start-up check: ${Date.now() - started} ms)`);
}

/** With object storage on: every object gets Cache-Control, and the store must pass the start-up check. */
export async function startObjectStorage(strapi: Core.Strapi, settings: ObjectStorageSettings | null): Promise<void> {
  if (settings === null) return;
  cacheControlOnEveryObject(strapi, settings);
  await checkObjectStorage(strapi, settings);
}
