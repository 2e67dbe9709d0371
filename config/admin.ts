import type { Core } from '@strapi/strapi';
import { secret } from '../src/secrets';
import { sharedLoginLimitStore } from '../src/admin-login-limit';

interface PreviewService {
  url: (uid: string, params: { documentId?: string; status?: string }) => Promise<string | null>;
}

/** The public site's origin, which the admin's preview frame may show; null when no site is configured. */
function siteOrigin(articleUrl: string): string | null {
  try {
    return articleUrl === '' ? null : new URL(articleUrl.replace(/\{\w+\}/g, 'x')).origin;
  } catch {
    return null;
  }
}

const adminConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Admin => ({
  auth: {
    secret: secret('ADMIN_JWT_SECRET'),
  },
  // Strapi's login limit (5 tries in 5 minutes per e-mail and address), counted where every instance sees it.
  rateLimit: { enabled: true, store: sharedLoginLimitStore() } as unknown as Core.Config.Admin['rateLimit'],
  apiToken: {
    salt: secret('API_TOKEN_SALT'),
  },
  transfer: {
    token: {
      salt: secret('TRANSFER_TOKEN_SALT'),
    },
  },
  secrets: {
    encryptionKey: secret('ENCRYPTION_KEY'),
  },
  // An instance that only serves the API (behind a load balancer that sends editors elsewhere)
  // may leave the admin panel's pages out; its admin API routes (and data transfer) still answer.
  serveAdminPanel: env.bool('SERVE_ADMIN_PANEL', true),
  // Preview opens an article on the public site (SITE_ARTICLE_URL, see the artikel plugin's
  // preview service); without a site, on the service's own preview page (the demo's case).
  preview: {
    enabled: true,
    config: {
      allowedOrigins: [siteOrigin(env('SITE_ARTICLE_URL', '')) ?? "'self'"],
      async handler(uid: string, params: { documentId?: string; status?: string }) {
        const preview = strapi.plugin('artikel').service('preview') as PreviewService;
        return preview.url(uid, params);
      },
    },
  },
  flags: {
    nps: env.bool('FLAG_NPS', false),
    promoteEE: env.bool('FLAG_PROMOTE_EE', false),
  },
});

export default adminConfig;
