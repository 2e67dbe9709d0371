import articleIndex from './article-index';
import articleReads from './article-reads';
import articleViews from './article-views';
import pluginTables from './plugin-tables';

export default {
  'article-index': articleIndex,
  'article-reads': articleReads,
  'article-views': articleViews,
  'plugin-tables': pluginTables,
};
