import { ARTICLES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { waitUntil } from '../helpers/eventually';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

// The contract: live within 5 s after publish_at; the poll allows far more, for a loaded machine.
const DUE_IN_MS = Number(process.env.DUE_IN_MS ?? 3_000);
const LIVE_WITHIN_MS = 20_000;

let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Portraits', slug: 'portraits' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface CmDocument {
  documentId: string;
  slug: string;
  publish_at: string | null;
}

/** A draft the editor saves in the Content Manager with "Publish at" set, as the form sends it. */
async function savedWithSchedule(publishAt: Date): Promise<CmDocument> {
  const title = uniqueTitle('Harbour lights');
  const answer = await editor
    .post(ARTICLES_PATH, {
      title,
      content: `Evening at the harbour, ${title}.`,
      category: connect(app.categoryId),
      publish_at: publishAt.toISOString(),
    })
    .expect(201);
  return answer.body.data as CmDocument;
}

const stored = async (documentId: string): Promise<CmDocument> =>
  (await editor.get(`${ARTICLES_PATH}/${documentId}`).expect(200)).body.data as CmDocument;

describe('"Publish at" in the Content Manager', () => {
  it('schedules a saved draft: the API shows it scheduled to no one, and it goes live by itself at that time', async () => {
    const publishAt = new Date(Date.now() + DUE_IN_MS);
    const draft = await savedWithSchedule(publishAt);
    expect(new Date(draft.publish_at ?? 0).getTime()).toBe(publishAt.getTime());
    await app.api().get(`/api/artikel/${draft.slug}`).expect(404);
    const seen = await app
      .api()
      .patch(`/api/artikel/${draft.slug}`)
      .set(app.auth())
      .query({ dry_run: 'true' })
      .send({ tags: 'Harbour' })
      .expect(200);
    expect(seen.body.data).toMatchObject({ status: 'scheduled', publish_at: publishAt.toISOString(), published_at: null });

    await waitUntil(async () => (await app.api().head(`/api/artikel/${draft.slug}`)).status === 200, DUE_IN_MS + LIVE_WITHIN_MS, 'live');
    const live = (await app.api().get(`/api/artikel/${draft.slug}`).expect(200)).body.data;
    expect(live).toMatchObject({ status: 'published', publish_at: null, published_at: publishAt.toISOString() });
    expect((await stored(draft.documentId)).publish_at).toBeNull();
  }, 60_000);

  it('cancels the schedule when the editor publishes by hand: live now, and nothing left to publish later', async () => {
    const publishAt = new Date(Date.now() + 60 * 60 * 1000);
    const draft = await savedWithSchedule(publishAt);
    const before = Date.now();
    await editor.post(`${ARTICLES_PATH}/${draft.documentId}/actions/publish`, {}).expect(200);
    const live = (await app.api().get(`/api/artikel/${draft.slug}`).expect(200)).body.data;
    expect(live).toMatchObject({ status: 'published', publish_at: null });
    expect(new Date(live.published_at).getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect((await stored(draft.documentId)).publish_at).toBeNull();
  });

  it('cancels the schedule when the editor unpublishes, and when the editor clears the field', async () => {
    const cleared = await savedWithSchedule(new Date(Date.now() + 60 * 60 * 1000));
    await editor.put(`${ARTICLES_PATH}/${cleared.documentId}`, { publish_at: null }).expect(200);
    expect((await stored(cleared.documentId)).publish_at).toBeNull();

    // A live article whose next version is scheduled: unpublishing ends that schedule too.
    const live = await savedWithSchedule(new Date(Date.now() + 60 * 60 * 1000));
    await editor.post(`${ARTICLES_PATH}/${live.documentId}/actions/publish`, {}).expect(200);
    await editor
      .put(`${ARTICLES_PATH}/${live.documentId}`, { publish_at: new Date(Date.now() + 60 * 60 * 1000).toISOString() })
      .expect(200);
    await editor.post(`${ARTICLES_PATH}/${live.documentId}/actions/unpublish`, {}).expect(200);
    expect((await stored(live.documentId)).publish_at).toBeNull();
    await app.api().get(`/api/artikel/${live.slug}`).expect(404);
  });

  it('refuses a time in the past with a 400 under the field, and saves nothing', async () => {
    const title = uniqueTitle('Too late');
    const answer = await editor
      .post(ARTICLES_PATH, {
        title,
        content: 'Yesterday.',
        category: connect(app.categoryId),
        publish_at: new Date(Date.now() - 60_000).toISOString(),
      })
      .expect(400);
    expect(isContractError(answer)).toBe(true);
    expect(answer.body.error.details.errors.map((error: { path: string[] }) => error.path.join('.'))).toEqual(['publish_at']);
    const list = await editor.get(`${ARTICLES_PATH}?filters[title][$eq]=${encodeURIComponent(title)}`).expect(200);
    expect(list.body.results).toHaveLength(0);
  });
});
