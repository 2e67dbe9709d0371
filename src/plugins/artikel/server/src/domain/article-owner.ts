/** An article as the permission conditions of a role read it: its creator. */
export interface OwnedArticle {
  documentId: string;
  /** The article's current slug, which a refusal names; null for one that has none. */
  slug: string | null;
  /** The admin user who created it; null when a token, the scheduler or a script did. */
  createdById: number | string | null;
}
