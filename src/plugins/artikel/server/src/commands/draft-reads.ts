import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getService } from '../infrastructure/get-service';
import type { FullArticle } from '../presenters/article-records';
import { articleTag } from '../presenters/representation-tag';
import { ownedArticle } from '../repositories/article-owners';
import { quotedText } from '../utils/quoted-text';
import type { Actor } from './actor';
import { assertPermits, type OwnedArticle } from './authorization';

/**
 * Reads of what the public does not see (an article whatever its status, its revisions), for those
 * who may read it: the same authorization as the writes, on the article itself.
 */
export function draftReads(strapi: Core.Strapi) {
  const reads = () => getService(strapi, 'article-reads');

  /** The article with this document id, if the actor may read it (404 when there is none). */
  const readable = async (actor: Actor, documentId: string): Promise<OwnedArticle> => {
    const article = await ownedArticle(strapi, documentId);
    if (article === null) throw new errors.NotFoundError('No article has this document id');
    assertPermits(strapi, actor, ['read'], article);
    return article;
  };

  return {
    readable,

    /** The article at its current slug whatever its status, with its ETag (artikel_get). Counts no view. */
    async bySlug(actor: Actor, slug: string): Promise<{ article: FullArticle; etag: string | null }> {
      assertPermits(strapi, actor, ['read']);
      const documentId = await getService(strapi, 'slugs').articleAt(slug);
      await readable(actor, documentId);
      const article = await reads().anyStatusBySlug(slug);
      if (article === null) throw new errors.NotFoundError(`No article has the slug ${quotedText(slug)}`);
      const version = await reads().version(article.id);
      return { article, etag: version === null ? null : articleTag(version, JSON.stringify({ data: article })) };
    },

    /** The document id of the article at this slug, once the actor may read it (its revisions, by slug). */
    async documentAt(actor: Actor, slug: string): Promise<string> {
      assertPermits(strapi, actor, ['read']);
      const documentId = await getService(strapi, 'slugs').articleAt(slug);
      await readable(actor, documentId);
      return documentId;
    },
  };
}
