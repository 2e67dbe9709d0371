/**
 * The AVIF and WebP copies of an uploaded photo. They are stored among the file's Strapi `formats`
 * (keyed `avif_large`, `webp_small`, …), so that every upload provider stores them like the sizes
 * Strapi makes, and the Media Library deletes them with the file.
 */
export const RENDITION_FORMATS = ['avif', 'webp'] as const;
export type RenditionFormat = (typeof RENDITION_FORMATS)[number];

/** Mime types of the renditions, in the order a `<picture>` lists its sources: smallest files first. */
export const RENDITION_MIMES: Record<RenditionFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

export const renditionKey = (format: RenditionFormat, size: string): string => `${format}_${size}`;

const RENDITION_KEY = /^(avif|webp)_[a-z0-9]+$/i;

/** Whether a `formats` key names one of this plugin's renditions rather than one of Strapi's sizes. */
export const isRenditionKey = (key: string): boolean => RENDITION_KEY.test(key);

/** The key a photo too small for any breakpoint gets its one rendition under. */
export const FULL_SIZE = 'full';

/**
 * The sizes to encode a photo of the given longer side at: each breakpoint it is larger than (as
 * Strapi picks its own sizes), or its own size when it is larger than none.
 */
export function renditionSizes(breakpoints: Record<string, number>, longerSide: number): Array<[string, number]> {
  const smaller = Object.entries(breakpoints).filter(([, size]) => Number.isFinite(size) && size > 0 && size < longerSide);
  return smaller.length > 0 ? smaller : [[FULL_SIZE, longerSide]];
}
