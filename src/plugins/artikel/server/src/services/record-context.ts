import type { Core } from '@strapi/strapi';
import type { RecordContext } from '../presenters/article-records';
import { getConfig } from '../infrastructure/get-service';

/**
 * What the presenters need from the configuration to shape a record: the studio's name, the
 * language it writes in and the rights its images carry. One place, so the reads and the feeds
 * name the same.
 */
export function recordContext(strapi: Core.Strapi, where: Pick<RecordContext, 'mediaBaseUrl' | 'articleUrlPattern'>): RecordContext {
  return {
    ...where,
    studioName: getConfig(strapi, 'studioName'),
    language: getConfig(strapi, 'language'),
    imageRights: {
      copyrightNotice: getConfig(strapi, 'copyrightNotice'),
      license: getConfig(strapi, 'licenseUrl') || null,
      acquireLicensePage: getConfig(strapi, 'acquireLicenseUrl') || null,
    },
  };
}
