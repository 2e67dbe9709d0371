import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { ARTICLE_UID } from '../constants';
import type { FullArticle } from '../presenters/article-records';
import { getConfig, getService } from '../infrastructure/get-service';
import { previewPage } from '../presenters/preview-page';
import { fillUrlPattern, signPreviewToken, verifyPreviewToken } from '../utils/preview-tokens';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** What the preview uses of the Content Manager's permission checker. */
interface ReadChecker {
  cannot: { read: (entity?: object) => boolean };
}
interface PermissionCheckerService {
  create: (options: { userAbility: unknown; model: string }) => ReadChecker;
}

/**
 * The admin's Preview button: a published article opens on the public site; a draft opens through
 * a short-lived signed link, which the public site exchanges at /api/artikel/preview/{token} for
 * the draft's full record. Drafts stay out of every other public read.
 */
const preview = ({ strapi }: { strapi: Core.Strapi }) => {
  // Derived from the app keys (required in production), so no further secret is to be kept.
  const signingKey = () =>
    crypto
      .createHash('sha256')
      .update(`artikel-preview:${(strapi.config.get('server.app.keys') as string[]).join(',')}`)
      .digest();

  return {
    /**
     * The URL the admin's Preview opens for a document, or null when there is none to show: a
     * published article on the public site (SITE_ARTICLE_URL); a draft through a short-lived signed
     * link to the site's preview page (SITE_PREVIEW_URL); without a site, either version on the
     * service's own preview page, through the same signed link (relative: the admin frames it from
     * the same origin).
     */
    async url(uid: string, { documentId, status }: { documentId?: string; status?: string }): Promise<string | null> {
      const articlePattern = getConfig(strapi, 'siteArticleUrl');
      if (uid !== ARTICLE_UID || !documentId) return null;
      const isDraft = status !== 'published';
      if (!isDraft && articlePattern !== '') {
        const live = await strapi.documents(ARTICLE_UID).findOne({ documentId, status: 'published', fields: ['slug'] });
        return live ? fillUrlPattern(articlePattern, { slug: live.slug ?? '' }) : null;
      }
      const signed = await this.signedDraftLink(documentId);
      if (signed === null) return null;
      if (articlePattern !== '') return fillUrlPattern(getConfig(strapi, 'sitePreviewUrl'), signed);
      return `/api/artikel/preview/${encodeURIComponent(signed.token)}/page${isDraft ? '' : '?version=published'}`;
    },

    /**
     * A signed token for the article's draft, with its slug: a signed link reads the draft without
     * the admin, so only an editor who may read it gets one (the others get none, as for an article
     * that has no page; Strapi answers 204). Who made the article is read for roles that may read
     * only their own (the Author's "is creator").
     */
    async signedDraftLink(documentId: string): Promise<{ slug: string; token: string } | null> {
      const draft = await strapi
        .documents(ARTICLE_UID)
        .findOne({ documentId, status: 'draft', fields: ['slug'], populate: { createdBy: { fields: ['id'] } } });
      if (!draft || !this.mayReadDraft(draft)) return null;
      const token = signPreviewToken(signingKey(), documentId, nowSeconds() + getConfig(strapi, 'previewLinkMinutes') * 60);
      return { slug: draft.slug ?? '', token };
    },

    /** The service's own preview page of the article a token grants: its draft, or its published version. */
    async pageFor(token: string, version: 'draft' | 'published'): Promise<string> {
      const documentId = verifyPreviewToken(signingKey(), token, nowSeconds());
      if (documentId === null) throw new errors.NotFoundError('This preview link is invalid or has expired');
      const article = await getService(strapi, 'article-reads').fullArticle(documentId, version);
      return previewPage(article, getConfig(strapi, 'language'));
    },

    /**
     * Whether the administrator of the current request may read this draft in the Content Manager,
     * by its own permission checker (Strapi's preview route only checks that the caller is one).
     */
    mayReadDraft(draft: object): boolean {
      const userAbility = (strapi.requestContext.get() as { state?: { userAbility?: unknown } } | undefined)?.state?.userAbility;
      if (userAbility === undefined) return false;
      const checkers = strapi.plugin('content-manager').service('permission-checker') as unknown as PermissionCheckerService;
      const checker = checkers.create({ userAbility, model: ARTICLE_UID });
      return !checker.cannot.read() && !checker.cannot.read(draft);
    },

    /** The draft a preview token grants, as its full record; views are not counted. */
    async draftFor(token: string): Promise<FullArticle> {
      const documentId = verifyPreviewToken(signingKey(), token, nowSeconds());
      if (documentId === null) throw new errors.NotFoundError('This preview link is invalid or has expired');
      return getService(strapi, 'article-reads').fullArticle(documentId, 'draft');
    },
  };
};

export default preview;
