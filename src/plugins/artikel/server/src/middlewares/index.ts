import dataTransferWatch from './data-transfer-watch';
import failedAuthentications from './failed-authentications';
import httpCaching from './http-caching';
import postRateLimit from './post-rate-limit';
import readOnlyTokens from './read-only-tokens';
import requestBodyErrors from './request-body-errors';
import uploadedFileHeaders from './uploaded-file-headers';
import teachingRefusals from './teaching-refusals';
import rootAliases from './root-aliases';

export default {
  'data-transfer-watch': dataTransferWatch,
  'failed-authentications': failedAuthentications,
  'http-caching': httpCaching,
  'read-only-tokens': readOnlyTokens,
  'request-body-errors': requestBodyErrors,
  'post-rate-limit': postRateLimit,
  'uploaded-file-headers': uploadedFileHeaders,
  'teaching-refusals': teachingRefusals,
  'root-aliases': rootAliases,
};
