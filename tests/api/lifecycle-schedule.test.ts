import { registerEditor } from '../helpers/admin';
import { waitUntil } from '../helpers/eventually';
import { expectEverywhere, expectNowhere, inJakarta, publicPresence, SITE_ARTICLE_URL, sleep } from '../helpers/public-reads';
import { isContractError, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { startWebhookReceiver, webhookForm, type WebhookReceiver } from '../helpers/webhook-receiver';

// The contract: live within 5 s after publish_at. The polls allow far more, for a loaded machine.
const DUE_IN_MS = 3_000;
const LIVE_WITHIN_MS = 20_000;

let app: TestApp;
let receiver: WebhookReceiver;
let counter = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { SITE_ARTICLE_URL } });
  receiver = await startWebhookReceiver();
  const editor = await registerEditor(app);
  await editor.post('/admin/webhooks', webhookForm(receiver)).expect(201);
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

interface Article {
  id: string;
  slug: string;
  title: string;
  status: string;
  publish_at: string | null;
  published_at: string | null;
}

function body(fields: Record<string, string> = {}) {
  counter += 1;
  return { title: `Blue hour at the harbour ${counter}`, category: 'Studio', content: `Harbour ${counter}. Lights come on.`, ...fields };
}

const post = (fields: Record<string, string>) => app.api().post('/api/artikel').set(app.auth()).send(fields);
const patch = (slug: string, fields: object) => app.api().patch(`/api/artikel/${slug}`).set(app.auth()).send(fields);
const status = async (slug: string) => (await app.api().head(`/api/artikel/${slug}`)).status;
const sameInstant = (a: string | null, b: string) => a !== null && new Date(a).getTime() === new Date(b).getTime();

/** Waits until the article's public GET answers 200 (polled with HEAD, which counts no view). */
async function waitUntilLive(slug: string): Promise<void> {
  await waitUntil(async () => (await status(slug)) === 200, DUE_IN_MS + LIVE_WITHIN_MS, `${slug} live`);
}

function refusedFields(answer: { body: { error: { details: { errors: Array<{ path: string[] }> } } } }): string[] {
  return answer.body.error.details.errors.map((error) => error.path.join('.'));
}

describe('scheduling with POST', () => {
  it('stores an article with status scheduled, its publish_at and no published_at, in no public read', async () => {
    const before = await publicPresence(app, 'nothing-here');
    const publishAt = inJakarta(Date.now() + 60 * 60 * 1000);
    const created = await post(body({ status: 'scheduled', publish_at: publishAt })).expect(201);
    const article = created.body.data as Article;
    expect(article.status).toBe('scheduled');
    expect(sameInstant(article.publish_at, publishAt)).toBe(true);
    expect(article.published_at).toBeNull();

    const presence = await publicPresence(app, article.slug);
    expectNowhere(presence);
    expect(presence.listTotal).toBe(before.listTotal);
    expect(presence.categoryCount).toBe(before.categoryCount);
  });

  it('publishes the article by itself once publish_at has passed: published_at is publish_at, one entry.publish webhook', async () => {
    const publishAt = inJakarta(Date.now() + DUE_IN_MS);
    const article = (await post(body({ status: 'scheduled', publish_at: publishAt })).expect(201)).body.data as Article;
    expect(await status(article.slug)).toBe(404);
    expect(receiver.eventsFor(article.id, 'entry.publish')).toHaveLength(0);

    await waitUntilLive(article.slug);
    const live = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    expect(live.status).toBe('published');
    expect(live.publish_at).toBeNull();
    expect(sameInstant(live.published_at, publishAt)).toBe(true);
    const presence = await publicPresence(app, article.slug);
    expectEverywhere(presence);
    expect(presence.inLatest).toBe(true);

    await receiver.waitFor(() => receiver.eventsFor(article.id, 'entry.publish').length > 0);
    // Late duplicates would arrive within moments.
    await sleep(2_000);
    expect(receiver.eventsFor(article.id, 'entry.publish')).toHaveLength(1);
  });
});

describe('scheduling with PATCH', () => {
  it('schedules a draft, which goes live by itself at publish_at', async () => {
    const draft = (await post(body({ status: 'draft' })).expect(201)).body.data as Article;
    const publishAt = inJakarta(Date.now() + DUE_IN_MS);
    const scheduled = (await patch(draft.slug, { status: 'scheduled', publish_at: publishAt }).expect(200)).body.data as Article;
    expect(scheduled).toMatchObject({ slug: draft.slug, status: 'scheduled', published_at: null });
    expect(sameInstant(scheduled.publish_at, publishAt)).toBe(true);
    expect(await status(draft.slug)).toBe(404);

    await waitUntilLive(draft.slug);
    const live = (await app.api().get(`/api/artikel/${draft.slug}`).expect(200)).body.data as Article;
    expect(live).toMatchObject({ status: 'published', publish_at: null });
    expect(sameInstant(live.published_at, publishAt)).toBe(true);
  });

  it('takes a published article off the site until its new publish time', async () => {
    const article = (await post(body()).expect(201)).body.data as Article;
    const publishAt = inJakarta(Date.now() + DUE_IN_MS);
    await patch(article.slug, { status: 'scheduled', publish_at: publishAt }).expect(200);
    expectNowhere(await publicPresence(app, article.slug));

    await waitUntilLive(article.slug);
    const live = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    expect(sameInstant(live.published_at, publishAt)).toBe(true);
  });

  it('cancels a schedule with status draft: publish_at becomes null and the article stays unpublished after the time', async () => {
    const publishAt = Date.now() + DUE_IN_MS;
    const article = (await post(body({ status: 'scheduled', publish_at: inJakarta(publishAt) })).expect(201)).body.data as Article;
    const cancelled = (await patch(article.slug, { status: 'draft' }).expect(200)).body.data as Article;
    expect(cancelled).toMatchObject({ status: 'draft', publish_at: null, published_at: null });

    await sleep(publishAt + 6_000 - Date.now());
    expectNowhere(await publicPresence(app, article.slug));
    expect(receiver.eventsFor(article.id, 'entry.publish')).toHaveLength(0);
  });

  it('moves a schedule with a new publish_at: nothing at the old time, live at the new one', async () => {
    const firstAt = Date.now() + DUE_IN_MS;
    const article = (await post(body({ status: 'scheduled', publish_at: inJakarta(firstAt) })).expect(201)).body.data as Article;
    const movedTo = inJakarta(firstAt + 10_000);
    const moved = (await patch(article.slug, { publish_at: movedTo }).expect(200)).body.data as Article;
    expect(moved.status).toBe('scheduled');
    expect(sameInstant(moved.publish_at, movedTo)).toBe(true);

    await sleep(firstAt + 5_500 - Date.now());
    expect(await status(article.slug)).toBe(404);

    await waitUntilLive(article.slug);
    const live = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    expect(sameInstant(live.published_at, movedTo)).toBe(true);
    expect(new Date(live.published_at ?? 0).getTime()).toBeGreaterThan(firstAt);
  });

  it('never publishes a scheduled article that was deleted, and sends entry.delete for it', async () => {
    const publishAt = Date.now() + DUE_IN_MS;
    const article = (await post(body({ status: 'scheduled', publish_at: inJakarta(publishAt) })).expect(201)).body.data as Article;
    await app.api().delete(`/api/artikel/${article.slug}`).set(app.auth()).expect(204);
    await receiver.waitFor(() => receiver.eventsFor(article.id, 'entry.delete').length > 0);

    await sleep(publishAt + 6_000 - Date.now());
    expectNowhere(await publicPresence(app, article.slug));
    expect(receiver.eventsFor(article.id, 'entry.publish')).toHaveLength(0);
  });
});

describe('refused schedules', () => {
  const soon = () => inJakarta(Date.now() + 60 * 60 * 1000);
  const refusals = (): Array<[string, Record<string, string>]> => [
    ['a publish_at in the past', { status: 'scheduled', publish_at: inJakarta(Date.now() - 60_000) }],
    ['a publish_at without a time zone', { status: 'scheduled', publish_at: '2030-01-01T10:00:00' }],
    ['a publish_at that is not a date', { status: 'scheduled', publish_at: 'next tuesday' }],
    ['a publish_at with status published', { status: 'published', publish_at: soon() }],
    ['a publish_at with status draft', { status: 'draft', publish_at: soon() }],
    ['status scheduled without publish_at', { status: 'scheduled' }],
  ];

  it('refuses each bad schedule on POST with a 400 naming publish_at, and stores nothing', async () => {
    const before = await storedRowCounts(app.strapi);
    for (const [what, fields] of refusals()) {
      const refused = await post(body(fields));
      expect({ what, status: refused.status }).toEqual({ what, status: 400 });
      expect(isContractError(refused)).toBe(true);
      expect(refusedFields(refused)).toEqual(['publish_at']);
    }
    expect(await storedRowCounts(app.strapi)).toEqual(before);
  });

  it('refuses each bad schedule on PATCH with a 400 naming publish_at, and the article stays as it was', async () => {
    const article = (await post(body()).expect(201)).body.data as Article & { updated_at: string };
    for (const [what, fields] of refusals()) {
      const refused = await patch(article.slug, fields);
      expect({ what, status: refused.status }).toEqual({ what, status: 400 });
      expect(refusedFields(refused)).toEqual(['publish_at']);
    }
    const after = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article & { updated_at: string };
    expect(after).toMatchObject({
      status: 'published',
      publish_at: null,
      published_at: article.published_at,
      updated_at: article.updated_at,
    });
  });
});
