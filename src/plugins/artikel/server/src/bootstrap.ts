import type { Core } from '@strapi/strapi';
import { explainEditViews } from './content-manager/edit-view';
import { getService } from './infrastructure/get-service';
import { registerArtikelTools } from './mcp/register-tools';
import { renderUploadedPhotos } from './upload-hooks';

const bootstrap = async ({ strapi }: { strapi: Core.Strapi }) => {
  // Before the MCP server starts, which the app's bootstrap follows.
  registerArtikelTools(strapi);
  // Before the unique index on category slugs, which empty slugs would break.
  const repaired = await getService(strapi, 'categories').repairMissingSlugs();
  if (repaired > 0) strapi.log.info(`artikel: gave ${repaired} categories without a slug one from their name`);
  await getService(strapi, 'plugin-tables').ensure();
  await getService(strapi, 'article-index').start();
  await explainEditViews(strapi);
  await getService(strapi, 'read-freshness').start();
  await getService(strapi, 'idempotency').start();
  getService(strapi, 'revisions').startPruning();
  getService(strapi, 'trash').startPurging();
  renderUploadedPhotos(strapi);
  // Last: publishing what came due while the service was down needs the tables, indexes and caches above.
  await getService(strapi, 'scheduled-publishing').start();
};

export default bootstrap;
