import type { Core } from '@strapi/strapi';
import { secret } from '../src/secrets';

const PUBLIC_URL_EXAMPLE = 'e.g. https://api.studio.example';

/**
 * The service's public address. Links in answers (the next page, feeds, the sitemap) are built
 * on it; without it they follow the request's Host, which a client chooses. Production therefore
 * requires it.
 */
function publicUrl(value: string, production: boolean): string {
  const url = value.trim();
  if (url === '') {
    if (production)
      throw new Error(
        `PUBLIC_URL is not set: production needs the service's public address (${PUBLIC_URL_EXAMPLE}), on which every link is built`,
      );
    return '';
  }
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // Reported below.
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL (${PUBLIC_URL_EXAMPLE}), not "${url}"`);
  return url.replace(/\/+$/, '');
}

/**
 * How many reverse proxies stand in front of the service (TRUST_PROXY): false or 0, none (the
 * socket's address is the client's); true, one; a number N, N. The client's address is then the
 * Nth from the right of X-Forwarded-For: the one the outermost trusted proxy saw. Whatever the
 * client wrote to the left of it is never believed.
 */
function trustedProxies(value: string): number {
  const setting = value.trim().toLowerCase();
  if (setting === '' || setting === 'false') return 0;
  if (setting === 'true') return 1;
  if (/^\d{1,2}$/.test(setting)) return Number(setting);
  throw new Error(`TRUST_PROXY must be false, true (one proxy) or the number of proxies in front of the service, not "${value}"`);
}

const serverConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Server => {
  const proxies = trustedProxies(env('TRUST_PROXY', 'false'));
  return {
    host: env('HOST', '0.0.0.0'),
    port: env.int('PORT', 1337),
    url: publicUrl(env('PUBLIC_URL', ''), env('NODE_ENV', 'development') === 'production'),
    proxy: { koa: proxies > 0, maxIpsCount: proxies },
    app: {
      keys: secret('APP_KEYS').split(','),
    },
    // PUBLIC_DIR: where static files and the local provider's uploads live (./public by default);
    // one per instance in the tests, where two instances on one machine stand for two machines.
    dirs: { public: env('PUBLIC_DIR', './public') },
    // Strapi's MCP server (POST /mcp, admin tokens) with the plugin's article tools: on unless MCP_ENABLED=false.
    mcp: { enabled: env.bool('MCP_ENABLED', true) },
    // The update check calls a remote registry at every start; this service must boot offline.
    logger: { updates: { enabled: false }, startup: { enabled: false } },
  };
};

export default serverConfig;
