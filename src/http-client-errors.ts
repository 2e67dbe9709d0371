import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** The answer Node itself would give (its codes), with Strapi's error body instead of an empty one. */
function statusOf(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const MESSAGES: Record<number, string> = {
  431: 'The request line and headers are larger than the server accepts (16 KB); shorten the URL',
  408: 'The request took too long to arrive',
  400: 'The request is not valid HTTP',
};

const NAMES: Record<number, string> = { 431: 'RequestHeaderFieldsTooLargeError', 408: 'RequestTimeoutError', 400: 'BadRequestError' };

/** The raw HTTP response for a request Node refused before Koa saw it. */
export function clientErrorResponse(code: string | undefined): string {
  const status = statusOf(code);
  const body = JSON.stringify({ data: null, error: { status, name: NAMES[status], message: MESSAGES[status], details: {} } });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    'X-Content-Type-Options: nosniff',
    'X-Frame-Options: SAMEORIGIN',
    'Referrer-Policy: no-referrer',
    '',
    body,
  ].join('\r\n');
}

/** Answers requests Node's parser refuses (a URL over 16 KB, say) in the contract's error body. */
export function handleClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error.code));
}
