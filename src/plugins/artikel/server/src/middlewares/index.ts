import dataTransferWatch from './data-transfer-watch';
import postRateLimit from './post-rate-limit';
import requestBodyErrors from './request-body-errors';

export default { 'data-transfer-watch': dataTransferWatch, 'request-body-errors': requestBodyErrors, 'post-rate-limit': postRateLimit };
