import { startStrapi, type TestApp } from '../helpers/strapi';
import { eventually } from '../helpers/eventually';

interface RevisionEntry {
  number: number;
}

let bounded: TestApp;

describe('revisions are bounded', () => {
  beforeAll(async () => {
    bounded = await startStrapi({
      token: 'full-access',
      category: true,
      env: { ARTIKEL_RATE_LIMIT: '0', ARTIKEL_REVISIONS_KEEP: '3', ARTIKEL_REVISIONS_DAYS: '1', ARTIKEL_CLEANUP_SECONDS: '1' },
    });
  });
  afterAll(async () => {
    await bounded?.stop();
  });

  it('keeps the newest ARTIKEL_REVISIONS_KEEP revisions of an article', async () => {
    const created = await bounded
      .api()
      .post('/api/artikel')
      .set(bounded.auth())
      .send({ title: 'Tide table', category: 'Studio', content: 'Low tide at six.' })
      .expect(201);
    const slug = created.body.data.slug as string;
    for (let index = 1; index <= 5; index += 1) {
      await bounded
        .api()
        .patch(`/api/artikel/${slug}`)
        .set(bounded.auth())
        .send({ content: `Low tide at ${6 + index}.` })
        .expect(200);
    }
    const entries = (await bounded.api().get(`/api/artikel/${slug}/revisions`).set(bounded.auth()).expect(200)).body
      .data as RevisionEntry[];
    expect(entries.map((entry) => entry.number)).toEqual([6, 5, 4]);
  });

  it('removes revisions older than ARTIKEL_REVISIONS_DAYS in the background, keeping each article’s newest', async () => {
    const created = await bounded
      .api()
      .post('/api/artikel')
      .set(bounded.auth())
      .send({ title: 'Old harbour', category: 'Studio', content: 'Old.' })
      .expect(201);
    const { slug, id } = created.body.data as { slug: string; id: string };
    await bounded.api().patch(`/api/artikel/${slug}`).set(bounded.auth()).send({ content: 'Newer.' }).expect(200);
    // Both revisions made two days ago.
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    await bounded.strapi.db
      .connection('artikel_revisions')
      .where('article_document_id', id)
      .update({ created_at: bounded.store === 'sqlite' ? twoDaysAgo : new Date(twoDaysAgo) });
    const numbers = await eventually(
      async () =>
        ((await bounded.api().get(`/api/artikel/${slug}/revisions`).set(bounded.auth()).expect(200)).body.data as RevisionEntry[]).map(
          (entry) => entry.number,
        ),
      (found) => found.length <= 1,
      { withinMs: 30_000 },
    );
    expect(numbers).toEqual([2]);
  });
});
