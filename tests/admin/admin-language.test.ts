// @same-on-every-store: the admin's language is Strapi's own admin user field, not the plugin's SQL (not run by test:postgres, see jest.config.js)
import { registerEditor, type Editor } from '../helpers/admin';
import { startStrapi, type TestApp } from '../helpers/strapi';

interface AdminUser {
  id: number;
  email: string;
  preferedLanguage: string | null;
  registrationToken?: string;
}

const me = async (editor: Editor): Promise<AdminUser> => (await editor.get('/admin/users/me').expect(200)).body.data;

async function invite(admin: Editor, email: string, extra: Record<string, unknown> = {}): Promise<AdminUser> {
  const roles = (await admin.get('/admin/roles').expect(200)).body.data as Array<{ id: number; code: string }>;
  const editorRole = roles.find((role) => role.code === 'strapi-editor');
  const invited = await admin
    .post('/admin/users', { firstname: 'Indah', lastname: 'Editor', email, roles: [editorRole?.id], ...extra })
    .expect(201);
  return invited.body.data;
}

describe('the admin language of new editors, by default', () => {
  let app: TestApp;
  let admin: Editor;

  beforeAll(async () => {
    app = await startStrapi({ env: { ADMIN_DEFAULT_LOCALE: undefined } });
    admin = await registerEditor(app);
  });
  afterAll(() => app.stop());

  it('gives the first administrator, registered without a language, Indonesian', async () => {
    expect((await me(admin)).preferedLanguage).toBe('id');
  });

  it('gives an invited editor Indonesian, which they keep when they complete the invitation', async () => {
    const invited = await invite(admin, 'indah@studio.example');
    expect(invited.preferedLanguage).toBe('id');
    const registered = await app
      .api()
      .post('/admin/register')
      .send({
        registrationToken: invited.registrationToken,
        userInfo: { firstname: 'Indah', lastname: 'Editor', password: 'Indah-Passw0rd' },
      })
      .expect(200);
    expect(registered.body.data.user.preferedLanguage).toBe('id');
  });

  it('keeps the language an administrator chose when inviting an editor', async () => {
    const invited = await invite(admin, 'erik@studio.example', { preferedLanguage: 'de' });
    expect(invited.preferedLanguage).toBe('de');
  });

  it('keeps the language an editor chooses in their profile', async () => {
    await admin.put('/admin/users/me', { preferedLanguage: 'en' }).expect(200);
    expect((await me(admin)).preferedLanguage).toBe('en');
  });
});

describe('the admin language of new editors, configured', () => {
  let app: TestApp;
  let admin: Editor;

  beforeAll(async () => {
    app = await startStrapi({ env: { ADMIN_DEFAULT_LOCALE: 'en' } });
    admin = await registerEditor(app);
  });
  afterAll(() => app.stop());

  it('gives new editors the language ADMIN_DEFAULT_LOCALE names', async () => {
    expect((await me(admin)).preferedLanguage).toBe('en');
    expect((await invite(admin, 'ed@studio.example')).preferedLanguage).toBe('en');
  });
});

describe('a default language the admin does not offer', () => {
  it('stops the start with a message naming ADMIN_DEFAULT_LOCALE and the languages offered', async () => {
    await expect(startStrapi({ env: { ADMIN_DEFAULT_LOCALE: 'fr' } })).rejects.toThrow(
      "ADMIN_DEFAULT_LOCALE must be one of the admin's languages: en, de, id",
    );
  });
});
