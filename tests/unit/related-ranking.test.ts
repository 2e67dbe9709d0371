import { type RelatedRank, type TagChoice, tagChoiceChangedBy } from '../../src/plugins/artikel/server/src/domain/related-ranking';
import type { ArticleWrite } from '../../src/plugins/artikel/server/src/domain/written-scope';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22);

// An article tagged fog, dawn and coast in category 1, whose four related articles each share two of its tags.
const lastRank: RelatedRank = { shared: 2, sameCategory: false, publishedAt: NOW - 30 * DAY, createdAt: NOW - 30 * DAY };
const fullChoice: TagChoice = { tagKeys: ['fog', 'dawn', 'coast'], categoryId: 1, chosen: ['a', 'b', 'c', 'd'], lastRank };

/** A write publishing article "x" now with these tags and category, which stood nowhere before. */
function published(tagKeys: string[], categoryId: number | null, changes: Partial<ArticleWrite> = {}): ArticleWrite {
  return {
    documentId: 'x',
    tagKeys,
    categoryId,
    previous: { tagKeys: [], categoryId: null },
    published: { at: NOW, createdAt: NOW },
    pushedOut: [],
    ...changes,
  };
}

describe("whether an article write changes another article's related articles chosen by tags", () => {
  it('does not when the written article shares none of its tags', () => {
    expect(tagChoiceChangedBy(fullChoice, published(['night', 'astro'], 1))).toBe(false);
  });

  it('does not when the written article shares fewer tags than the last one chosen', () => {
    expect(tagChoiceChangedBy(fullChoice, published(['fog', 'night'], 1))).toBe(false);
  });

  it('does when the written article shares as many tags and is newer, or shares more', () => {
    expect(tagChoiceChangedBy(fullChoice, published(['fog', 'dawn'], 2))).toBe(true);
    expect(
      tagChoiceChangedBy(
        fullChoice,
        published(['fog', 'dawn', 'coast'], null, { published: { at: NOW - 400 * DAY, createdAt: NOW - 400 * DAY } }),
      ),
    ).toBe(true);
  });

  it('does not when the written article shares as many tags but is older and not in its category', () => {
    const older = { at: NOW - 40 * DAY, createdAt: NOW - 40 * DAY };
    expect(tagChoiceChangedBy(fullChoice, published(['fog', 'dawn'], 2, { published: older }))).toBe(false);
    // Its category ranks it before the last one, whatever its age.
    expect(tagChoiceChangedBy(fullChoice, published(['fog', 'dawn'], 1, { published: older }))).toBe(true);
  });

  it('does for any sharer while places are left for the category or the newest', () => {
    const partial: TagChoice = { ...fullChoice, chosen: ['a'], lastRank: null };
    expect(tagChoiceChangedBy(partial, published(['coast'], null, { published: { at: 0, createdAt: 0 } }))).toBe(true);
    expect(tagChoiceChangedBy(partial, published(['night'], 1))).toBe(false);
  });

  it("does when a chosen article is pushed out of a tag's candidates by the written one", () => {
    expect(tagChoiceChangedBy(fullChoice, published(['night'], 3, { pushedOut: ['c'] }))).toBe(true);
    expect(tagChoiceChangedBy(fullChoice, published(['night'], 3, { pushedOut: ['z'] }))).toBe(false);
  });

  it('does when the written article drops one of its tags or stops being published, as another can rise in its place', () => {
    const before = { tagKeys: ['fog', 'night'], categoryId: 3 };
    expect(tagChoiceChangedBy(fullChoice, published(['night'], 3, { previous: before }))).toBe(true);
    expect(tagChoiceChangedBy(fullChoice, { ...published([], null, { previous: before }), published: null })).toBe(true);
    // Keeping the shared tag and dropping another one changes nothing here.
    expect(
      tagChoiceChangedBy(
        fullChoice,
        published(['fog'], 3, { previous: before, published: { at: NOW - 90 * DAY, createdAt: NOW - 90 * DAY } }),
      ),
    ).toBe(false);
  });
});
