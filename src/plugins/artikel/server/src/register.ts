import type { Core } from '@strapi/strapi';
import { defaultAdminLanguage } from './admin-users/default-language';
import { reserveRouteSlugsInContentManager } from './content-manager/reserved-slugs';
import { registerDocumentMiddlewares } from './document-middlewares';
import { insidePipeline } from './infrastructure/pipeline-scope';
import { ARTICLE_UID, CATEGORY_UID, UPLOAD_FILE_UID, VIEW_COUNT_UID } from './constants';
import { keepSqlOutOfErrors } from './infrastructure/database-errors';
import { letStatementsYield } from './infrastructure/sqlite-turns';
import { getService } from './infrastructure/get-service';
import { extendStrapiMiddlewares } from './strapi-middlewares';
import { addPhotoFileFields } from './content-types/photo-file-fields';
import { registerUploadHooks } from './upload-hooks';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  keepSqlOutOfErrors(strapi.db.connection);
  letStatementsYield(strapi);
  registerDocumentMiddlewares(strapi);
  extendStrapiMiddlewares(strapi);
  reserveRouteSlugsInContentManager(strapi);
  defaultAdminLanguage(strapi);
  addPhotoFileFields(strapi);
  registerUploadHooks(strapi);

  // Cover and gallery URLs, alt texts and captions come from the Media Library, whose files are
  // written without the Document Service.
  const dropCachedReads = () => getService(strapi, 'read-freshness').written();
  strapi.db.lifecycles.subscribe({
    models: [UPLOAD_FILE_UID],
    afterUpdate: dropCachedReads,
    afterUpdateMany: dropCachedReads,
    afterDelete: dropCachedReads,
    afterDeleteMany: dropCachedReads,
  });

  // Articles, categories and view counts written without the Document Service middlewares (Strapi's
  // data transfer writes with strapi.db.query): the index rows and cached reads are repaired once
  // the writes are quiet. The pipeline's own writes keep everything in step themselves.
  const outsideWrite = () => {
    if (!insidePipeline()) getService(strapi, 'outside-writes').noticed();
  };
  strapi.db.lifecycles.subscribe({
    models: [ARTICLE_UID, CATEGORY_UID, VIEW_COUNT_UID],
    afterCreate: outsideWrite,
    afterCreateMany: outsideWrite,
    afterUpdate: outsideWrite,
    afterUpdateMany: outsideWrite,
    afterDelete: outsideWrite,
    afterDeleteMany: outsideWrite,
  });
};

export default register;
