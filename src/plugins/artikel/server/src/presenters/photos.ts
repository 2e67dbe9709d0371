import type { MediaRecord } from '../repositories/articles';

export interface PhotoFormat {
  name: string;
  url: string;
  width: number;
  height: number;
  mime: string | null;
}

/** An image with the smaller copies Strapi generated for it, and a ready `srcset`. */
export interface Photo {
  url: string;
  alt: string;
  caption: string;
  width: number | null;
  height: number | null;
  mime: string | null;
  formats: PhotoFormat[];
  srcset: string;
}

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

/** The photo as the API shows it: absolute URLs, its formats and a `srcset` of every width (the original last). */
export function toPhoto(media: MediaRecord, absolute: (url: string) => string): Photo {
  const url = absolute(media.url);
  const formats = parseFormats(media.formats, absolute);
  const candidates = [
    ...formats.map((format) => ({ url: format.url, width: format.width })),
    ...(media.width !== null ? [{ url, width: media.width }] : []),
  ];
  const widths = new Set<number>();
  const srcset = candidates
    .filter((candidate) => !widths.has(candidate.width) && widths.add(candidate.width))
    .map((candidate) => `${candidate.url} ${candidate.width}w`)
    .join(', ');
  return {
    url,
    alt: media.alternativeText ?? '',
    caption: media.caption ?? '',
    width: media.width,
    height: media.height,
    mime: media.mime,
    formats,
    srcset,
  };
}
