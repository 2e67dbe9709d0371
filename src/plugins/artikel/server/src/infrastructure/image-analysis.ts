import { encodeBlurhash } from '../utils/blurhash';
import sharp from 'sharp';

/** What a page shows while a photo loads: its BlurHash and its dominant colour. */
export interface PhotoLook {
  placeholder: string | null;
  color: string | null;
}

/** Pixels a placeholder is computed from: a BlurHash of a few components needs no more. */
const SAMPLE_SIZE = 32;

const hex = (channel: number) =>
  Math.max(0, Math.min(255, Math.round(channel)))
    .toString(16)
    .padStart(2, '0');

/**
 * The BlurHash (4×3 components, 3×4 for a portrait photo) and the dominant colour (`#rrggbb`) of
 * the image at `path`, as it is shown (turned by its orientation). sharp decodes in its own threads
 * and shrinks a JPEG while decoding it; the hash itself is computed over 32×32 pixels at most, well
 * under a millisecond of the event loop.
 */
export async function lookOf(path: string): Promise<PhotoLook> {
  const { data, info } = await sharp(path, { failOn: 'none' })
    .rotate()
    .resize(SAMPLE_SIZE, SAMPLE_SIZE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const landscape = info.width >= info.height;
  const placeholder = encodeBlurhash(new Uint8ClampedArray(data), info.width, info.height, landscape ? 4 : 3, landscape ? 3 : 4);
  const { dominant } = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).stats();
  return { placeholder, color: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}` };
}

export type RenditionFormat = 'avif' | 'webp';

export interface EncodedRendition {
  width: number;
  height: number;
  bytes: number;
}

/** An image decoded once, turned by its orientation, as raw sRGB pixels every rendition is made from. */
export interface DecodedImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * The image `source` (a file's bytes) decoded once at the largest size its renditions need (never
 * enlarged): a 24-megapixel JPEG is shrunk while it is decoded, so its renditions cost one decode
 * and a few megabytes, not one full decode each.
 */
export async function decodedAt(source: Buffer, size: number): Promise<DecodedImage> {
  const { data, info } = await sharp(source, { failOn: 'none' })
    .rotate()
    .resize(size, size, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

// AVIF at effort 3, not sharp's default 4: on photo-like 3000×2000 images at the three rendition
// sizes it encoded 4× faster (2.4 s against 9.5 s for four photos) for 6 % more bytes at the same
// quality setting (PSNR within 0.7 dB either way); see bench/README.md, "Photos".
const AVIF_EFFORT = 3;

/**
 * The decoded image resized to fit inside `size`×`size` (never enlarged) and encoded as AVIF or
 * WebP into the file `target`. The output carries no metadata.
 */
export async function encodeRendition(
  image: DecodedImage,
  format: RenditionFormat,
  size: number,
  target: string,
): Promise<EncodedRendition> {
  const resized = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).resize(size, size, {
    fit: 'inside',
    withoutEnlargement: true,
  });
  const encoded = format === 'avif' ? resized.avif({ quality: 55, effort: AVIF_EFFORT }) : resized.webp({ quality: 80 });
  const info = await encoded.toFile(target);
  return { width: info.width, height: info.height, bytes: info.size };
}

/** The longer side of the image as shown, or null when sharp cannot read it. */
export async function shownSizeOf(source: Buffer): Promise<{ width: number; height: number } | null> {
  try {
    const metadata = await sharp(source).metadata();
    if (!metadata.width || !metadata.height) return null;
    const turned = (metadata.orientation ?? 1) >= 5;
    return turned ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
  } catch {
    return null;
  }
}

/** The width and height an image's header states (no pixel decoded); null for a file sharp cannot read. */
export async function pixelsOf(path: string): Promise<{ width: number; height: number } | null> {
  try {
    // Unlimited: a phone's HEIC header (48 item references on an iPhone 15) is past libheif's default
    // security limits, which guard its decoding; the header alone is read here.
    const { width, height } = await sharp(path, { unlimited: true }).metadata();
    return typeof width === 'number' && typeof height === 'number' ? { width, height } : null;
  } catch {
    return null;
  }
}

/**
 * libvips' settings for a service that handles one photo at a time (see photo-renditions.ts): its
 * operation cache bounded (by default it keeps up to 50 MB of decoded images and 100 open files,
 * which a process serving articles gets nothing back from), and its worker threads one per core
 * beyond the event loop's.
 */
export function boundImageMemory(threads: number): void {
  sharp.cache({ memory: 16, files: 0, items: 20 });
  sharp.concurrency(threads);
}
