import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { oldSlugs } from '../repositories/old-slugs';
import { trash } from '../repositories/trash';
import { RESERVED_SLUGS, withSuffix } from '../utils/slug-text';

const UID_SERVICE = 'plugin::content-manager.uid';

interface UidQuery {
  contentTypeUID: string;
  field: string;
  value: string;
  locale?: string;
}

interface UidService {
  checkUIDAvailability: (query: UidQuery) => Promise<boolean>;
  findUniqueUID: (query: UidQuery) => Promise<string>;
}

/**
 * The Content Manager's slug field asks its uid service whether a slug is free and which one to
 * suggest; it knows only the database. For articles, the words of fixed routes are taken too, and
 * so are the old slugs articles moved away from (each redirects to its article) and the slugs of
 * articles in the trash (each may be restored): the field shows
 * them as unavailable and never suggests one. (The question names no article, so an article's own
 * old slug shows as taken too, although moving back to it is allowed when saved.)
 */
export function reserveRouteSlugsInContentManager(strapi: Core.Strapi): void {
  const services = strapi.get('services') as {
    extend: (uid: string, extend: (service: UidService) => UidService) => void;
    get: (uid: string) => unknown;
  };
  if (services.get(UID_SERVICE) === undefined) return;
  const isHeldBesidesArticles = async (slug: string): Promise<boolean> =>
    RESERVED_SLUGS.has(slug) || (await oldSlugs(strapi).documentOf(slug)) !== null || (await trash(strapi).holderOf(slug)) !== null;
  services.extend(UID_SERVICE, (service) => ({
    ...service,
    async checkUIDAvailability(query) {
      if (query.contentTypeUID === ARTICLE_UID && (await isHeldBesidesArticles(query.value))) return false;
      return service.checkUIDAvailability(query);
    },
    async findUniqueUID(query) {
      let found = await service.findUniqueUID(query);
      if (query.contentTypeUID !== ARTICLE_UID) return found;
      for (let attempt = 2; await isHeldBesidesArticles(found); attempt += 1) {
        found = await service.findUniqueUID({ ...query, value: withSuffix(query.value, attempt) });
      }
      return found;
    },
  }));
}
