import { ADMIN_LOCALES } from '../plugins/artikel/shared/admin-locales';

/**
 * The admin's own customisation. Strapi offers only English unless `locales` names more; the list
 * is shared with the server, whose ADMIN_DEFAULT_LOCALE must be one of them. No release
 * notifications: with them on, every page load of every editor's browser asks api.github.com for
 * Strapi's latest release (the editors' privacy and time; an operator upgrades Strapi, not them).
 */
export default {
  config: {
    locales: [...ADMIN_LOCALES],
    notifications: { releases: false },
  },
  bootstrap() {
    // Nothing to set up: the plugin registers its own panels and strings.
  },
};
