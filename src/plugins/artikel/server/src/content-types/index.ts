import revision from './revision';
import viewCount from './view-count';

/**
 * The plugin's content types. View counts and article revisions are content types so that
 * Strapi's data transfer (export, import, transfer) carries them like any content; they are hidden
 * from the admin's builders and editors.
 */
export default {
  revision,
  'view-count': viewCount,
};
