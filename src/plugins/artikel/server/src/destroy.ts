import type { Core } from '@strapi/strapi';
import { closeReadDatabase } from './infrastructure/transactions';
import { getService } from './infrastructure/get-service';
import { closeTextWork } from './infrastructure/text-work';
import { endExifTool } from './infrastructure/exiftool';
import { endHeicThread } from './infrastructure/heic-photos';

const destroy = async ({ strapi }: { strapi: Core.Strapi }) => {
  await getService(strapi, 'scheduled-publishing').stop();
  await getService(strapi, 'article-index').stop();
  await getService(strapi, 'outside-writes').stop();
  await getService(strapi, 'read-freshness').stop();
  getService(strapi, 'idempotency').stop();
  getService(strapi, 'revisions').stopPruning();
  getService(strapi, 'trash').stopPurging();
  await getService(strapi, 'article-views').stop();
  await closeReadDatabase(strapi);
  await getService(strapi, 'photo-renditions').stop();
  await closeTextWork();
  await endHeicThread();
  await endExifTool();
};

export default destroy;
