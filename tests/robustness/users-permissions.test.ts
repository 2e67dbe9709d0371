import { createApiToken } from '../helpers/tokens';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let tokensAtFirstStart: number;

const ROLE_UID = 'plugin::users-permissions.role';
const PERMISSION_UID = 'plugin::users-permissions.permission';
const USER_UID = 'plugin::users-permissions.user';

beforeAll(async () => {
  app = await startStrapi();
  tokensAtFirstStart = await app.strapi.db.query('admin::api-token').count();
});

afterAll(async () => {
  await app.stop();
});

/** The actions a users-permissions role holds, sorted. */
async function actionsOf(roleType: string): Promise<string[]> {
  const role = (await app.strapi.db.query(ROLE_UID).findOne({ where: { type: roleType } })) as { id: number };
  const permissions = (await app.strapi.db.query(PERMISSION_UID).findMany({ where: { role: role.id } })) as Array<{ action: string }>;
  return permissions.map((permission) => permission.action).sort();
}

describe('users-permissions, kept for Strapi itself', () => {
  it('creates no API token at first start: every token is one an administrator made', () => {
    expect(tokensAtFirstStart).toBe(0);
  });

  it('registers nobody: POST /api/auth/local/register is refused and no user is stored', async () => {
    const answer = await app
      .api()
      .post('/api/auth/local/register')
      .send({ username: 'mallory', email: 'mallory@example.com', password: 'Passw0rd-Passw0rd' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(isContractError(answer)).toBe(true);
    expect(answer.body.jwt).toBeUndefined();
    expect(await app.strapi.db.query(USER_UID).count()).toBe(0);
  });

  it('gives the Public and Authenticated roles no action: the studio serves /api/artikel, which needs none', async () => {
    expect(await actionsOf('public')).toEqual([]);
    expect(await actionsOf('authenticated')).toEqual([]);
    await app.api().get('/api/artikel').expect(200);
  });

  it.each(['/api/users', '/api/users/count', '/api/users-permissions/roles', '/api/upload/files', '/api/i18n/locales'])(
    'answers a read-only token on %s with a 403: such tokens read /api/artikel only',
    async (path) => {
      const readOnly = await createApiToken(app.strapi, 'read-only');
      const answer = await app.api().get(path).set('Authorization', `Bearer ${readOnly}`);
      expect(answer.status).toBe(403);
      expect(isContractError(answer)).toBe(true);
      expect(JSON.stringify(answer.body)).not.toMatch(/@/);
      await app.api().get('/api/artikel').set('Authorization', `Bearer ${readOnly}`).expect(200);
    },
  );
});
