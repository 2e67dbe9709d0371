import type { Core } from '@strapi/strapi';
import { DEFAULT_ADMIN_LOCALE, isAdminLocale, type AdminLocale } from '../../../shared/admin-locales';

interface RequestState {
  user?: { preferedLanguage?: unknown } | null;
  auth?: { strategy?: { name?: unknown } };
}

/**
 * The admin language of the editor whose request this is, signed in to the admin (their profile's
 * choice; the studio's default for one stored without); null outside an editor's own request (an
 * API token; an agent with an admin token, which acts for its owner but reads the API's English;
 * a script, the scheduler).
 */
export function editorLanguage(strapi: Core.Strapi): AdminLocale | null {
  const state = (strapi.requestContext.get() as { state?: RequestState } | undefined)?.state;
  if (state?.auth?.strategy?.name !== 'admin' || !state.user) return null;
  const chosen = state.user.preferedLanguage;
  return typeof chosen === 'string' && isAdminLocale(chosen) ? chosen : DEFAULT_ADMIN_LOCALE;
}
