import type { ExifTool, Tags } from 'exiftool-vendored';

/**
 * The one ExifTool process of this service (started on first use, kept open, ended at stop).
 * ExifTool runs in a child process, so reading and rewriting a photo's metadata never holds the
 * event loop; it is also the one tool that rewrites metadata of JPEG, PNG, WebP, TIFF, HEIC and
 * AVIF files without decoding their pixels, which keeps a photographer's original untouched.
 */
let exiftool: ExifTool | null = null;

const TASK_TIMEOUT_MS = 60_000;

async function tool(): Promise<ExifTool> {
  // Loaded on the first photo, not with the module: a start that handles none never needs it.
  const { ExifTool: Tool } = await import('exiftool-vendored');
  exiftool ??= new Tool({
    maxProcs: 1,
    taskTimeoutMillis: TASK_TIMEOUT_MS,
    // The time a photo was taken is shown as the camera wrote it: no zone guessed from its GPS position.
    inferTimezoneFromDatestamps: false,
    geolocation: false,
  });
  return exiftool;
}

/**
 * What a photo may keep in its file once stored: what photographers show (camera, lens, exposure,
 * when), their credit, and what its pixels need to look right (orientation, colour profile).
 * Everything else goes: GPS in any form (EXIF, XMP, IPTC), serial numbers, owner names, maker notes.
 */
const KEPT_TAGS = [
  'ICC_Profile',
  'Orientation',
  'ColorSpace',
  'Make',
  'Model',
  'LensMake',
  'LensModel',
  'FocalLength',
  'FNumber',
  'ExposureTime',
  'ISO',
  // Named by group: unqualified, ExifTool copies the capture date through its MWG composite into
  // XMP (photoshop:DateCreated) only, and the EXIF date cameras and viewers read is gone.
  'EXIF:DateTimeOriginal',
  'EXIF:OffsetTimeOriginal',
  'Artist',
  'Copyright',
] as const;

/** Every metadata tag of the file at `path`. */
export async function readTags(path: string): Promise<Tags> {
  return (await tool()).read(path, { ignoreMinorErrors: true });
}

/** Rewrites the file at `path` in place with only the public tags kept; its image data is not touched. */
export async function keepOnlyPublicTags(path: string): Promise<void> {
  await (await tool()).write(path, {}, { writeArgs: ['-all=', ...KEPT_TAGS.map((tag) => `-${tag}<${tag}`), '-overwrite_original'] });
}

/**
 * Copies every tag of the photo at `source` (and its colour profile, which ExifTool copies only
 * when named) into the file at `target`, whose pixels were decoded from it: a phone photo made a
 * JPEG keeps its camera, exposure and capture date (the stored file then loses what is private, as
 * every upload does). A HEIF rotation (its `irot` box, which ExifTool reads as Rotation) is already
 * applied to the decoded pixels, so the copy's EXIF orientation is then upright; without one, the
 * EXIF orientation is what turns the pixels, and is kept.
 */
export async function copyPhotoTags(source: string, target: string): Promise<void> {
  const rotation = (await readTags(source)).Rotation as unknown;
  const rotated = rotation !== undefined && rotation !== null && !/^(0|Horizontal|Rotate 0)/i.test(String(rotation));
  await (
    await tool()
  ).write(
    target,
    {},
    { writeArgs: ['-tagsFromFile', source, '-all:all', '-ICC_Profile', ...(rotated ? ['-Orientation#=1'] : []), '-overwrite_original'] },
  );
}

/** Ends the ExifTool process, if one was started. */
export async function endExifTool(): Promise<void> {
  const running = exiftool;
  exiftool = null;
  await running?.end();
}
