import type { Core } from '@strapi/strapi';
import { getService } from './utils/get-service';

const bootstrap = async ({ strapi }: { strapi: Core.Strapi }) => {
  await getService(strapi, 'plugin-tables').ensure();
  await getService(strapi, 'article-index').reconcile();
};

export default bootstrap;
