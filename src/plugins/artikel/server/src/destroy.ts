import type { Core } from '@strapi/strapi';
import { getService } from './utils/get-service';

const destroy = async ({ strapi }: { strapi: Core.Strapi }) => {
  await getService(strapi, 'outside-writes').stop();
  await getService(strapi, 'read-freshness').stop();
  getService(strapi, 'idempotency').stop();
};

export default destroy;
