import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExifTool, type Tags } from 'exiftool-vendored';
import sharp from 'sharp';
import { registerEditor, type Editor } from './admin';
import { startStrapi, type TestApp } from './strapi';

/** What a photographer's camera writes, private fields included, as the tests put it into files. */
export const CAMERA_EXIF = {
  IFD0: { Make: 'Canon', Model: 'Canon EOS R5', Artist: 'Rita Studio' },
  IFD2: {
    FNumber: '28/10',
    ExposureTime: '1/200',
    ISOSpeedRatings: '400',
    FocalLength: '50/1',
    DateTimeOriginal: '2026:03:01 10:20:30',
    LensModel: 'RF50mm F1.2 L USM',
    BodySerialNumber: '012345678',
    CameraOwnerName: 'Rita Client-Home',
  },
  // Jakarta's Monas: latitude -6.175, longitude 106.817.
  IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '6/1 10/1 3000/100', GPSLongitudeRef: 'E', GPSLongitude: '106/1 49/1 120/100' },
};

/** The `exif` the API must show for a file carrying CAMERA_EXIF. */
export const CAMERA_EXIF_RECORD = {
  camera: 'Canon EOS R5',
  lens: 'RF50mm F1.2 L USM',
  focal_length: 50,
  aperture: 2.8,
  exposure: '1/200',
  iso: 400,
  taken_at: '2026-03-01T10:20:30',
};

export type PhotoFormat = 'jpeg' | 'png' | 'webp';
export const MIME: Record<PhotoFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** A real photo (a colour gradient around `rgb`) in the given format, carrying CAMERA_EXIF unless told not to. */
export async function photoFile(
  format: PhotoFormat,
  width: number,
  height: number,
  rgb: [number, number, number] = [200, 120, 40],
  exif: typeof CAMERA_EXIF | null = CAMERA_EXIF,
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      const shade = ((x + y) % 16) - 8;
      pixels[offset] = Math.max(0, Math.min(255, rgb[0] + shade));
      pixels[offset + 1] = Math.max(0, Math.min(255, rgb[1] + shade));
      pixels[offset + 2] = Math.max(0, Math.min(255, rgb[2] + shade));
    }
  }
  let image = sharp(pixels, { raw: { width, height, channels: 3 } });
  if (exif) image = image.withExif(exif);
  if (format === 'jpeg') return image.jpeg({ quality: 90 }).toBuffer();
  if (format === 'png') return image.png().toBuffer();
  return image.webp({ quality: 90 }).toBuffer();
}

/**
 * libheif's own encoder (`heif-enc`, Debian's libheif-examples), installed from Debian's packages
 * where it is missing and we are root, as scripts/postgres-cluster.sh installs PostgreSQL: sharp's
 * libvips writes no HEVC, and a phone's HEIC photo is HEVC in HEIF.
 */
function heifEncoder(): string {
  const found = (): string | null => {
    try {
      return execFileSync('sh', ['-c', 'command -v heif-enc'], { encoding: 'utf8' }).trim() || null;
    } catch {
      return null;
    }
  };
  const present = found();
  if (present !== null) return present;
  if (process.getuid?.() !== 0)
    throw new Error('heif-enc is missing: install it with `apt-get install libheif-examples` (the HEIC tests encode their photos with it)');
  execFileSync(
    'sh',
    [
      '-c',
      'DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libheif-examples',
    ],
    {
      stdio: 'ignore',
    },
  );
  const installed = found();
  if (installed === null) throw new Error('apt-get install libheif-examples did not give heif-enc');
  return installed;
}

/** A phone's photo: the JPEG of photoFile (CAMERA_EXIF included) encoded as HEIC (HEVC in HEIF) by libheif, EXIF kept. */
export async function heicPhotoFile(width: number, height: number, rgb: [number, number, number] = [200, 120, 40]): Promise<Buffer> {
  const folder = await mkdtemp(join(tmpdir(), 'artikel-heic-'));
  try {
    await writeFile(join(folder, 'photo.jpg'), await photoFile('jpeg', width, height, rgb));
    execFileSync(heifEncoder(), ['-q', '70', '-o', join(folder, 'photo.heic'), join(folder, 'photo.jpg')], { stdio: 'ignore' });
    return await readFile(join(folder, 'photo.heic'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export interface UploadedFile {
  id: number;
  url: string;
  mime: string;
  width: number;
  height: number;
  formats: Record<string, { url: string; width: number; height: number; mime: string }> | null;
}

/** Uploads through the Media Library's own route, as the admin's upload dialog does. */
export async function uploadPhoto(app: TestApp, editor: Editor, name: string, bytes: Buffer, mime: string): Promise<UploadedFile> {
  const response = await editor.signed(app.api().post('/upload')).attach('files', bytes, { filename: name, contentType: mime });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(response.body)}`);
  return (response.body as UploadedFile[])[0];
}

export interface MediaLibrarySettings {
  sizeOptimization: boolean;
  responsiveDimensions: boolean;
  autoOrientation: boolean;
}

/** Sets the Media Library's settings through its own route, as its settings page does. */
export async function setMediaLibrary(editor: Editor, settings: MediaLibrarySettings): Promise<void> {
  await editor.put('/upload/settings', settings).expect(200);
}

/** Every combination of the Media Library's three settings, each with a label for a test's name. */
export function everyMediaLibrarySetting(): Array<[string, MediaLibrarySettings]> {
  const settings: Array<[string, MediaLibrarySettings]> = [];
  const word = (on: boolean) => (on ? 'on' : 'off');
  for (const sizeOptimization of [true, false])
    for (const responsiveDimensions of [true, false])
      for (const autoOrientation of [true, false])
        settings.push([
          `size optimization ${word(sizeOptimization)}, responsive sizes ${word(responsiveDimensions)}, auto orientation ${word(autoOrientation)}`,
          { sizeOptimization, responsiveDimensions, autoOrientation },
        ]);
  return settings;
}

let reader: ExifTool | null = null;

/** Every metadata tag a served file holds, read by ExifTool from the bytes the server sent. */
export async function tagsOfServedFile(app: TestApp, url: string): Promise<Tags> {
  return tagsAt(new URL(url, await app.baseUrl()).toString());
}

/** Every metadata tag of the file at an absolute URL (an object store's, say), read by ExifTool. */
export async function tagsAt(url: string): Promise<Tags> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const folder = await mkdtemp(join(tmpdir(), 'served-photo-'));
  try {
    const path = join(folder, 'file');
    await writeFile(path, Buffer.from(await response.arrayBuffer()));
    reader ??= new ExifTool({ maxProcs: 1, taskTimeoutMillis: 30_000 });
    return await reader.read(path, { ignoreMinorErrors: true });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Tags that tell where a photo was taken or whose camera took it, found anywhere in `tags`. */
export function privateTagsIn(tags: Tags): string[] {
  return Object.keys(tags).filter((name) => /^GPS|SerialNumber|OwnerName/i.test(name));
}

export async function endTagReader(): Promise<void> {
  await reader?.end();
  reader = null;
}

/** Removes the test's uploads, files and records, through the Media Library's own service. */
export async function removeUploads(app: TestApp, ids: number[]): Promise<void> {
  const upload = app.strapi.plugin('upload').service('upload') as { remove: (file: unknown) => Promise<void> };
  for (const id of ids) {
    const file = await app.strapi.db.query('plugin::upload.file').findOne({ where: { id } });
    if (file) await upload.remove(file);
  }
}

/**
 * The app of a test file that uploads photos: started, with an editor registered, before the file's
 * tests (`ready` gets both), and after them its uploads (the ids pushed on the answered list)
 * removed, the tag reader ended and the app stopped.
 */
export function appForPhotoTests(ready: (app: TestApp, editor: Editor) => void): number[] {
  const uploaded: number[] = [];
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startStrapi();
    ready(started, await registerEditor(started));
  }, 120_000);
  afterAll(async () => {
    if (started === undefined) return;
    await removeUploads(started, uploaded);
    await endTagReader();
    await started.stop();
  });
  return uploaded;
}
