import { representationTag } from '../../src/plugins/artikel/server/src/presenters/representation-tag';
import { ifNoneMatchHolds } from '../../src/plugins/artikel/server/src/utils/entity-tags';

const tagOf = (body: unknown): string => representationTag(JSON.stringify(body), 'json');

describe('representationTag', () => {
  it('is the same whatever the view counts, at any depth', () => {
    const page = (views: number[]) => ({
      data: {
        title: 'Golden hour',
        views: views[0],
        related: [
          { slug: 'a', views: views[1] },
          { slug: 'b', views: views[2] },
        ],
      },
    });
    expect(tagOf(page([1, 2, 3]))).toBe(tagOf(page([1000, 0, 77])));
  });

  it('changes with anything else, even text that reads like a view count', () => {
    const article = (content: string) => ({ data: { content, views: 5 } });
    expect(tagOf(article('The "views":1 of the hill'))).not.toBe(tagOf(article('The "views":2 of the hill')));
    expect(tagOf(article('a\\"views":1'))).not.toBe(tagOf(article('a\\"views":2')));
    expect(tagOf({ data: [{ slug: 'a' }, { slug: 'b' }] })).not.toBe(tagOf({ data: [{ slug: 'b' }, { slug: 'a' }] }));
  });

  it('takes a feed or sitemap as written, view-count-like words included', () => {
    expect(representationTag('<item>The "views":1 of the hill</item>', 'text')).not.toBe(
      representationTag('<item>The "views":2 of the hill</item>', 'text'),
    );
  });

  it('is a strong tag: a quoted string without W/', () => {
    expect(tagOf({ data: [] })).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });
});

describe('If-None-Match', () => {
  it('holds the tag by weak comparison, or *, and nothing when malformed or absent', () => {
    expect(ifNoneMatchHolds('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHolds('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHolds('"x", W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHolds(['"x"', '"abc"'], '"abc"')).toBe(true);
    expect(ifNoneMatchHolds('*', '"abc"')).toBe(true);
    expect(ifNoneMatchHolds('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatchHolds('abc', '"abc"')).toBe(false);
    expect(ifNoneMatchHolds('"abc', '"abc"')).toBe(false);
    expect(ifNoneMatchHolds(undefined, '"abc"')).toBe(false);
    expect(ifNoneMatchHolds(`${'"a", '.repeat(5000)}"abc"`, '"abc"')).toBe(true);
  });
});
