// @timing: how late a scheduled article goes live (run one at a time, see jest.config.js)
import { waitUntil } from '../helpers/eventually';
import { inJakarta } from '../helpers/public-reads';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

// The contract: a scheduled article is live within 5 s after its publish_at on a running service.
const SCHEDULES = 20;
const CONTRACT_MS = 5_000;

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true });
});

afterAll(async () => {
  await app?.stop();
});

interface Article {
  slug: string;
  status: string;
  published_at: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

it(`publishes ${SCHEDULES} schedules due a tenth of a second apart, each within 5 s of its publish_at, at its publish_at`, async () => {
  const start = Date.now() + 3_000;
  const scheduled: Array<{ slug: string; publishAt: string }> = [];
  for (let n = 0; n < SCHEDULES; n += 1) {
    const publishAt = inJakarta(start + n * 100);
    const answer = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: `Night market ${n}`, category: 'Studio', content: 'Lanterns.', status: 'scheduled', publish_at: publishAt })
      .expect(201);
    scheduled.push({ slug: (answer.body.data as Article).slug, publishAt });
  }
  // Each is polled with HEAD (no view) every 100 ms; its lateness is when it was first seen live,
  // so it includes up to one poll's interval and answer.
  const firstSeen = new Map<string, number>();
  await waitUntil(
    async () => {
      await Promise.all(
        scheduled
          .filter(({ slug }) => !firstSeen.has(slug))
          .map(async ({ slug }) => {
            if ((await app.api().head(`/api/artikel/${slug}`)).status === 200) firstSeen.set(slug, Date.now());
          }),
      );
      return firstSeen.size === SCHEDULES;
    },
    60_000,
    'every schedule live',
  );
  const lateness: number[] = [];
  for (const { slug, publishAt } of scheduled) {
    const live = (await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data as Article;
    expect(live.status).toBe('published');
    expect(new Date(live.published_at).getTime()).toBe(new Date(publishAt).getTime());
    lateness.push((firstSeen.get(slug) ?? Infinity) - new Date(publishAt).getTime());
  }
  lateness.sort((a, b) => a - b);
  reportFigure(
    `scheduled publishing lateness on ${app.store} (${SCHEDULES} schedules)`,
    `p50 ${percentile(lateness, 50)} ms, max ${lateness[lateness.length - 1]} ms`,
  );
  expect(lateness[0]).toBeGreaterThanOrEqual(0);
  expect(lateness[lateness.length - 1]).toBeLessThan(CONTRACT_MS);
}, 120_000);
