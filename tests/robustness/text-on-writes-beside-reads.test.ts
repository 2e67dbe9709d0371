// @timing: how long reads wait beside writes of hostile text (run one at a time, see jest.config.js)
import { createArticle } from '../helpers/fixtures';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { baselineReads, expectLoopNotHeld, figures, send } from './attack-support';

// The audit's content shapes that held the event loop in a dry run (<div>×60,000: 917 ms, <a ×100,000:
// 274 ms), each sent as a POST and as a dry run beside a cached GET /api/artikel: the text work
// (sanitizing, Markdown, summary) runs off the event loop, so the read beside it does not wait.
let app: TestApp;
let base: string;
let readUrl: string;
let baseline: number[];

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { ARTIKEL_RATE_LIMIT: '0' } });
  await createArticle(app.strapi, { title: 'Harbour at dawn', slug: 'harbour-at-dawn', category: app.categoryId });
  base = await app.baseUrl();
  readUrl = `${base}/api/artikel`;
  await send(readUrl);
  baseline = await baselineReads(readUrl);
  reportFigure('cached GET /api/artikel alone (baseline)', figures(baseline));
}, 120_000);

afterAll(() => app.stop());

const SHAPES: Array<[string, string]> = [
  ['<div>×60,000', '<div>'.repeat(60_000)],
  ['<a ×100,000', '<a '.repeat(100_000)],
  ['nested <b><i>×30,000', '<b><i>'.repeat(30_000)],
];

describe('content that is costly to sanitize does not hold the event loop', () => {
  it.each(SHAPES)('a dry run of %s', async (label, content) => {
    const post = () =>
      send(`${base}/api/artikel?dry_run=true`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Costly ${label}`, category: 'Studio', content }),
      });
    const { result } = await expectLoopNotHeld(`dry run of ${label}`, readUrl, baseline, post);
    expect([200, 400]).toContain(result.status);
  });
});
