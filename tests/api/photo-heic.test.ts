// @same-on-every-store: a phone photo's conversion and cleaning happen on its bytes, before its record is stored (not run by test:postgres, see jest.config.js)
import { registerEditor, type Editor } from '../helpers/admin';
import { CAMERA_EXIF_RECORD, endTagReader, heicPhotoFile, privateTagsIn, tagsOfServedFile, type UploadedFile } from '../helpers/photos';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Issue "Photos": a phone's HEIC photo (HEVC in HEIF, what an iPhone takes) becomes a JPEG as it
// enters the Media Library, with its size, renditions, camera data and capture date, and without
// its GPS position; one that cannot be read is a 400 that says what to do, and nothing is stored.
// The photos are encoded by libheif's own encoder (see heicPhotoFile).

// The WebAssembly decode takes about half a second for 12 megapixels; these are small, on a loaded machine.
const UPLOAD_MS = 60_000;

let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  // libheif's encoder, installed here where it is missing (apt-get takes longer than a test's budget).
  await heicPhotoFile(16, 16);
  app = await startStrapi();
  editor = await registerEditor(app);
}, 300_000);

afterAll(async () => {
  await endTagReader();
  await app?.stop();
});

const stored = () => app.strapi.db.query('plugin::upload.file').count({});

const upload = (name: string, bytes: Buffer, contentType = 'image/heic') =>
  editor.signed(app.api().post('/upload')).attach('files', bytes, { filename: name, contentType });

it(
  'stores a HEIC photo as a JPEG of its size, with smaller copies, its camera data and capture date, and no GPS position',
  async () => {
    const answer = await upload('IMG_0412.HEIC', await heicPhotoFile(1200, 800));
    expect(answer.status).toBe(201);
    const file = (answer.body as UploadedFile[])[0] as UploadedFile & { name: string; ext: string };
    expect(file).toMatchObject({ name: 'IMG_0412.jpg', ext: '.jpg', mime: 'image/jpeg', width: 1200, height: 800 });
    expect(Object.keys(file.formats ?? {})).toEqual(expect.arrayContaining(['thumbnail', 'small', 'medium']));
    const record = (await app.strapi.db.query('plugin::upload.file').findOne({ where: { id: file.id } })) as Record<string, unknown>;
    expect(record.artikel_exif).toMatchObject({ camera: CAMERA_EXIF_RECORD.camera, taken_at: CAMERA_EXIF_RECORD.taken_at });
    expect(record.artikel_placeholder).toEqual(expect.any(String));
    const served = await tagsOfServedFile(app, file.url);
    expect(served.MIMEType).toBe('image/jpeg');
    expect(privateTagsIn(served)).toEqual([]);
  },
  UPLOAD_MS,
);

it(
  'finds a HEIC photo by its bytes where it is sent named and typed as a JPEG',
  async () => {
    const answer = await upload('IMG_0413.jpg', await heicPhotoFile(320, 240, [40, 90, 200]), 'image/jpeg');
    expect(answer.status).toBe(201);
    expect((answer.body as UploadedFile[])[0]).toMatchObject({ name: 'IMG_0413.jpg', mime: 'image/jpeg', width: 320, height: 240 });
  },
  UPLOAD_MS,
);

it(
  'refuses a HEIC file it cannot read with a 400 that says what to do, and stores nothing',
  async () => {
    const before = await stored();
    const photo = await heicPhotoFile(320, 240);
    // The HEIF boxes kept, the coded picture cut off.
    const broken = photo.subarray(0, Math.floor(photo.length * 0.6));
    const answer = await upload('broken.heic', broken);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/HEIC photo could not be read .*export it from the phone as JPEG/);
    expect(await stored()).toBe(before);
  },
  UPLOAD_MS,
);
