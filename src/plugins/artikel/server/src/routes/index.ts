const publicRead = { auth: false as const };

export default {
  'content-api': {
    type: 'content-api',
    // The first matching route wins: the fixed paths come before /:slug.
    routes: [
      { method: 'GET', path: '/', handler: 'artikel.find', config: publicRead },
      { method: 'GET', path: '/categories', handler: 'artikel.categories', config: publicRead },
      { method: 'GET', path: '/latest', handler: 'artikel.latest', config: publicRead },
      { method: 'GET', path: '/openapi.json', handler: 'artikel.openApi', config: publicRead },
      { method: 'GET', path: '/:slug', handler: 'artikel.findOne', config: publicRead },
      // Two segments, so no article slug can shadow it: the public site exchanges a signed preview token for a draft.
      { method: 'GET', path: '/preview/:token', handler: 'artikel.preview', config: publicRead },
      // Only Strapi API tokens may publish: full access, or a custom token holding artikel.create.
      // Route middlewares run after authentication, so the rate limit knows the token.
      {
        method: 'POST',
        path: '/',
        handler: 'artikel.create',
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
    ],
  },
};
