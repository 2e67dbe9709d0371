import postRateLimit from './post-rate-limit';
import requestBodyErrors from './request-body-errors';

export default { 'request-body-errors': requestBodyErrors, 'post-rate-limit': postRateLimit };
