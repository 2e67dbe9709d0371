import { ADMIN_LOCALES } from '../plugins/artikel/shared/admin-locales';

/**
 * The admin's own customisation. Strapi offers only English unless `locales` names more; the list
 * is shared with the server, whose ADMIN_DEFAULT_LOCALE must be one of them.
 */
export default {
  config: {
    locales: [...ADMIN_LOCALES],
  },
  bootstrap() {
    // Nothing to set up: the plugin registers its own panels and strings.
  },
};
