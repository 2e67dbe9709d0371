import articleDefaults from './article-defaults';
import articleIndex from './article-index';
import articleReads from './article-reads';
import articleViews from './article-views';
import articleWrites from './article-writes';
import categories from './categories';
import pluginTables from './plugin-tables';
import readCache from './read-cache';

export default {
  'article-defaults': articleDefaults,
  'article-index': articleIndex,
  'article-reads': articleReads,
  'article-views': articleViews,
  'article-writes': articleWrites,
  categories,
  'plugin-tables': pluginTables,
  'read-cache': readCache,
};
