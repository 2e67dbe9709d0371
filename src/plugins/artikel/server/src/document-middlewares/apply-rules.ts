import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';
import { editorLanguage } from '../infrastructure/editor-language';
import { getService } from '../infrastructure/get-service';
import { inEditorLanguage } from '../presenters/editor-messages';
import { documentWrite, type DocumentMiddleware } from './context';

type Rules = { apply: (action: 'create' | 'update', params: { documentId?: string; data?: Record<string, unknown> }) => Promise<void> };

/** Each type's rules: checks that refuse bad fields with a 400 naming each, and the defaults. */
const RULES: Record<string, (strapi: Core.Strapi) => Rules> = {
  [ARTICLE_UID]: (strapi) => getService(strapi, 'article-rules'),
  [CATEGORY_UID]: (strapi) => getService(strapi, 'categories'),
};

/**
 * Before an article or category is created or updated, whichever way (this plugin's POST, the
 * Content Manager, its bulk actions, a script), its rules run on the data being written. A refusal
 * reaches an editor in the admin in their language (presenters/editor-messages.ts); the API's
 * clients read it in English.
 */
export const applyRules =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    const rules = write === null ? undefined : RULES[write.uid];
    if (write === null || rules === undefined || (write.action !== 'create' && write.action !== 'update')) return next();
    try {
      await rules(strapi).apply(write.action, write.params);
    } catch (error) {
      throw inEditorLanguage(error, write.uid === CATEGORY_UID ? 'category' : 'article', editorLanguage(strapi));
    }
    return next();
  };
