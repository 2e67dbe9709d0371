import { registerEditor, type Editor } from '../helpers/admin';
import { adminAs } from '../helpers/factories';
import { startStrapi, type TestApp } from '../helpers/strapi';

// The admin's delete dialog says how long a deleted article waits in the trash (issue "Editors"):
// it reads ARTIKEL_TRASH_DAYS from the plugin's admin route, which every editor who may read
// articles may ask, and nobody else.
let app: TestApp;
let superAdmin: Editor;

beforeAll(async () => {
  app = await startStrapi({ env: { ARTIKEL_TRASH_DAYS: '14' } });
  superAdmin = await registerEditor(app);
}, 180_000);

afterAll(() => app?.stop());

describe("the trash's setting for the delete dialog", () => {
  it.each(['editor', 'author'] as const)('tells an %s how many days a deleted article waits in the trash', async (role) => {
    const user = await adminAs(app, superAdmin, role);
    expect((await user.get('/artikel/trash/settings').expect(200)).body).toEqual({ data: { keep_days: 14 } });
  });

  it('tells nobody who is not signed in, nor a role that may not read articles', async () => {
    expect((await app.api().get('/artikel/trash/settings')).status).toBe(401);
    const writer = await adminAs(app, superAdmin, { name: 'Create only', actions: ['create'] });
    const refused = await writer.get('/artikel/trash/settings');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      "Your role may not read articles: ask an administrator for the Content Manager's Read permission on Article",
    );
  });
});
