/**
 * The file types the Media Library accepts: photos only. Anything else (scripts, HTML, SVG, PDF)
 * is refused before it is stored, since a stored file is served from the service's own origin,
 * which is the admin's. UPLOAD_ALLOWED_TYPES (comma-separated MIME types or patterns such as
 * image/*) replaces the list; SVG stays refused unless UPLOAD_ALLOW_SVG=true, since an SVG is a
 * document that can carry script.
 */
export const PHOTO_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/avif',
  'image/gif',
  'image/tiff',
  'image/heic',
  'image/heif',
] as const;

const SVG = 'image/svg+xml';

export interface UploadTypes {
  allowedTypes: string[];
  deniedTypes: string[];
}

/** The upload plugin's `security` setting (Strapi checks the declared, the detected and the extension's type against it). */
export function uploadTypesFromEnv(env: (name: string, fallback?: string) => string): UploadTypes {
  const listed = env('UPLOAD_ALLOWED_TYPES', '')
    .split(',')
    .map((type) => type.trim().toLowerCase())
    .filter((type) => type !== '');
  const allowSvg = env('UPLOAD_ALLOW_SVG', 'false') === 'true';
  return {
    allowedTypes: listed.length > 0 ? listed : [...PHOTO_TYPES],
    deniedTypes: allowSvg ? [] : [SVG],
  };
}
