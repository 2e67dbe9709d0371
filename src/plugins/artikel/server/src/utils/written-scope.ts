/**
 * What a committed write can have changed in the public reads: one article (its own page and the
 * published set), or anything (a category shows in all its articles, a photo wherever it is used,
 * a data transfer writes everything).
 */
export type WrittenScope = { documentId: string } | 'everything';
