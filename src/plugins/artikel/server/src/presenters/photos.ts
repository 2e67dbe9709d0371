import { parseStoredExif, type PhotoExif } from '../domain/photo-exif';
import { RENDITION_FORMATS, RENDITION_MIMES, isRenditionKey } from '../domain/photo-renditions';
import type { MediaRecord } from '../repositories/articles';

export interface PhotoFormat {
  name: string;
  url: string;
  width: number;
  height: number;
  mime: string | null;
}

/** One `<source>` of a `<picture>`: a type and the widths it comes in. */
export interface PhotoSource {
  type: string;
  srcset: string;
}

/** An image with the smaller copies Strapi generated for it, and a ready `srcset`. */
export interface Photo {
  url: string;
  alt: string;
  caption: string;
  width: number | null;
  height: number | null;
  /** Width over height, to four decimals (a box of the right shape before the photo loads); null when unknown. */
  aspect_ratio: number | null;
  mime: string | null;
  formats: PhotoFormat[];
  srcset: string;
  /** AVIF, then WebP, then the original's type: a `<picture>`'s sources in the order a browser should try them. */
  sources: PhotoSource[];
  /** A BlurHash to paint while the photo loads; null until known. */
  placeholder: string | null;
  /** The dominant colour, `#rrggbb`; null until known. */
  color: string | null;
  /** Camera data from the file; null when it has none or the editor hid it. */
  exif: PhotoExif | null;
}

const COLOR = /^#[0-9a-f]{6}$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const whole = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null;

/** Strapi's generated formats (thumbnail, small, medium, large), parsed, smallest first; anything malformed is left out. */
export function parseFormats(formats: unknown, absolute: (url: string) => string): PhotoFormat[] {
  let parsed: unknown = formats;
  if (typeof formats === 'string') {
    try {
      parsed = JSON.parse(formats) as unknown;
    } catch {
      return [];
    }
  }
  if (!isRecord(parsed)) return [];
  return Object.entries(parsed)
    .flatMap(([name, format]) => {
      if (!isRecord(format) || typeof format.url !== 'string') return [];
      const width = whole(format.width);
      const height = whole(format.height);
      if (width === null || height === null) return [];
      return [{ name, url: absolute(format.url), width, height, mime: typeof format.mime === 'string' ? format.mime : null }];
    })
    .sort((a, b) => a.width - b.width);
}

/** A `srcset` of the candidates, each width once, in the order given. */
function srcsetOf(candidates: Array<{ url: string; width: number }>): string {
  const widths = new Set<number>();
  return candidates
    .filter((candidate) => !widths.has(candidate.width) && widths.add(candidate.width))
    .map((candidate) => `${candidate.url} ${candidate.width}w`)
    .join(', ');
}

/**
 * The photo as the API shows it: absolute URLs, Strapi's formats and a `srcset` of every width (the
 * original last), the AVIF and WebP renditions as `<picture>` sources, and what to show while it
 * loads. `hideExif`: the article's editor chose not to show the camera data.
 */
export function toPhoto(media: MediaRecord, absolute: (url: string) => string, options: { hideExif?: boolean } = {}): Photo {
  const url = absolute(media.url);
  const allFormats = parseFormats(media.formats, absolute);
  const formats = allFormats.filter((format) => !isRenditionKey(format.name));
  const srcset = srcsetOf([
    ...formats.map((format) => ({ url: format.url, width: format.width })),
    ...(media.width !== null ? [{ url, width: media.width }] : []),
  ]);
  const renditions = allFormats.filter((format) => isRenditionKey(format.name));
  const sources = RENDITION_FORMATS.flatMap((format) => {
    const ofType = renditions.filter((rendition) => rendition.mime === RENDITION_MIMES[format]);
    return ofType.length === 0 ? [] : [{ type: RENDITION_MIMES[format], srcset: srcsetOf(ofType) }];
  });
  if (media.mime !== null && srcset !== '' && !sources.some((source) => source.type === media.mime)) {
    sources.push({ type: media.mime, srcset });
  }
  const color = typeof media.color === 'string' && COLOR.test(media.color) ? media.color : null;
  return {
    url,
    alt: media.alternativeText ?? '',
    caption: media.caption ?? '',
    width: media.width,
    height: media.height,
    aspect_ratio: media.width && media.height ? Math.round((media.width / media.height) * 10_000) / 10_000 : null,
    mime: media.mime,
    formats,
    srcset,
    sources,
    placeholder: typeof media.placeholder === 'string' && media.placeholder !== '' ? media.placeholder : null,
    color,
    exif: options.hideExif ? null : parseStoredExif(media.exif),
  };
}
