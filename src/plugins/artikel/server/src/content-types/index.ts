import revision from './revision';
import trashedArticle from './trashed-article';
import viewCount from './view-count';

/**
 * The plugin's content types. View counts, article revisions and the trash are content types so that
 * Strapi's data transfer (export, import, transfer) carries them like any content; they are hidden
 * from the admin's builders and editors.
 */
export default {
  revision,
  'trashed-article': trashedArticle,
  'view-count': viewCount,
};
