import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import { endExifTool, keepOnlyPublicTags } from '../../src/plugins/artikel/server/src/infrastructure/exiftool';
import { CAMERA_EXIF } from '../helpers/photos';
import sharp from 'sharp';

let folder: string;
const reader = new ExifTool({ maxProcs: 1 });

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-exif-'));
});

afterAll(async () => {
  await reader.end();
  await endExifTool();
  fs.rmSync(folder, { recursive: true, force: true });
});

it('keeps the capture date in EXIF, where cameras and viewers read it, and no GPS, serial or owner', async () => {
  const file = path.join(folder, 'camera.jpg');
  const pixels = Buffer.alloc(64 * 48 * 3, 128);
  fs.writeFileSync(
    file,
    await sharp(pixels, { raw: { width: 64, height: 48, channels: 3 } })
      .withExif(CAMERA_EXIF)
      .jpeg()
      .toBuffer(),
  );
  await keepOnlyPublicTags(file);
  const tags = (await reader.read(file, { readArgs: ['-G1', '-a'] })) as unknown as Record<string, unknown>;
  const names = Object.keys(tags);
  expect(names).toContain('ExifIFD:DateTimeOriginal');
  expect(String((tags['ExifIFD:DateTimeOriginal'] as { rawValue?: string }).rawValue ?? tags['ExifIFD:DateTimeOriginal'])).toMatch(
    /^2026:03:01 10:20:30/,
  );
  expect(names).toContain('IFD0:Model');
  expect(names.filter((name) => /GPS|Serial|OwnerName/i.test(name))).toEqual([]);
});
