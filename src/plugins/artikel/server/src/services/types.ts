import type articleIndex from './article-index';
import type articleReads from './article-reads';
import type articleViews from './article-views';
import type pluginTables from './plugin-tables';

export type ArticleIndexService = ReturnType<typeof articleIndex>;
export type ArticleReadsService = ReturnType<typeof articleReads>;
export type ArticleViewsService = ReturnType<typeof articleViews>;
export type PluginTablesService = ReturnType<typeof pluginTables>;

export interface ArtikelServices {
  'article-index': ArticleIndexService;
  'article-reads': ArticleReadsService;
  'article-views': ArticleViewsService;
  'plugin-tables': PluginTablesService;
}
