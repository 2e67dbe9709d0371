/**
 * Object storage for uploads (issue 35): Strapi's S3 upload provider, switched on by S3_BUCKET.
 * Without it uploads stay on the local provider (public/uploads), the nothing-to-start default.
 * Any S3-compatible store works: AWS S3, Cloudflare R2, Backblaze B2, MinIO, Ceph, s3rver.
 */

/** The provider's name as Strapi's upload plugin resolves it (@strapi/provider-upload-aws-s3), and as it writes it in each file's `provider`. */
export const OBJECT_STORAGE_PROVIDER = 'aws-s3';

/**
 * Every object is stored under a key of its own hash, but "Replace media" in the Media Library keeps
 * a file's hash (so its URL does not change): a day of caching, not a year, lets a replaced photo
 * show within a day in browsers and CDNs. S3_CACHE_CONTROL sets another.
 */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=86400';

export interface ObjectStorageSettings {
  bucket: string;
  /** The store's S3 API address (empty: AWS S3 in `region`). */
  endpoint: string;
  region: string;
  /** Path-style URLs (endpoint/bucket/key), as MinIO, Ceph and s3rver need; virtual-hosted style otherwise. */
  forcePathStyle: boolean;
  /** Where browsers fetch objects (a CDN or the bucket's public domain): each file's URL is this plus its key. Empty: the store's own URL. */
  publicUrl: string;
  /** A key prefix for every object (a folder in the bucket), empty for none. */
  rootPath: string;
  /** A canned ACL sent with every object (public-read for buckets that use ACLs); empty sends none, as buckets with ACLs disabled (AWS's default, R2) require. */
  acl: string;
  cacheControl: string;
  /** Both or neither: without them the AWS SDK's own chain (AWS_ACCESS_KEY_ID, an instance role) is used. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

type Env = (name: string, fallback?: string) => string;

const ACLS = new Set([
  'private',
  'public-read',
  'public-read-write',
  'authenticated-read',
  'bucket-owner-read',
  'bucket-owner-full-control',
]);

function absoluteHttpUrl(name: string, value: string): string {
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // Reported below.
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`${name} must be an absolute http(s) URL, not "${value}"`);
  return value.replace(/\/+$/, '');
}

function flag(name: string, value: string): boolean {
  const setting = value.trim().toLowerCase();
  if (setting === '' || setting === 'false') return false;
  if (setting === 'true') return true;
  throw new Error(`${name} must be true or false, not "${value}"`);
}

/** The object-storage settings the environment names, or null when S3_BUCKET is unset (local files). Wrong values stop the start with a message naming the variable. */
export function objectStorageFromEnv(env: Env): ObjectStorageSettings | null {
  const bucket = env('S3_BUCKET', '').trim();
  if (bucket === '') return null;
  const endpoint = env('S3_ENDPOINT', '').trim();
  const accessKeyId = env('S3_ACCESS_KEY_ID', '').trim();
  const secretAccessKey = env('S3_SECRET_ACCESS_KEY', '').trim();
  if ((accessKeyId === '') !== (secretAccessKey === ''))
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS SDK credential chain');
  const acl = env('S3_ACL', '').trim();
  if (acl !== '' && !ACLS.has(acl)) throw new Error(`S3_ACL must be one of ${[...ACLS].join(', ')} or empty, not "${acl}"`);
  const publicUrl = env('S3_PUBLIC_URL', '').trim();
  return {
    bucket,
    endpoint: endpoint === '' ? '' : absoluteHttpUrl('S3_ENDPOINT', endpoint),
    region: env('S3_REGION', '').trim() || 'us-east-1',
    forcePathStyle: flag('S3_FORCE_PATH_STYLE', env('S3_FORCE_PATH_STYLE', '')),
    publicUrl: publicUrl === '' ? '' : absoluteHttpUrl('S3_PUBLIC_URL', publicUrl),
    rootPath: env('S3_ROOT_PATH', '')
      .trim()
      .replace(/^\/+|\/+$/g, ''),
    acl,
    cacheControl: env('S3_CACHE_CONTROL', '').trim() || DEFAULT_CACHE_CONTROL,
    credentials: accessKeyId === '' ? null : { accessKeyId, secretAccessKey },
  };
}

/** The S3 client's options: what the provider and the start-up check both connect with. */
export function s3ClientOptions(settings: ObjectStorageSettings): Record<string, unknown> {
  return {
    region: settings.region,
    ...(settings.endpoint === '' ? {} : { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials === null ? {} : { credentials: settings.credentials }),
  };
}

/** The upload plugin's configuration (config/plugins.ts) for @strapi/provider-upload-aws-s3. */
export function uploadPluginConfig(settings: ObjectStorageSettings): Record<string, unknown> {
  const withCacheControl = { CacheControl: settings.cacheControl };
  return {
    provider: OBJECT_STORAGE_PROVIDER,
    providerOptions: {
      ...(settings.publicUrl === '' ? {} : { baseUrl: settings.publicUrl }),
      ...(settings.rootPath === '' ? {} : { rootPath: settings.rootPath }),
      s3Options: {
        ...s3ClientOptions(settings),
        // ACL present but undefined: the provider then sends no ACL header (absent, it would send public-read).
        params: { Bucket: settings.bucket, ACL: settings.acl === '' ? undefined : settings.acl },
      },
    },
    // The provider passes these to every PutObject; Content-Type is the file's own mime type.
    // (Replacing a file bypasses them: see object-storage-check.ts, which covers every write.)
    actionOptions: { upload: withCacheControl, uploadStream: withCacheControl },
  };
}

/**
 * The origins browsers load uploaded files from, for the admin's Content-Security-Policy (the Media
 * Library shows thumbnails from there): the public URL's, else the endpoint's, else AWS's.
 */
export function objectStorageOrigins(settings: ObjectStorageSettings): string[] {
  if (settings.publicUrl !== '') return [new URL(settings.publicUrl).origin];
  if (settings.endpoint !== '') {
    const origin = new URL(settings.endpoint).origin;
    if (settings.forcePathStyle) return [origin];
    const url = new URL(settings.endpoint);
    return [origin, `${url.protocol}//${settings.bucket}.${url.host}`];
  }
  return [`https://${settings.bucket}.s3.${settings.region}.amazonaws.com`, `https://${settings.bucket}.s3.amazonaws.com`];
}

/** Where the start-up messages say the bucket is, without any credential. */
export function describeStore(settings: ObjectStorageSettings): string {
  return `bucket "${settings.bucket}" at ${settings.endpoint === '' ? `AWS S3 (${settings.region})` : settings.endpoint}`;
}
