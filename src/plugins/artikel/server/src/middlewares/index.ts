import requestBodyErrors from './request-body-errors';

export default { 'request-body-errors': requestBodyErrors };
