import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ARTICLE_UID } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { eventually } from '../helpers/eventually';

let app: TestApp;

const post = (body: object) => app.api().post('/api/artikel').set(app.auth()).send(body);

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Weddings', slug: 'weddings' } });
});

afterAll(async () => {
  await app.stop();
});

describe('sanitizing', () => {
  const vectors = [
    '<script>alert(1)</script>',
    '<img src="x.jpg" onerror="alert(1)">',
    '<svg onload="alert(1)"><circle r="1"/></svg>',
    '<a href="javascript:alert(1)">click</a>',
  ];

  it('removes script, event handlers and javascript: links from submitted HTML before storing it', async () => {
    const response = await post({
      title: 'HTML vectors',
      category: 'Weddings',
      content: `<p>Kept text</p>${vectors.join('')}<h2>Kept heading</h2>`,
    }).expect(201);
    const { content, content_html: contentHtml } = response.body.data;
    for (const html of [content, contentHtml]) {
      expect(html).not.toMatch(/<script|onerror|onload|javascript:|alert\(1\)|<svg/i);
      expect(html).toContain('<p>Kept text</p>');
      expect(html).toContain('<h2>Kept heading</h2>');
    }
    const stored = await app.strapi.documents(ARTICLE_UID).findFirst({ filters: { slug: 'html-vectors' }, status: 'published' });
    expect(stored?.content).toBe(content);
  });

  it('keeps images, links, lists, figures and tables', async () => {
    const html =
      '<figure><img src="https://cdn.example.com/a.jpg" alt="Bride"><figcaption>At the lake</figcaption></figure>' +
      '<p><a href="https://example.com">site</a></p><ul><li>one</li></ul><table><tbody><tr><td>cell</td></tr></tbody></table>';
    const response = await post({ title: 'Structure', category: 'Weddings', content: html }).expect(201);
    expect(response.body.data.content).toBe(
      '<figure><img src="https://cdn.example.com/a.jpg" alt="Bride" /><figcaption>At the lake</figcaption></figure>' +
        '<p><a href="https://example.com">site</a></p><ul><li>one</li></ul><table><tbody><tr><td>cell</td></tr></tbody></table>',
    );
  });

  it('renders Markdown to HTML and drops dangerous HTML inside it', async () => {
    const markdown =
      '# Title\n\nSome *emphasis* and [a link](https://example.com).\n\n[bad](javascript:alert(1))\n\n<img src=x onerror=alert(1)>';
    const response = await post({ title: 'Markdown body', category: 'Weddings', content: markdown }).expect(201);
    const contentHtml: string = response.body.data.content_html;
    expect(contentHtml).toContain('<h1>Title</h1>');
    expect(contentHtml).toContain('<em>emphasis</em>');
    expect(contentHtml).toContain('<a href="https://example.com">a link</a>');
    expect(contentHtml).not.toMatch(/href="javascript:|onerror=|<script/i);
  });

  it('renders plain text as paragraphs', async () => {
    const response = await post({ title: 'Plain', category: 'Weddings', content: 'First paragraph.\n\nSecond paragraph.' }).expect(201);
    expect(response.body.data.content_html).toBe('<p>First paragraph.</p>\n<p>Second paragraph.</p>');
  });
});

describe('parity with the admin', () => {
  const madeInTheAdmin = () => ({
    title: 'Made in the admin',
    content: '<p>Editor text here.</p><script>alert(1)</script>',
    category: app.categoryId,
    tags: 'a, A, b',
  });
  // The first "Made in the admin", created by its own test or, when that test has not run, by the
  // helper below (each test can run alone: npx jest <file> -t '<name>').
  let madeInTheAdminSlug: string | undefined;

  /** The slug of the first article created the Content Manager way. */
  async function firstAdminArticleSlug(): Promise<string> {
    if (madeInTheAdminSlug === undefined) {
      madeInTheAdminSlug = (await app.strapi.documents(ARTICLE_UID).create({ data: madeInTheAdmin() })).slug as string;
    }
    return madeInTheAdminSlug;
  }

  it('gives an article created the Content Manager way the same defaults as POST', async () => {
    const created = await app.strapi.documents(ARTICLE_UID).create({ data: madeInTheAdmin() });
    madeInTheAdminSlug = created.slug as string;
    expect(created).toMatchObject({
      slug: 'made-in-the-admin',
      summary: 'Editor text here.',
      author: 'Lichtbild Studio',
      meta_title: 'Made in the admin',
      meta_description: 'Editor text here.',
      content: '<p>Editor text here.</p>',
      tags: 'a, b',
    });
  });

  it('numbers a taken slug for an admin-created article too', async () => {
    expect(await firstAdminArticleSlug()).toBe('made-in-the-admin');
    const created = await app.strapi.documents(ARTICLE_UID).create({ data: { title: 'Made in the admin', content: 'Again.' } });
    expect(created.slug).toBe('made-in-the-admin-2');
  });

  it('refills defaults that an editor blanks, and keeps the rest', async () => {
    const documents = app.strapi.documents(ARTICLE_UID);
    const created = await documents.create({ data: { title: 'Editable', content: 'Original body.', summary: 'Hand-written.' } });
    const updated = await documents.update({
      documentId: created.documentId,
      data: { summary: '', meta_title: '', content: 'New body text.' },
    });
    // The meta description was generated from the summary, so it follows the new one.
    expect(updated).toMatchObject({
      summary: 'New body text.',
      meta_title: 'Editable',
      slug: 'editable',
      meta_description: 'New body text.',
    });
  });

  it('publishes an admin article into the public reads with its tags indexed', async () => {
    const documents = app.strapi.documents(ARTICLE_UID);
    const created = await documents.create({ data: { title: 'Admin published', content: 'x', tags: 'AdminTag' } });
    expect((await app.api().get('/api/artikel?tag=admintag').expect(200)).body.data).toEqual([]);
    await documents.publish({ documentId: created.documentId });
    expect((await app.api().get('/api/artikel?tag=admintag').expect(200)).body.data.map((a: { slug: string }) => a.slug)).toEqual([
      'admin-published',
    ]);
  });
});

describe('webhooks', () => {
  it('fires entry.create and entry.publish for an article published through POST', async () => {
    const received: Array<{ event: string; model: string; entry: { slug?: string } }> = [];
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push(JSON.parse(body));
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const webhookStore = app.strapi.get('webhookStore') as { createWebhook: (data: object) => Promise<object> };
      const webhookRunner = app.strapi.get('webhookRunner') as { add: (webhook: object) => void };
      const webhook = await webhookStore.createWebhook({
        name: 'site rebuild',
        url: `http://127.0.0.1:${port}/hook`,
        headers: {},
        events: ['entry.create', 'entry.publish'],
        isEnabled: true,
      });
      webhookRunner.add(webhook);

      await post({ title: 'Webhook article', category: 'Weddings', content: 'Hello hooks.' }).expect(201);

      await eventually(
        () => received.filter((event) => event.entry?.slug === 'webhook-article').length,
        (count) => count >= 2,
        { withinMs: 10_000, everyMs: 50 },
      );
      const events = received
        .filter((event) => event.model === 'article' && event.entry?.slug === 'webhook-article')
        .map((event) => event.event);
      expect(events.sort()).toEqual(['entry.create', 'entry.publish']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('views in the admin', () => {
  it('shows a signed-in editor the view count through the admin route, and refuses anyone else', async () => {
    const response = await post({ title: 'Counted in admin', category: 'Weddings', content: 'x' }).expect(201);
    const documentId: string = response.body.data.id;
    await app.api().get('/api/artikel/counted-in-admin').expect(200);
    await app.api().get('/api/artikel/counted-in-admin').expect(200);

    await app.api().get(`/artikel/views/${documentId}`).expect(401);

    const superAdmin = await (
      app.strapi.service('admin::role') as unknown as { getSuperAdmin: () => Promise<{ id: number }> }
    ).getSuperAdmin();
    const users = app.strapi.service('admin::user') as unknown as { create: (data: object) => Promise<unknown> };
    await users.create({
      email: 'editor@example.com',
      firstname: 'Ed',
      lastname: 'Itor',
      password: 'Editor-pass-1',
      isActive: true,
      roles: [superAdmin.id],
    });
    const login = await app.api().post('/admin/login').send({ email: 'editor@example.com', password: 'Editor-pass-1' }).expect(200);
    const adminToken: string = login.body.data.token;

    const views = await app.api().get(`/artikel/views/${documentId}`).set('Authorization', `Bearer ${adminToken}`).expect(200);
    expect(views.body).toEqual({ data: { document_id: documentId, views: 2 } });
  });
});
