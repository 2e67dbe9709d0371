import type { Core } from '@strapi/strapi';
import { reserveRouteSlugsInContentManager } from './content-manager/reserved-slugs';
import { registerDocumentMiddlewares } from './document-middlewares';
import { getService } from './utils/get-service';

const UPLOAD_FILE_UID = 'plugin::upload.file';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  registerDocumentMiddlewares(strapi);
  reserveRouteSlugsInContentManager(strapi);

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
};

export default register;
