import { ARTICLES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { adminAs, adminTokenOf, mcpClient, textOf, type RoleUser, type ToolAnswer } from '../helpers/factories';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * Who may do what to which article, on every path an editor or their agent takes: the plugin's MCP
 * tools (admin tokens), the trash and the Revisions panel (the admin's routes). Strapi's default
 * roles (Editor; Author, whose permissions carry "is creator" and no Publish) and a custom role
 * without Publish, each on their own article and on another's. Every refusal also checks that
 * nothing changed.
 */
const ALL = ['read', 'create', 'update', 'delete', 'publish'];
const AUTHOR_ACTIONS = ['read', 'create', 'update', 'delete'];

let app: TestApp;
let superAdmin: Editor;
let editor: RoleUser;
let author: RoleUser;
let otherAuthor: RoleUser;
let noPublish: RoleUser;
const agents: Record<'editor' | 'author' | 'noPublish' | 'readOnly', Awaited<ReturnType<typeof mcpClient>> | null> = {
  editor: null,
  author: null,
  noPublish: null,
  readOnly: null,
};

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Studio', slug: 'studio' } });
  superAdmin = await registerEditor(app);
  editor = await adminAs(app, superAdmin, 'editor');
  author = await adminAs(app, superAdmin, 'author');
  otherAuthor = await adminAs(app, superAdmin, 'author');
  noPublish = await adminAs(app, superAdmin, { name: 'Writer without publish', actions: AUTHOR_ACTIONS });
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(agents).map((agent) => agent?.close().catch(() => undefined)));
  await app?.stop();
});

/** The agent of one administrator: a real MCP client with an admin token asking for every action (Strapi clamps it to the role). */
async function agentOf(who: 'editor' | 'author' | 'noPublish' | 'readOnly') {
  const user = { editor, author, noPublish, readOnly: editor }[who];
  const actions = { editor: ALL, author: AUTHOR_ACTIONS, noPublish: AUTHOR_ACTIONS, readOnly: ['read'] }[who];
  agents[who] ??= await mcpClient(app, await adminTokenOf(app, user.id, actions));
  return agents[who];
}

/** A published article an API token wrote (so no administrator created it). */
async function publishedByToken(): Promise<{ slug: string; id: string; title: string }> {
  const title = uniqueTitle('Lanterns on the pier');
  const answer = await app
    .api()
    .post('/api/artikel')
    .set(app.auth())
    .send({ title, category: 'Studio', content: 'Paper lanterns at dusk.' })
    .expect(201);
  return { slug: answer.body.data.slug, id: answer.body.data.id, title };
}

/** A draft an administrator created in the Content Manager (so it is theirs). */
async function draftBy(user: Editor): Promise<{ slug: string; id: string; title: string }> {
  const title = uniqueTitle('Studio notes');
  const answer = await user
    .post(ARTICLES_PATH, { title, content: 'Light stands and a grey backdrop.', category: connect(app.categoryId) })
    .expect(201);
  return { slug: answer.body.data.slug, id: answer.body.data.documentId, title };
}

/** The stored draft's title (what a refused write must not have changed). */
const storedTitle = async (id: string): Promise<string | undefined> =>
  ((await app.strapi.documents('api::article.article').findOne({ documentId: id, status: 'draft' })) as { title?: string } | null)?.title;

const refused = (answer: ToolAnswer, permission: RegExp) => {
  expect(answer.isError).toBe(true);
  expect(textOf(answer)).toMatch(permission);
};

describe("the plugin's MCP tools decide on the article itself, with the role's conditions", () => {
  it("refuses an Author's agent another author's draft, for reading, changing, restoring and deleting, and changes nothing", async () => {
    const others = await draftBy(otherAuthor);
    const agent = await agentOf('author');
    refused(await agent.call('artikel_get', { slug: others.slug }), new RegExp(`may not read the article "${others.slug}"`));
    refused(await agent.call('artikel_update', { slug: others.slug, title: 'Overwritten by an agent' }), /may not update the article/);
    refused(await agent.call('artikel_revisions', { slug: others.slug }), /may not read the article/);
    refused(await agent.call('artikel_restore', { slug: others.slug, number: 1 }), /may not read the article/);
    refused(await agent.call('artikel_delete', { slug: others.slug }), /may not delete the article/);
    expect(await storedTitle(others.id)).toBe(others.title);
  });

  it("refuses an Author's agent a published article it did not create: it stays on the public site", async () => {
    const live = await publishedByToken();
    const agent = await agentOf('author');
    refused(await agent.call('artikel_delete', { slug: live.slug }), /may not delete the article/);
    refused(await agent.call('artikel_update', { slug: live.slug, status: 'draft' }), /may not update the article/);
    await app.api().get(`/api/artikel/${live.slug}`).expect(200);
  });

  it("lets an Author's agent work on the drafts it creates: they are the author's own, also in the Content Manager", async () => {
    const agent = await agentOf('author');
    const created = await agent.call('artikel_create', {
      title: uniqueTitle('Agent draft'),
      category: 'Studio',
      content: 'Softboxes.',
      status: 'draft',
    });
    expect(created.isError).toBeFalsy();
    const slug = String(created.structuredContent?.data.slug);
    const changed = await agent.call('artikel_update', { slug, title: 'Agent draft, second take' });
    expect(changed.structuredContent?.data).toMatchObject({ slug, title: 'Agent draft, second take', status: 'draft' });
    expect((await agent.call('artikel_get', { slug })).isError).toBeFalsy();
    const id = String(created.structuredContent?.data.id);
    await author.get(`${ARTICLES_PATH}/${id}`).expect(200);
    await otherAuthor.get(`${ARTICLES_PATH}/${id}`).expect(403);
  });

  it('refuses a role without Publish to publish, unpublish or schedule, with a refusal that suggests nothing it may not do', async () => {
    const live = await publishedByToken();
    const agent = await agentOf('noPublish');
    const unpublish = await agent.call('artikel_update', { slug: live.slug, status: 'draft' });
    refused(unpublish, /may not publish or unpublish the article/);
    expect(textOf(unpublish)).not.toMatch(/status "draft"|send status/);
    await app.api().get(`/api/artikel/${live.slug}`).expect(200);
    refused(await agent.call('artikel_update', { slug: live.slug, title: 'A quiet rewrite of the live text' }), /may not publish/);
    expect(await storedTitle(live.id)).toBe(live.title);
    const draft = await draftBy(noPublish);
    const schedule = await agent.call('artikel_update', {
      slug: draft.slug,
      status: 'scheduled',
      publish_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    refused(schedule, /may not publish/);
    expect((await agent.call('artikel_update', { slug: draft.slug, title: 'Still a draft' })).isError).toBeFalsy();
  });

  it("lets an Editor's agent change and delete anybody's article", async () => {
    const others = await draftBy(otherAuthor);
    const agent = await agentOf('editor');
    expect((await agent.call('artikel_update', { slug: others.slug, title: 'Edited by the desk' })).isError).toBeFalsy();
    expect(await storedTitle(others.id)).toBe('Edited by the desk');
    expect((await agent.call('artikel_delete', { slug: others.slug })).isError).toBeFalsy();
    expect(await storedTitle(others.id)).toBeUndefined();
  });
});

describe("a read-only admin token (an Editor's, granted Read only)", () => {
  it("reads anybody's draft, and offers its agent no tool that writes", async () => {
    const others = await draftBy(otherAuthor);
    const agent = await agentOf('readOnly');
    const read = await agent.call('artikel_get', { slug: others.slug });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent?.data).toMatchObject({ slug: others.slug, title: others.title, status: 'draft' });
    const offered = (await agent.list()).map((tool) => tool.name);
    expect(offered).toEqual(expect.arrayContaining(['artikel_get', 'artikel_search', 'artikel_revisions']));
    for (const write of ['artikel_create', 'artikel_update', 'artikel_delete', 'artikel_restore']) expect(offered).not.toContain(write);
  });

  it('is refused every write, even when its agent calls a tool it was not offered, and nothing changes', async () => {
    const others = await draftBy(otherAuthor);
    const live = await publishedByToken();
    const agent = await agentOf('readOnly');
    const attempts: Array<[string, object]> = [
      ['artikel_update', { slug: others.slug, title: 'Rewritten with a read token' }],
      ['artikel_update', { slug: live.slug, status: 'draft' }],
      ['artikel_delete', { slug: live.slug }],
      ['artikel_restore', { slug: others.slug, number: 1 }],
      ['artikel_create', { title: uniqueTitle('Written with a read token'), category: 'Studio', content: 'No.' }],
    ];
    // Strapi's MCP server refuses a tool the token's permissions leave out before the tool runs.
    for (const [name, args] of attempts) await expect(agent.call(name, args)).rejects.toThrow(new RegExp(`Tool ${name} disabled`));
    expect(await storedTitle(others.id)).toBe(others.title);
    await app.api().get(`/api/artikel/${live.slug}`).expect(200);
    expect(await storedTitle(live.id)).toBe(live.title);
  });

  it("shows the revisions of any article it may read, as the admin's Revisions panel does for its owner", async () => {
    const others = await draftBy(otherAuthor);
    const history = await (await agentOf('readOnly')).call('artikel_revisions', { slug: others.slug });
    expect(history.isError).toBeFalsy();
    expect(textOf(history)).toMatch(/#1 /);
    await editor.get(`/artikel/revisions/${others.id}`).expect(200);
  });
});

type TrashItem = { document_id: string };
const trashOf = async (user: Editor): Promise<string[]> =>
  ((await user.get('/artikel/trash').expect(200)).body.data as TrashItem[]).map((item) => item.document_id);

describe("the trash follows the role's conditions and Publish", () => {
  it("shows an Author only their own trashed articles, and refuses them another's restore and purge", async () => {
    const mine = await draftBy(author);
    const theirs = await draftBy(otherAuthor);
    await author.del(`${ARTICLES_PATH}/${mine.id}`).expect(200);
    await otherAuthor.del(`${ARTICLES_PATH}/${theirs.id}`).expect(200);

    const seen = await trashOf(author);
    expect(seen).toContain(mine.id);
    expect(seen).not.toContain(theirs.id);
    expect(await trashOf(editor)).toEqual(expect.arrayContaining([mine.id, theirs.id]));

    const purge = await author.del(`/artikel/trash/${theirs.id}`).expect(403);
    expect(purge.body.error.message).toMatch(/may not (read|delete)/);
    await author.post(`/artikel/trash/${theirs.id}/restore`).expect(403);
    expect(await trashOf(otherAuthor)).toContain(theirs.id);
  });

  it("empties only the Author's own part of the trash", async () => {
    const mine = await draftBy(author);
    const theirs = await draftBy(otherAuthor);
    await author.del(`${ARTICLES_PATH}/${mine.id}`).expect(200);
    await otherAuthor.del(`${ARTICLES_PATH}/${theirs.id}`).expect(200);
    const emptied = await author.del('/artikel/trash').expect(200);
    expect(emptied.body.data.purged).toBeGreaterThanOrEqual(1);
    expect(await trashOf(author)).not.toContain(mine.id);
    expect(await trashOf(otherAuthor)).toContain(theirs.id);
  });

  it('gives a restored draft back to its creator, who may open it again', async () => {
    const mine = await draftBy(author);
    await author.del(`${ARTICLES_PATH}/${mine.id}`).expect(200);
    await author.post(`/artikel/trash/${mine.id}/restore`).expect(200);
    const opened = await author.get(`${ARTICLES_PATH}/${mine.id}`).expect(200);
    expect(opened.body.data.title).toBe(mine.title);
  });

  it('refuses to bring a published article back to the public site without Publish, and leaves it in the trash', async () => {
    const live = await publishedByToken();
    await app.api().delete(`/api/artikel/${live.slug}`).set(app.auth()).expect(204);
    const restore = await noPublish.post(`/artikel/trash/${live.id}/restore`).expect(403);
    expect(restore.body.error.message).toMatch(/may not publish/);
    await app.api().get(`/api/artikel/${live.slug}`).expect(404);
    expect(await trashOf(editor)).toContain(live.id);
    await editor.post(`/artikel/trash/${live.id}/restore`).expect(200);
    await app.api().get(`/api/artikel/${live.slug}`).expect(200);
  });
});

describe("the Revisions panel follows the role's conditions", () => {
  it("refuses an Author another author's revisions and their restore", async () => {
    const theirs = await draftBy(otherAuthor);
    await author.get(`/artikel/revisions/${theirs.id}`).expect(403);
    await author.post(`/artikel/revisions/${theirs.id}/1/restore`).expect(403);
    await otherAuthor.get(`/artikel/revisions/${theirs.id}`).expect(200);
  });
});
