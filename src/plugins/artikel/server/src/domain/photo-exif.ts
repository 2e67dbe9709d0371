/**
 * The photo data photographers like to show, as the API serves it in each photo record's `exif`:
 * each field null when the file does not say. Parsed from the tags ExifTool read (its printed
 * values: "50.0 mm", "1/200", an ExifDateTime object or "2026:03:01 10:20:30").
 */
export interface PhotoExif {
  camera: string | null;
  lens: string | null;
  /** Millimetres. */
  focal_length: number | null;
  /** The f-number: 2.8 for f/2.8. */
  aperture: number | null;
  /** Seconds as photographers write them: "1/200", "2", "0.5". */
  exposure: string | null;
  iso: number | null;
  /** ISO 8601, with the zone only when the camera recorded one. */
  taken_at: string | null;
}

/** Longest text field kept: camera and lens names are far shorter; anything longer is not a name. */
const MAX_TEXT = 100;

const text = (value: unknown): string | null => {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  // Control characters and runs of spaces say nothing; a name of them is no name.
  const cleaned = String(value)
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned === '' || cleaned.length > MAX_TEXT ? null : cleaned;
};

/** A positive finite number from a number or the leading number of a text ("50.0 mm" → 50). */
const positive = (value: unknown): number | null => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(parsed) && parsed > 0 && parsed < 1e6 ? parsed : null;
};

/** The camera's name: "Canon" + "Canon EOS R5" is "Canon EOS R5", "SONY" + "ILCE-7M4" is "SONY ILCE-7M4". */
function cameraName(make: string | null, model: string | null): string | null {
  if (model === null) return make;
  if (make === null || model.toLowerCase().startsWith(make.toLowerCase())) return model;
  return text(`${make} ${model}`);
}

/** "1/200", "2" or "0.5": an exposure time in seconds, as written or from a number of seconds. */
function exposureTime(value: unknown): string | null {
  if (typeof value === 'string' && /^\d{1,6}(?:\.\d{1,6})?(?:\/\d{1,6})?$/.test(value.trim())) return value.trim();
  const seconds = positive(value);
  if (seconds === null) return null;
  if (seconds >= 1) return String(Math.round(seconds * 10) / 10);
  return `1/${Math.round(1 / seconds)}`;
}

const DATE_TIME = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;
const ZONE = /^[+-]\d{2}:\d{2}$/;

/** When the photo was taken: the camera's local time, with its recorded zone when there is one. */
function takenAt(dateTime: unknown, offset: unknown): string | null {
  const raw =
    typeof dateTime === 'string'
      ? dateTime
      : typeof dateTime === 'object' && dateTime !== null && 'rawValue' in dateTime
        ? (dateTime as { rawValue?: unknown }).rawValue
        : null;
  if (typeof raw !== 'string') return null;
  const match = DATE_TIME.exec(raw.trim());
  if (match === null) return null;
  const [, year, month, day, hour, minute, second] = match;
  const local = `${year}-${month}-${day}T${hour}:${minute}:${second}`;
  if (Number.isNaN(Date.parse(`${local}Z`)) || year === '0000') return null;
  return typeof offset === 'string' && ZONE.test(offset.trim()) ? `${local}${offset.trim()}` : local;
}

/** The record of a file's tags; null when none of its fields is known. */
export function photoExifOf(tags: Record<string, unknown>): PhotoExif | null {
  const iso = positive(tags.ISO);
  const exif: PhotoExif = {
    camera: cameraName(text(tags.Make), text(tags.Model)),
    lens: text(tags.LensModel) ?? text(tags.Lens),
    focal_length: positive(tags.FocalLength),
    aperture: positive(tags.FNumber),
    exposure: exposureTime(tags.ExposureTime),
    iso: iso === null ? null : Math.round(iso),
    taken_at: takenAt(tags.DateTimeOriginal, tags.OffsetTimeOriginal),
  };
  return Object.values(exif).every((value) => value === null) ? null : exif;
}

/** A stored `exif` value (an object, or JSON text on some stores) parsed back; anything malformed is null. */
export function parseStoredExif(stored: unknown): PhotoExif | null {
  let value: unknown = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const textOrNull = (field: unknown) => (typeof field === 'string' ? field : null);
  const numberOrNull = (field: unknown) => (typeof field === 'number' && Number.isFinite(field) ? field : null);
  return {
    camera: textOrNull(record.camera),
    lens: textOrNull(record.lens),
    focal_length: numberOrNull(record.focal_length),
    aperture: numberOrNull(record.aperture),
    exposure: textOrNull(record.exposure),
    iso: numberOrNull(record.iso),
    taken_at: textOrNull(record.taken_at),
  };
}
