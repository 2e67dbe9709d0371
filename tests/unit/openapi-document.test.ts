import openApiDocument from '../../src/plugins/artikel/server/src/openapi/openapi.json';
import { LIST_MAX_LIMIT } from '../../src/plugins/artikel/server/src/constants';
import { FIELD_LIMITS, MAX_TAG_LENGTH, MAX_TAGS } from '../../src/plugins/artikel/server/src/utils/field-limits';
import { answerProblems } from '../helpers/openapi-check';

type Properties = Record<string, { maxLength?: number; description?: string; maximum?: number }>;
const createArticle = openApiDocument.components.schemas.CreateArticle as unknown as { properties: Properties; required: string[] };

const summary = {
  id: 'abc',
  title: 'T',
  slug: 't',
  summary: 'S.',
  category: { name: 'C', slug: 'c' },
  tags: [],
  cover_image_url: null,
  cover: null,
  author: 'Studio',
  views: 0,
  reading_time: 1,
  published_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};
const list = {
  data: [summary],
  meta: { pagination: { page: 1, limit: 10, total: 1, total_exact: true, page_count: 1 } },
  links: { next: null, prev: null },
};
const url = 'http://127.0.0.1/api/artikel?q=t';

describe('the OpenAPI document', () => {
  it('states the limits the code enforces on every field of a post', () => {
    for (const [field, limit] of Object.entries(FIELD_LIMITS)) {
      expect({ field, maxLength: createArticle.properties[field]?.maxLength }).toEqual({ field, maxLength: limit });
    }
    expect(createArticle.properties.tags.description).toContain(`at most ${MAX_TAGS} tags of at most ${MAX_TAG_LENGTH} characters`);
    expect(createArticle.required).toEqual(['title', 'category', 'content']);
    const pagination = openApiDocument.components.schemas.ArticleList.properties.meta.properties.pagination
      .properties as unknown as Properties;
    expect(pagination.limit.maximum).toBe(LIST_MAX_LIMIT);
  });

  it('lets the answer checker pass an answer as documented and name what differs in one that is not', async () => {
    expect(await answerProblems('GET', url, { status: 200, body: list })).toEqual([]);
    const extraField = await answerProblems('GET', url, { status: 200, body: { ...list, data: [{ ...summary, secret: 1 }] } });
    expect(extraField).toEqual([expect.stringContaining('/data/0 must NOT have additional properties')]);
    const wrongType = await answerProblems('GET', url, { status: 200, body: { ...list, data: [{ ...summary, views: '3' }] } });
    expect(wrongType).toEqual([expect.stringContaining('/data/0/views must be integer')]);
    expect(await answerProblems('GET', url, { status: 500, body: {} })).toEqual([
      expect.stringContaining('status 500 is not in the document'),
    ]);
    expect(await answerProblems('GET', 'http://127.0.0.1/admin/login', { status: 200, body: {} })).toBeNull();
  });
});
