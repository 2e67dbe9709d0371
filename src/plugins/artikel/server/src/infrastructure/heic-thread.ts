import fs from 'node:fs/promises';
import decode from 'heic-decode';
import sharp from 'sharp';

/** A phone photo to turn into a JPEG: where it is, and where the JPEG goes. */
export interface HeicTask {
  input: string;
  output: string;
}

// As good as a camera's own JPEG: the Media Library's renditions are made from it.
const JPEG_QUALITY = 90;

/**
 * Decodes a HEIC photo (HEVC in HEIF, as iPhones take them; the libvips in sharp reads AVIF only)
 * with libheif compiled to WebAssembly, and writes its pixels as a JPEG. Runs on a thread of its
 * own (see heic-photos.ts): the decode is synchronous, half a second and about 150 MB for 12
 * megapixels. The pixels come out as libheif shows them (its rotation applied); metadata is
 * copied afterwards by ExifTool.
 */
export default async function heicToJpeg({ input, output }: HeicTask): Promise<{ width: number; height: number }> {
  const { width, height, data } = await decode({ buffer: await fs.readFile(input) });
  await sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } })
    .jpeg({ quality: JPEG_QUALITY })
    .toFile(output);
  return { width, height };
}
