import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type supertest from 'supertest';
import type { Editor } from './admin';
import type { TestApp } from './strapi';

const ARTICLE = 'api::article.article';
const CM = 'plugin::content-manager.explorer';

/** Strapi's default roles, or a custom role holding exactly these Content Manager actions on Article (no conditions). */
export type RoleChoice = 'editor' | 'author' | { name: string; actions: string[] };

/** An administrator of one role, signed in, with their user id (whom "is creator" names). */
export interface RoleUser extends Editor {
  id: number;
  email: string;
}

let invited = 0;

/**
 * An administrator of `role`, invited by the super admin and registered as the invitation's form
 * does (Strapi's own routes): Editor and Author are Strapi's default roles.
 */
export async function adminAs(app: TestApp, superAdmin: Editor, role: RoleChoice): Promise<RoleUser> {
  invited += 1;
  let roleId: number;
  if (typeof role === 'string') {
    const roles = (await superAdmin.get('/admin/roles').expect(200)).body.data as Array<{ id: number; code: string }>;
    const found = roles.find((candidate) => candidate.code === `strapi-${role}`);
    if (found === undefined) throw new Error(`no ${role} role`);
    roleId = found.id;
  } else {
    const created = (await superAdmin.post('/admin/roles', { name: `${role.name} ${invited}`, description: role.name }).expect(201)).body
      .data as { id: number };
    const permissions = role.actions.map((action) => ({ action: `${CM}.${action}`, subject: ARTICLE, properties: {}, conditions: [] }));
    await superAdmin.put(`/admin/roles/${created.id}/permissions`, { permissions }).expect(200);
    roleId = created.id;
  }
  const name = typeof role === 'string' ? role : role.name.replace(/\W+/g, '');
  const email = `${name.toLowerCase()}-${invited}@team.studio.example`;
  const invitation = await superAdmin
    .post('/admin/users', { firstname: name, lastname: `Tester${invited}`, email, roles: [roleId] })
    .expect(201);
  const registered = await app
    .api()
    .post('/admin/register')
    .send({
      registrationToken: invitation.body.data.registrationToken,
      userInfo: { firstname: name, lastname: `Tester${invited}`, password: 'Role-Passw0rd' },
    })
    .expect(200);
  const jwt = registered.body.data.token as string;
  const sign = (test: supertest.Test) => test.set('Authorization', `Bearer ${jwt}`);
  return {
    id: Number(invitation.body.data.id),
    email,
    get: (url) => sign(app.api().get(url)),
    post: (url, body = {}) => sign(app.api().post(url).send(body)),
    put: (url, body) => sign(app.api().put(url).send(body)),
    del: (url) => sign(app.api().delete(url)),
    signed: sign,
  };
}

interface AdminTokenService {
  create: (attributes: object, owner: object) => Promise<{ id: number | string; accessKey: string }>;
}

let tokens = 0;

interface Permission {
  action: string;
  subject: string | null;
  properties?: object;
  conditions?: string[];
}

/**
 * An admin token (Settings → Admin tokens) of this administrator, holding those of these Content
 * Manager actions on Article that their role grants, with the role's fields and conditions (as the
 * token form copies them; Strapi refuses a token wider than its owner).
 */
export async function adminTokenOf(app: TestApp, userId: number, actions: string[]): Promise<string> {
  tokens += 1;
  const owner = await app.strapi.db.query('admin::user').findOne({ where: { id: userId }, populate: ['roles'] });
  const permissionService = app.strapi.service('admin::permission') as unknown as {
    findUserPermissions: (user: object) => Promise<Permission[]>;
  };
  const wanted = new Set(actions.map((action) => `${CM}.${action}`));
  const granted = (await permissionService.findUserPermissions(owner)).filter(
    (permission) => permission.subject === ARTICLE && wanted.has(permission.action),
  );
  const service = app.strapi.service('admin::api-token-admin') as unknown as AdminTokenService;
  const token = await service.create(
    {
      kind: 'admin',
      name: `agent-${tokens}`,
      description: '',
      lifespan: null,
      adminPermissions: granted.map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions })),
    },
    owner,
  );
  return token.accessKey;
}

export interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: { data: Record<string, unknown>; meta?: Record<string, unknown> };
}

/** A real MCP client over Streamable HTTP (as Claude, Cursor or n8n connect), signed with an admin token. */
export interface McpAgent {
  call: (name: string, args?: object) => Promise<ToolAnswer>;
  /** tools/list, as the client sees it. */
  list: () => Promise<
    Array<{
      name: string;
      annotations?: Record<string, unknown>;
      inputSchema: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      outputSchema?: Record<string, unknown>;
    }>
  >;
  close: () => Promise<void>;
}

export async function mcpClient(app: TestApp, token: string): Promise<McpAgent> {
  const transport = new StreamableHTTPClientTransport(new URL(`${await app.baseUrl()}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'artikel-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args as Record<string, unknown> })) as unknown as ToolAnswer,
    list: async () => (await client.listTools()).tools as Awaited<ReturnType<McpAgent['list']>>,
    close: () => client.close(),
  };
}

export const textOf = (answer: ToolAnswer): string => answer.content.map((part) => part.text ?? '').join('\n');
