import { createArticle } from '../helpers/fixtures';
import { loadWorkflow, recipeFiles, RECIPE_ORIGIN, runWorkflow, type Workflow, type WorkflowRun } from '../helpers/n8n-workflows';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

// Issue "Agents": n8n recipes for every write, as workflow files in docs/recipes/ (each run in a
// real n8n 2.41.1 when it was written; see its README). Here each file is played against a real
// service (tests/helpers/n8n-workflows.ts): the requests its nodes make, what the service answers,
// what is stored afterwards, and the row outcomes its last node writes back.

const SAMPLE_SLUGS = ['spring-mini-sessions-are-open', 'golden-hour-at-the-harbour', 'how-we-pack-for-a-wedding'];
// The default ARTIKEL_RATE_LIMIT: writes a minute per token.
const WRITES_PER_MINUTE = 60;

let app: TestApp;
let token: string;

beforeEach(async () => {
  app = await startStrapi({ category: true });
  token = await createApiToken(app.strapi, 'custom', [
    'plugin::artikel.artikel.create',
    'plugin::artikel.artikel.update',
    'plugin::artikel.artikel.delete',
  ]);
}, 120_000);

afterEach(async () => {
  await app?.stop();
});

const play = async (file: string | Workflow, rows?: Array<Record<string, unknown>>): Promise<WorkflowRun> =>
  runWorkflow(typeof file === 'string' ? loadWorkflow(file) : file, { origin: await app.baseUrl(), token, rows });

const statusesOf = (run: WorkflowRun, node: string) =>
  run.requests.filter((request) => request.node === node).map((request) => request.status);
const outcomes = (run: WorkflowRun) => run.outputs['Row outcome'];
const current = async (slug: string) =>
  fetch(`${await app.baseUrl()}/api/artikel/${slug}/current`, { headers: { Authorization: `Bearer ${token}` } });
const publicRead = async (slug: string) => (await fetch(`${await app.baseUrl()}/api/artikel/${slug}`)).status;

describe('the n8n workflow files', () => {
  it.each(recipeFiles())('%s carries no secret, names its credential, and sends every write safely', (file) => {
    const workflow = loadWorkflow(file);
    const text = JSON.stringify(workflow);
    expect(text).not.toMatch(/Bearer [A-Za-z0-9]|[0-9a-f]{64}/);
    for (const node of workflow.nodes.filter((entry) => entry.type === 'n8n-nodes-base.httpRequest')) {
      expect(String(node.parameters.url).replace(/^=/, '')).toMatch(new RegExp(`^${RECIPE_ORIGIN}/api/artikel`));
      expect(node.parameters.genericAuthType ?? 'none').toMatch(/^(httpBearerAuth|none)$/);
      if (node.parameters.genericAuthType === 'httpBearerAuth')
        expect(node.credentials?.httpBearerAuth).toEqual({ id: null, name: 'Artikel API token' });
      if (node.parameters.method === 'GET' && node.parameters.options?.pagination !== undefined) continue;
      // Every write (and a read of the current version): its status to the row's outcome, errors on their own output, no blind retries.
      expect(node.parameters.options?.response?.response?.fullResponse).toBe(true);
      expect(node.onError).toBe('continueErrorOutput');
      expect(node.retryOnFail ?? false).toBe(false);
      if (node.parameters.method !== 'GET') {
        const { batchSize, batchInterval } = node.parameters.options?.batching?.batch ?? {};
        expect(batchSize).toBe(1);
        expect((60_000 / Number(batchInterval)) * Number(batchSize)).toBeLessThan(WRITES_PER_MINUTE);
      }
    }
  });
});

describe('publish rows (publish-rows.json)', () => {
  it('publishes each row once, keyed by the source and the row, and a re-run creates nothing', async () => {
    const first = await play('publish-rows.json');
    expect(statusesOf(first, 'POST article')).toEqual([201, 201, 201]);
    expect(first.requests.map((request) => request.headers['Idempotency-Key'])).toEqual([
      'blog-sheet-row-2',
      'blog-sheet-row-3',
      'blog-sheet-row-4',
    ]);
    expect(outcomes(first)).toEqual(
      SAMPLE_SLUGS.map((slug, index) =>
        expect.objectContaining({
          row: index + 2,
          status: 201,
          replayed: false,
          location: `/api/artikel/${slug}`,
          article_status: 'published',
          error: null,
        }),
      ),
    );
    for (const slug of SAMPLE_SLUGS) expect(await publicRead(slug)).toBe(200);

    const again = await play('publish-rows.json');
    expect(statusesOf(again, 'POST article')).toEqual([201, 201, 201]);
    expect(outcomes(again).map((outcome) => outcome.replayed)).toEqual([true, true, true]);
    expect(await app.strapi.documents('api::article.article').count({ status: 'published' })).toBe(3);
  });

  it('tells the row that changed after it was published to PATCH its article, and publishes nothing twice', async () => {
    const published = await play('publish-rows.json');
    const rows = published.outputs['Sheet rows (sample)'].map(({ source: _source, ...row }) => row);
    const changed = [{ ...rows[0], content: 'The sessions are fully booked.' }, ...rows.slice(1)];
    const run = await play('publish-rows.json', changed);
    expect(statusesOf(run, 'POST article')).toEqual([422, 201, 201]);
    // n8n writes the error output's outcomes after the main output's.
    expect(outcomes(run).find((outcome) => outcome.row === 2)).toMatchObject({
      row: 2,
      status: 422,
      error: 'UnprocessableEntityError',
      message: expect.stringContaining(`to change that article, send PATCH /api/artikel/${SAMPLE_SLUGS[0]}`),
    });
    expect(await app.strapi.documents('api::article.article').count({ status: 'published' })).toBe(3);
  });
});

describe('the writes after publishing', () => {
  it('updates each row’s article through its current ETag (update-row.json), and a re-run changes nothing', async () => {
    await play('publish-rows.json');
    const run = await play('update-row.json');
    expect(statusesOf(run, 'GET current')).toEqual([200, 200, 200]);
    expect(statusesOf(run, 'PATCH article')).toEqual([200, 200, 200]);
    expect(
      run.requests.filter((request) => request.node === 'PATCH article').every((request) => /^"/.test(request.headers['If-Match'])),
    ).toBe(true);
    expect(((await (await current(SAMPLE_SLUGS[0])).json()) as { data: { title: string } }).data.title).toBe(
      'Spring mini sessions: book now',
    );
    expect(outcomes(run).map((outcome) => outcome.status)).toEqual([200, 200, 200]);

    const again = await play('update-row.json');
    expect(statusesOf(again, 'PATCH article')).toEqual([400, 400, 400]);
    expect(outcomes(again)[0]).toMatchObject({ status: 400, message: expect.stringContaining('changes nothing') });
  });

  it('schedules each row’s article (schedule.json): off the public site until its time', async () => {
    await play('publish-rows.json');
    const run = await play('schedule.json');
    expect(statusesOf(run, 'PATCH article')).toEqual([200, 200, 200]);
    expect(outcomes(run).map((outcome) => outcome.article_status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    for (const slug of SAMPLE_SLUGS) expect(await publicRead(slug)).toBe(404);
    const stored = (await (await current(SAMPLE_SLUGS[0])).json()) as { data: { status: string; publish_at: string } };
    expect(stored.data).toMatchObject({ status: 'scheduled', publish_at: '2030-05-04T01:00:00.000Z' });
  });

  it('unpublishes each row’s article (unpublish.json), keeping it as a draft', async () => {
    await play('publish-rows.json');
    const run = await play('unpublish.json');
    expect(statusesOf(run, 'PATCH article')).toEqual([200, 200, 200]);
    for (const slug of SAMPLE_SLUGS) {
      expect(await publicRead(slug)).toBe(404);
      expect(((await (await current(slug)).json()) as { data: { status: string } }).data.status).toBe('draft');
    }
  });

  it('deletes each row’s article into the trash (delete.json), and a re-run finds nothing to delete', async () => {
    await play('publish-rows.json');
    const run = await play('delete.json');
    expect(statusesOf(run, 'DELETE article')).toEqual([204, 204, 204]);
    for (const slug of SAMPLE_SLUGS) expect((await current(slug)).status).toBe(404);
    const again = await play('delete.json');
    expect(statusesOf(again, 'DELETE article')).toEqual([404, 404, 404]);
    expect(outcomes(again)[0]).toMatchObject({ status: 404, error: 'NotFoundError' });
  });
});

describe('read every article (read-every-page.json)', () => {
  it('walks every page along links.next and splits out each article once', async () => {
    for (let index = 1; index <= 7; index += 1) await createArticle(app.strapi, { title: `Catatan ${index}`, slug: `catatan-${index}` });
    const workflow = loadWorkflow('read-every-page.json');
    // Three a page instead of 50, so that seven articles take three pages.
    const reader = workflow.nodes.find((node) => node.name === 'GET every page');
    reader?.parameters.queryParameters?.parameters.forEach((parameter) => {
      if (parameter.name === 'limit') parameter.value = '3';
    });
    const run = await play(workflow);
    expect(statusesOf(run, 'GET every page')).toEqual([200, 200, 200]);
    const slugs = run.outputs['One item per article'].map((article) => article.slug);
    expect([...slugs].sort()).toEqual(Array.from({ length: 7 }, (_, index) => `catatan-${index + 1}`).sort());
  });
});
