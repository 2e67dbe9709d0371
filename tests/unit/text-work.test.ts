import path from 'node:path';
import { testDistDir } from '../helpers/test-dist';
import {
  renderContentHtml,
  readingTimeMinutes,
  sanitizeStoredContent,
  summarize,
} from '../../src/plugins/artikel/server/src/utils/content';
import { contentAsMarkdown } from '../../src/plugins/artikel/server/src/utils/html-markdown';

// The pool runs the compiled thread file, so it is loaded from the build the suite made (global-setup.ts).
type TextWorkModule = typeof import('../../src/plugins/artikel/server/src/infrastructure/text-work');
const compiled = path.join(testDistDir(), 'src', 'plugins', 'artikel', 'server', 'src', 'infrastructure', 'text-work.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled file by its path, which an import cannot name
const { INLINE_BELOW, closeTextWork, textWork } = require(compiled) as TextWorkModule;

const paragraph = '<p>Light and <strong>shadow</strong> over the <a href="javascript:alert(1)">harbour</a>.<script>x()</script></p>\n';
const longHtml = paragraph.repeat(Math.ceil((64 * 1024) / paragraph.length));
const longMarkdown = 'Fog over the quay, **slowly** lifting. [A link](https://example.com)\n\n'.repeat(1200);

afterAll(async () => {
  await closeTextWork();
});

describe('text work on a thread', () => {
  it('a long content is sanitized, summarized, rendered, counted and converted on the thread exactly as inline', async () => {
    expect(longHtml.length).toBeGreaterThan(INLINE_BELOW);
    expect(await textWork('sanitizeStoredContent', longHtml)).toBe(sanitizeStoredContent(longHtml));
    expect(await textWork('summarize', longHtml)).toBe(summarize(longHtml));
    expect(await textWork('renderContentHtml', longMarkdown)).toBe(renderContentHtml(longMarkdown));
    expect(await textWork('readingTimeMinutes', longMarkdown)).toBe(readingTimeMinutes(longMarkdown));
    expect(await textWork('contentAsMarkdown', longHtml)).toBe(contentAsMarkdown(longHtml));
  });

  it('a short content gives the same answers without a thread', async () => {
    const short = paragraph.repeat(3);
    expect(short.length).toBeLessThan(INLINE_BELOW);
    expect(await textWork('sanitizeStoredContent', short)).toBe(sanitizeStoredContent(short));
    expect(await textWork('summarize', short)).toBe(summarize(short));
  });

  it('long contents sent together are all answered, each with its own result', async () => {
    const contents = Array.from({ length: 6 }, (_unused, index) => `<h2>Part ${index}</h2>\n${longHtml}`);
    const summaries = await Promise.all(contents.map((content) => textWork('summarize', content)));
    expect(summaries).toEqual(contents.map((content) => summarize(content)));
  });
});
