import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getService } from '../infrastructure/get-service';
import type { FullArticle } from '../presenters/article-records';
import { articleTag } from '../presenters/representation-tag';
import { ownedArticle, ownedArticles } from '../repositories/article-owners';
import { quotedText } from '../utils/quoted-text';
import type { Actor } from './actor';
import { assertPermits, permits, type OwnedArticle } from './authorization';

/** The most read articles the admin's widget shows, and how many of the most read it looks through for them. */
const MOST_READ_SHOWN = 10;
const MOST_READ_LOOKED_AT = 100;

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

    /**
     * The most read published articles the actor may open in the admin (an Author, whose role
     * reads only their own, sees theirs): the widget on the admin's home page links each to its
     * edit view, which would refuse the others.
     */
    async mostRead(actor: Actor): Promise<Awaited<ReturnType<ReturnType<typeof reads>['mostRead']>>> {
      assertPermits(strapi, actor, ['read']);
      const candidates = await reads().mostRead(MOST_READ_LOOKED_AT);
      const owners = await ownedArticles(
        strapi,
        candidates.map((article) => article.document_id),
      );
      return candidates
        .filter((article) => {
          const owned = owners.get(article.document_id);
          return owned !== undefined && permits(strapi, actor, 'read', owned);
        })
        .slice(0, MOST_READ_SHOWN);
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
