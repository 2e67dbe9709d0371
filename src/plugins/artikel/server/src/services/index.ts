import apiReference from './api-reference';
import articleIndex from './article-index';
import articleRules from './article-rules';
import articleReads from './article-reads';
import articleViews from './article-views';
import articleWrites from './article-writes';
import categories from './categories';
import closedDefaults from './closed-defaults';
import feeds from './feeds';
import listCursors from './list-cursors';
import idempotency from './idempotency';
import outsideWrites from './outside-writes';
import photoRenditions from './photo-renditions';
import pluginTables from './plugin-tables';
import preview from './preview';
import publication from './publication';
import readCache from './read-cache';
import readFreshness from './read-freshness';
import revisions from './revisions';
import scheduledPublishing from './scheduled-publishing';
import searchSuggestions from './search-suggestions';
import sitemaps from './sitemaps';
import trash from './trash';
import slugs from './slugs';
import storedPhotos from './stored-photos';

export default {
  'api-reference': apiReference,
  'article-index': articleIndex,
  'article-reads': articleReads,
  'article-rules': articleRules,
  'article-views': articleViews,
  'article-writes': articleWrites,
  categories,
  'closed-defaults': closedDefaults,
  feeds,
  idempotency,
  'list-cursors': listCursors,
  'outside-writes': outsideWrites,
  'photo-renditions': photoRenditions,
  'plugin-tables': pluginTables,
  preview,
  publication,
  'read-cache': readCache,
  'read-freshness': readFreshness,
  revisions,
  'scheduled-publishing': scheduledPublishing,
  'search-suggestions': searchSuggestions,
  sitemaps,
  slugs,
  'stored-photos': storedPhotos,
  trash,
};
