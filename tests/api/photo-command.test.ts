import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ARTICLE_UID, createCategory } from '../helpers/fixtures';
import { CAMERA_EXIF_RECORD, endTagReader, photoFile, privateTagsIn, removeUploads, tagsOfServedFile } from '../helpers/photos';
import { serviceDatabaseEnv } from '../helpers/service-process';
import { startStrapi, type TestApp } from '../helpers/strapi';

const run = promisify(execFile);
const APP_DIR = path.resolve(__dirname, '..', '..');
const UPLOADS = path.join(APP_DIR, 'public', 'uploads');

let app: TestApp;
const made: number[] = [];

beforeAll(async () => {
  app = await startStrapi();
}, 120_000);

afterAll(async () => {
  await removeUploads(app, made);
  await endTagReader();
  await app.stop();
});

/**
 * A photo as it was before the upload hooks existed, or as `strapi import` brings one: its file
 * written straight into the uploads folder, GPS position and all, and its record written with the
 * query engine (no placeholder, no camera data, no renditions).
 */
async function oldUpload(name: string): Promise<number> {
  const hash = `${name}_${Date.now().toString(36)}`;
  fs.mkdirSync(UPLOADS, { recursive: true });
  fs.writeFileSync(path.join(UPLOADS, `${hash}.jpg`), await photoFile('jpeg', 1200, 800));
  const file = await app.strapi.db.query('plugin::upload.file').create({
    data: {
      name: `${name}.jpg`,
      hash,
      ext: '.jpg',
      mime: 'image/jpeg',
      size: 100,
      url: `/uploads/${hash}.jpg`,
      provider: 'local',
      width: 1200,
      height: 800,
    },
  });
  made.push(file.id as number);
  return file.id as number;
}

/** Sweeps no object of the app's public folder (none is older than 999,999 minutes). */
const KEEP_OTHER_FILES = ['--orphan-minutes', '999999'];

async function photosCommand(...options: Array<string | Record<string, string>>): Promise<string> {
  const extra = options.filter((option): option is Record<string, string> => typeof option === 'object');
  const env = {
    ...process.env,
    STRAPI_TELEMETRY_DISABLED: 'true',
    ...(await serviceDatabaseEnv(app.databaseFile)),
    ...Object.assign({}, ...extra),
  };
  const argv = options.filter((option): option is string => typeof option === 'string');
  const { stderr } = await run('node', [path.join(APP_DIR, 'scripts', 'process-photos.js'), ...argv], { cwd: APP_DIR, env });
  return stderr;
}

describe('npm run photos:process', () => {
  it('cleans, describes and renders photos uploaded before, says exactly what a dry run would do, and does nothing the second time', async () => {
    const category = await createCategory(app.strapi, 'Archive', 'archive');
    const [first, second] = [await oldUpload('archive-one'), await oldUpload('archive-two')];
    const files = app.strapi.db.query('plugin::upload.file');
    const urlOf = async (id: number) => ((await files.findOne({ where: { id } })) as { url: string }).url;
    expect(privateTagsIn(await tagsOfServedFile(app, await urlOf(first)))).not.toEqual([]);

    const dryRun = await photosCommand('--dry-run', ...KEEP_OTHER_FILES);
    expect(dryRun).toMatch(/would clean \/uploads\/archive-one/);
    expect(dryRun).toMatch(
      /done: 2 images; 2 stored files would be cleaned of private metadata; 2 would be described; 2 would be given AVIF and WebP renditions; 0 failed; 0 still waiting for the service to make their renditions; 0 stored objects no file holds would be deleted/,
    );
    expect(privateTagsIn(await tagsOfServedFile(app, await urlOf(first)))).not.toEqual([]);

    // The app's own public folder may hold a developer's uploads: the sweep is kept off it here
    // (older than 694 days), and tested on a folder of its own below.
    const output = await photosCommand(...KEEP_OTHER_FILES);
    expect(output).toMatch(
      /done: \d+ images; 2 stored files cleaned of private metadata; 2 described; 2 given AVIF and WebP renditions; 0 failed; 0 still waiting/,
    );
    for (const id of [first, second]) expect(privateTagsIn(await tagsOfServedFile(app, await urlOf(id)))).toEqual([]);

    await app.strapi.documents(ARTICLE_UID).create({
      data: { title: 'From the archive', slug: 'from-the-archive', content: 'Old photos.', category, cover: first, gallery: [second] },
      status: 'published',
    });
    const article = (await app.api().get('/api/artikel/from-the-archive').expect(200)).body.data as {
      cover: { exif: unknown; placeholder: string | null; sources: Array<{ type: string }> };
      gallery: Array<{ sources: Array<{ type: string }> }>;
    };
    expect(article.cover.exif).toEqual(CAMERA_EXIF_RECORD);
    expect(article.cover.placeholder).toEqual(expect.any(String));
    expect(article.cover.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp', 'image/jpeg']);
    expect(article.gallery[0].sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp', 'image/jpeg']);

    const again = await photosCommand(...KEEP_OTHER_FILES);
    expect(again).toMatch(
      /done: \d+ images; 0 stored files cleaned of private metadata; 0 described; 0 given AVIF and WebP renditions; 0 failed/,
    );
  }, 300_000);

  it('refuses an option it does not know, and says which options there are', async () => {
    await expect(photosCommand('--everything')).rejects.toMatchObject({
      stderr: expect.stringMatching(/unknown option --everything; the options are --dry-run, --again, --orphan-minutes N/),
      code: 2,
    });
    await expect(photosCommand('--orphan-minutes', 'soon')).rejects.toMatchObject({
      stderr: expect.stringMatching(/--orphan-minutes takes whole minutes, at most 999999, not "soon"\nusage: npm run photos:process --/),
      code: 2,
    });
  }, 60_000);

  it('deletes the stored objects no file holds once they are older than --orphan-minutes, and names them on a dry run', async () => {
    // On a public folder of the test's own (PUBLIC_DIR), a copy of the app's: the sweep never
    // reaches the uploads of a developer's own studio in the app's folder.
    const kept = await oldUpload('kept-photo');
    const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-orphans-'));
    const uploads = path.join(publicDir, 'uploads');
    fs.cpSync(UPLOADS, uploads, { recursive: true });
    const orphan = path.join(uploads, `thumbnail_left_behind_${Date.now().toString(36)}.jpg`);
    fs.writeFileSync(path.join(uploads, '.gitkeep'), '');
    fs.writeFileSync(orphan, await photoFile('jpeg', 200, 150));
    const keptUrl = ((await app.strapi.db.query('plugin::upload.file').findOne({ where: { id: kept } })) as { url: string }).url;
    const sweep = (...options: string[]) => photosCommand({ PUBLIC_DIR: publicDir }, ...options);
    try {
      // Just written: younger than the default hour, so an upload under way is never touched.
      expect(await sweep('--dry-run')).not.toContain(path.basename(orphan));
      const dryRun = await sweep('--dry-run', '--orphan-minutes', '0');
      expect(dryRun).toContain(`would delete /uploads/${path.basename(orphan)}, which no file holds`);
      expect(dryRun).not.toContain(`would delete ${keptUrl}`);
      expect(fs.existsSync(orphan)).toBe(true);

      const output = await sweep('--orphan-minutes', '0');
      expect(output).toMatch(/[1-9]\d* stored objects no file holds deleted/);
      expect(fs.existsSync(orphan)).toBe(false);
      expect(fs.existsSync(path.join(uploads, '.gitkeep'))).toBe(true);
      expect(fs.existsSync(path.join(publicDir, keptUrl))).toBe(true);
    } finally {
      fs.rmSync(publicDir, { recursive: true, force: true });
    }
  }, 300_000);
});
