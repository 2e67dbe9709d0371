const publicRead = { auth: false as const };
// Public reads with validators and cache lifetimes (see middlewares/http-caching).
const sharedRead = { auth: false as const, middlewares: [{ name: 'plugin::artikel.http-caching', config: { policy: 'shared' } }] };
const countedRead = { auth: false as const, middlewares: [{ name: 'plugin::artikel.http-caching', config: { policy: 'revalidate' } }] };

// A token that may update an article may read and restore its revisions (full access, or a custom token holding artikel.update).
const mayUpdate = { auth: { strategies: ['content-api-token'], scope: ['plugin::artikel.artikel.update'] } };

/**
 * An admin route for editors whose role holds these Content Manager actions on Articles (as a type;
 * the controller checks the article itself, where a role's conditions apply).
 */
const editorMay = (...actions: Array<'read' | 'create' | 'update' | 'delete'>) => ({
  policies: [
    'admin::isAuthenticatedAdmin',
    // The Content Manager's actions on Article, refused with the permission named (see policies/editor-may.ts).
    { name: 'plugin::artikel.editor-may', config: { actions } },
  ],
});

export default {
  'content-api': {
    type: 'content-api',
    // The first matching route wins: the fixed paths come before /:slug.
    routes: [
      { method: 'GET', path: '/', handler: 'artikel.find', config: sharedRead },
      { method: 'GET', path: '/categories', handler: 'artikel.categories', config: sharedRead },
      { method: 'GET', path: '/latest', handler: 'artikel.latest', config: sharedRead },
      { method: 'GET', path: '/openapi.json', handler: 'reference.openApi', config: sharedRead },
      // A dot, which no slug can hold: every matching article in one CSV, for spreadsheets.
      { method: 'GET', path: '/export.csv', handler: 'artikel.exportCsv', config: sharedRead },
      // The reference page holds a dot and its script two segments: no slug can shadow either.
      { method: 'GET', path: '/docs.html', handler: 'reference.apiReference', config: sharedRead },
      { method: 'GET', path: '/llms.txt', handler: 'reference.llmsText', config: sharedRead },
      { method: 'GET', path: '/docs/redoc.standalone.js', handler: 'reference.apiReferenceScript', config: publicRead },
      // Two segments, and "feed" is a reserved slug: no article can shadow a feed.
      { method: 'GET', path: '/feed/:format', handler: 'publishing.feed', config: sharedRead },
      // "sitemap.xml" holds a dot, which no slug can; the files of an index have two segments.
      { method: 'GET', path: '/sitemap.xml', handler: 'publishing.sitemap', config: sharedRead },
      { method: 'GET', path: '/sitemap/:page', handler: 'publishing.sitemapFile', config: sharedRead },
      { method: 'GET', path: '/:slug', handler: 'artikel.findOne', config: countedRead },
      // An article's revisions are for those who may change it: the scope is the update action's.
      // The article as it stands, drafts included, with its ETag: for tokens that may update it.
      { method: 'GET', path: '/:slug/current', handler: 'revisions.current', config: mayUpdate },
      { method: 'GET', path: '/:slug/revisions', handler: 'revisions.revisions', config: mayUpdate },
      { method: 'GET', path: '/:slug/revisions/:number', handler: 'revisions.revision', config: mayUpdate },
      {
        method: 'POST',
        path: '/:slug/revisions/:number/restore',
        handler: 'revisions.restoreRevision',
        config: { ...mayUpdate, middlewares: ['plugin::artikel.post-rate-limit'] },
      },
      // Two segments, so no article slug can shadow it: the public site exchanges a signed preview token for a draft.
      { method: 'GET', path: '/preview/:token', handler: 'publishing.preview', config: publicRead },
      // The service's own preview page, for a studio without a site (no SITE_ARTICLE_URL): the admin's Preview opens it.
      { method: 'GET', path: '/preview/:token/page', handler: 'publishing.previewPage', config: publicRead },
      // Only Strapi API tokens may publish: full access, or a custom token holding artikel.create.
      // Route middlewares run after authentication, so the rate limit knows the token.
      {
        method: 'POST',
        path: '/',
        handler: 'artikel.create',
        config: { auth: { strategies: ['content-api-token'] }, middlewares: ['plugin::artikel.post-rate-limit'] },
      },
      // Changing and deleting are actions of their own, which custom tokens hold separately.
      {
        method: 'PATCH',
        path: '/:slug',
        handler: 'artikel.update',
        config: { auth: { strategies: ['content-api-token'] }, middlewares: ['plugin::artikel.post-rate-limit'] },
      },
      {
        method: 'DELETE',
        path: '/:slug',
        handler: 'artikel.delete',
        config: { auth: { strategies: ['content-api-token'] }, middlewares: ['plugin::artikel.post-rate-limit'] },
      },
    ],
  },
  admin: {
    type: 'admin',
    routes: [
      {
        method: 'GET',
        path: '/views/:documentId',
        handler: 'admin-views.findOne',
        config: { policies: ['admin::isAuthenticatedAdmin'] },
      },
      // The home page's "most read" widget: what the public list sorted by views shows first.
      { method: 'GET', path: '/most-read', handler: 'admin-views.mostRead', config: editorMay('read') },
      // The Revisions panel: an editor who may read Articles sees their revisions, one who may update them restores one.
      { method: 'GET', path: '/revisions/:documentId', handler: 'admin-revisions.list', config: editorMay('read') },
      { method: 'GET', path: '/revisions/:documentId/:number', handler: 'admin-revisions.findOne', config: editorMay('read') },
      {
        method: 'POST',
        path: '/revisions/:documentId/:number/restore',
        handler: 'admin-revisions.restore',
        config: editorMay('read', 'update'),
      },
      // The trash: editors who may read articles see it; restoring needs the right to create one, purging the right to delete.
      { method: 'GET', path: '/trash', handler: 'admin-trash.find', config: editorMay('read') },
      { method: 'GET', path: '/trash/settings', handler: 'admin-trash.settings', config: editorMay('read') },
      { method: 'POST', path: '/trash/:documentId/restore', handler: 'admin-trash.restore', config: editorMay('create') },
      { method: 'DELETE', path: '/trash/:documentId', handler: 'admin-trash.purge', config: editorMay('delete') },
      { method: 'DELETE', path: '/trash', handler: 'admin-trash.empty', config: editorMay('delete') },
    ],
  },
};
