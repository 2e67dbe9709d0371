import { errors } from '@strapi/utils';

interface BodyParserError {
  status?: unknown;
  message?: unknown;
}

type Next = () => Promise<unknown>;

/**
 * The body parser (koa-body) fails with its own errors: a SyntaxError for malformed JSON and an
 * http-errors 413 for a body over the limit. Placed just before strapi::body, this turns them into
 * Strapi's ValidationError and PayloadTooLargeError, so clients get the contract's error body.
 */
const requestBodyErrors =
  (config: { limit?: string } = {}) =>
  async (_ctx: unknown, next: Next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof errors.ApplicationError) throw error;
      const { status } = (error ?? {}) as BodyParserError;
      if (status === 413) {
        throw new errors.PayloadTooLargeError(`The request body is larger than the limit of ${config.limit ?? '1mb'}`);
      }
      if (status === 400) {
        const message = !(error instanceof SyntaxError)
          ? 'The request body could not be read'
          : /prototype/i.test(String((error as BodyParserError).message))
            ? 'The request body contains a forbidden key (__proto__ or constructor.prototype)'
            : 'The request body is not valid JSON';
        throw new errors.ValidationError(message, { errors: [{ path: [], message, name: 'ValidationError' }] });
      }
      throw error;
    }
  };

export default requestBodyErrors;
