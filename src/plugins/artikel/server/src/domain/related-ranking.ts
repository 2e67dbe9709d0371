import type { ArticleWrite } from './written-scope';

/**
 * Where a candidate ranks among an article's related articles: by tags shared with it, then by
 * being in its category, then newest published, then newest created (the order of
 * publishedArticles.sharingTags).
 */
export interface RelatedRank {
  shared: number;
  sameCategory: boolean;
  publishedAt: number;
  createdAt: number;
}

/** Positive when `a` ranks before `b`, negative when after, 0 when the order leaves them tied. */
export function compareRanks(a: RelatedRank, b: RelatedRank): number {
  return (
    a.shared - b.shared || Number(a.sameCategory) - Number(b.sameCategory) || a.publishedAt - b.publishedAt || a.createdAt - b.createdAt
  );
}

/** An article's related articles as chosen by its tags: what a write is checked against. */
export interface TagChoice {
  tagKeys: string[];
  categoryId: number | null;
  /** The documents chosen by shared tags, best first. */
  chosen: string[];
  /** The rank of the last of them when all RELATED_COUNT places went to tag sharers; null when places were left for others. */
  lastRank: RelatedRank | null;
}

/**
 * Whether an article's write can change a choice of related articles by tags, beyond the articles
 * in it (whose own writes change it anyway): the written article now ranks among the chosen (or
 * takes a free place), an article it shared a tag with dropped that tag or stopped being
 * published (another can rise in its place), or a chosen article was pushed out of a tag's
 * candidates by the written one's arrival. Any other write of an article leaves the choice as it was.
 */
export function tagChoiceChangedBy(choice: TagChoice, write: ArticleWrite): boolean {
  const ownTags = new Set(choice.tagKeys);
  const stillTagged = new Set(write.tagKeys);
  if (write.previous.tagKeys.some((key) => ownTags.has(key) && !stillTagged.has(key))) return true;
  if (write.pushedOut.some((documentId) => choice.chosen.includes(documentId))) return true;
  if (write.published === null) return false;
  const shared = write.tagKeys.filter((key) => ownTags.has(key)).length;
  if (shared === 0) return false;
  if (choice.lastRank === null) return true;
  const rank: RelatedRank = {
    shared,
    sameCategory: choice.categoryId !== null && write.categoryId === choice.categoryId,
    publishedAt: write.published.at,
    createdAt: write.published.createdAt,
  };
  // A tie could go either way in the database's order: counted as entering.
  return compareRanks(rank, choice.lastRank) >= 0;
}
