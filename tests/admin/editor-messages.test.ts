// @same-on-every-store: the refusals are validation, before anything is written (not run by test:postgres, see jest.config.js)
import { ARTICLES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { isContractError, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

/**
 * The plugin's refusals as an editor reads them in the Content Manager: in the language of their
 * admin profile (Indonesian by default, German, English), each with the field's label; the API's
 * clients read the same refusal in English.
 */
let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  app = await startStrapi({ category: { name: 'Portraits', slug: 'portraits' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface RefusalBody {
  error: { status: number; name: string; message: string; details: { errors: Array<{ path: string[]; message: string }> } };
}

const broken = () => ({
  title: `${uniqueTitle('Terlalu panjang')} ${'x'.repeat(260)}`,
  content: 'Cahaya jendela.',
  category: connect(app.categoryId),
  cover_image_url: 'javascript:alert(1)',
  publish_at: '2020-01-01T08:00:00.000Z',
});

async function refusalIn(language: 'id' | 'de' | 'en'): Promise<RefusalBody['error']> {
  await editor.put('/admin/users/me', { preferedLanguage: language }).expect(200);
  const before = await storedRowCounts(app.strapi);
  const response = await editor.post(ARTICLES_PATH, broken()).expect(400);
  expect(isContractError(response)).toBe(true);
  expect(await storedRowCounts(app.strapi)).toEqual(before);
  return (response.body as RefusalBody).error;
}

const messagesByField = (error: RefusalBody['error']) =>
  Object.fromEntries(error.details.errors.map((fieldError) => [fieldError.path.join('.'), fieldError.message]));

describe("the plugin's refusals in the editor's language", () => {
  it('tells an Indonesian editor what is wrong with each field by its label, and stores nothing', async () => {
    const error = await refusalIn('id');
    expect(messagesByField(error)).toEqual({
      title: 'Judul paling banyak 255 karakter',
      cover_image_url: 'URL sampul harus berupa alamat lengkap yang diawali https://',
    });
    expect(error.message).toBe('Judul paling banyak 255 karakter; URL sampul harus berupa alamat lengkap yang diawali https://');
  });

  it('tells a German editor the same in German, and an English one in English', async () => {
    expect(messagesByField(await refusalIn('de'))).toEqual({
      title: 'Titel darf höchstens 255 Zeichen lang sein',
      cover_image_url: 'Titelbild-URL muss eine vollständige Adresse sein, die mit https:// beginnt',
    });
    expect(messagesByField(await refusalIn('en'))).toEqual({
      title: 'title must be at most 255 characters',
      cover_image_url: 'cover_image_url must be an absolute https URL',
    });
  });

  it('says a schedule in the past in the editor’s language', async () => {
    await editor.put('/admin/users/me', { preferedLanguage: 'id' }).expect(200);
    const response = await editor
      .post(ARTICLES_PATH, {
        title: uniqueTitle('Jadwal lampau'),
        content: 'Pagi.',
        category: connect(app.categoryId),
        publish_at: '2020-01-01T08:00:00.000Z',
      })
      .expect(400);
    expect(messagesByField((response.body as RefusalBody).error)).toEqual({
      publish_at: 'Waktu di "Terbitkan pada" harus di masa depan; untuk terbit sekarang, pilih Terbitkan',
    });
  });

  it('answers an API client in English whatever the editors chose', async () => {
    await editor.put('/admin/users/me', { preferedLanguage: 'id' }).expect(200);
    const token = await createApiToken(app.strapi, 'full-access');
    const response = await app
      .api()
      .post('/api/artikel')
      .set('Authorization', `Bearer ${token}`)
      .send({ title: 'x'.repeat(300), category: 'Portraits', content: 'Pagi.', cover_image_url: 'javascript:alert(1)' })
      .expect(400);
    expect(messagesByField((response.body as RefusalBody).error)).toEqual({
      title: 'title must be at most 255 characters',
      cover_image_url: 'cover_image_url must be an absolute https URL',
    });
  });
});
