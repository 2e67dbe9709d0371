import fs from 'node:fs';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { registerEditor, type Editor } from '../helpers/admin';
import { adminAs } from '../helpers/factories';
import { photoFile } from '../helpers/photos';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

/**
 * The audit's findings outside the role model (issue "One door"): each was a way past a rule or a
 * way to break an answer, and each is a test here.
 */
let app: TestApp;
let superAdmin: Editor;
let author: Editor;
const UPLOADS = path.resolve(__dirname, '..', '..', 'public', 'uploads');

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true });
  superAdmin = await registerEditor(app);
  author = await adminAs(app, superAdmin, 'author');
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

const storedFiles = async (): Promise<number> => app.strapi.db.query('plugin::upload.file').count({});
const filesOnDisk = (suffix: string): string[] =>
  fs.existsSync(UPLOADS) ? fs.readdirSync(UPLOADS).filter((name) => name.endsWith(suffix)) : [];

const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/admin/users/me")</script><rect width="10" height="10"/></svg>',
);

describe('uploads are photos only, and no stored file can run script on the admin’s origin', () => {
  it.each([
    ['an SVG carrying a script', 'logo.svg', 'image/svg+xml', SVG_WITH_SCRIPT, 'image/svg+xml'],
    ['a script', 'evil.js', 'application/javascript', Buffer.from('alert(document.domain)'), 'javascript'],
    ['an HTML page', 'page.html', 'text/html', Buffer.from('<!doctype html><script>alert(1)</script>'), 'text/html'],
  ])('refuses %s with a 400 naming its type and the photo types taken, storing nothing', async (_what, name, type, bytes, named) => {
    const before = await storedFiles();
    const extension = path.extname(name);
    const onDisk = filesOnDisk(extension).length;
    const answer = await author.signed(app.api().post('/upload')).attach('files', bytes, { filename: name, contentType: type });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain(named);
    expect(answer.body.error.message).toMatch(
      /image\/jpeg, image\/png, image\/webp, image\/avif, image\/gif, image\/tiff, image\/heic, image\/heif/,
    );
    expect(await storedFiles()).toBe(before);
    expect(filesOnDisk(extension)).toHaveLength(onDisk);
  });

  it('serves an uploaded photo with a policy that forbids script and a sandbox, and nosniff, on any spelling of the path', async () => {
    const upload = await author
      .signed(app.api().post('/upload'))
      .attach('files', await photoFile('png', 40, 30), { filename: 'swatch.png', contentType: 'image/png' })
      .expect(201);
    const url = String(upload.body[0].url);
    for (const spelling of [url, url.replace('/uploads/', '/UPLOADS/'), url.replace('/uploads/', '//uploads/')]) {
      const served = await app.api().get(spelling);
      if (served.status !== 200) continue;
      expect(served.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    }
    const served = await app.api().get(url).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-security-policy']).not.toMatch(/script-src/);
  });
});

describe('path rules hold on every spelling Strapi’s router accepts', () => {
  it.each(['/API/users', '/Api/Users', '/api/users/', '//api/users', '/api%2Fusers', '/API/upload/files', '/API/users-permissions/roles'])(
    'refuses a read-only token %s (users’ e-mails, files and roles are not the studio’s API)',
    async (spelling) => {
      const token = await createApiToken(app.strapi, 'read-only');
      const answer = await app.api().get(spelling).set('Authorization', `Bearer ${token}`);
      expect(answer.status).not.toBe(200);
      expect(JSON.stringify(answer.body)).not.toMatch(/@/);
    },
  );
});

describe('answers stay well-formed and bodies stay bounded', () => {
  it('writes tag and category names into Atom attributes escaped, so the feed parses', async () => {
    const title = 'Markup in the tags';
    const post = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title, category: 'Studio', content: 'Angle brackets.', tags: '</script>, say "cheese", R&D' });
    expect(post.status).toBe(201);
    const atom = await app.api().get('/api/artikel/feed/atom').expect(200);
    expect(XMLValidator.validate(atom.text)).toBe(true);
    expect(atom.text).toContain('label="&lt;/script&gt;"');
    expect(atom.text).toContain('label="R&amp;D"');
  });

  it('refuses a login body nested 100,000 deep with a 400, not a 500', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const answer = await app.api().post('/admin/login').set('Content-Type', 'application/json').send(deep);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/nests deeper than 64 levels/);
  });
});
