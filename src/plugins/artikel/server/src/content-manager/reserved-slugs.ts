import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
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
 * suggest; it knows only the database. For articles, the words of fixed routes are taken too, so
 * the field shows "categories" as unavailable and never suggests it.
 */
export function reserveRouteSlugsInContentManager(strapi: Core.Strapi): void {
  const services = strapi.get('services') as {
    extend: (uid: string, extend: (service: UidService) => UidService) => void;
    get: (uid: string) => unknown;
  };
  if (services.get(UID_SERVICE) === undefined) return;
  services.extend(UID_SERVICE, (service) => ({
    ...service,
    async checkUIDAvailability(query) {
      if (query.contentTypeUID === ARTICLE_UID && RESERVED_SLUGS.has(query.value)) return false;
      return service.checkUIDAvailability(query);
    },
    async findUniqueUID(query) {
      const found = await service.findUniqueUID(query);
      if (query.contentTypeUID !== ARTICLE_UID || !RESERVED_SLUGS.has(found)) return found;
      return service.findUniqueUID({ ...query, value: withSuffix(found, 2) });
    },
  }));
}
