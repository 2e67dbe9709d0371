import { ADMIN_LOCALES } from '../plugins/artikel/shared/admin-locales';
import indonesian from './translations/id.json';

/**
 * The admin's own customisation. Strapi offers only English unless `locales` names more; the list
 * is shared with the server, whose ADMIN_DEFAULT_LOCALE must be one of them. No release
 * notifications: with them on, every page load of every editor's browser asks api.github.com for
 * Strapi's latest release (the editors' privacy and time; an operator upgrades Strapi, not them).
 * Strapi's own Indonesian lacks about half of the admin's and the Content Manager's strings and the
 * whole Media Library: translations/id.json supplies them (1,168 strings) and corrects three of its
 * own (the slug's "regenerate" button read "diperbarui", "updated").
 */
export default {
  config: {
    locales: [...ADMIN_LOCALES],
    translations: { id: indonesian },
    notifications: { releases: false },
  },
  bootstrap() {
    // Nothing to set up: the plugin registers its own panels and strings.
  },
};
