import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** The Redoc build that renders the reference page: installed from npm, served by the service itself (no CDN). */
const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');
const REDOC_PACKAGE = require.resolve('redoc/package.json');

/**
 * The human-readable API reference at /api/artikel/docs.html: Redoc rendering /api/artikel/openapi.json.
 * Paths are relative, so the page works behind a proxy that serves the API under another prefix.
 * Search is off: Redoc runs it in a worker built from a blob: URL, which the service's
 * Content-Security-Policy (script-src 'self') rightly refuses.
 */
export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Artikel API reference</title>
  </head>
  <body>
    <redoc spec-url="openapi.json" disable-search="true" hide-download-button="false"></redoc>
    <script src="docs/redoc.standalone.js"></script>
  </body>
</html>
`;

export type ScriptEncoding = 'br' | 'gzip' | 'identity';

export interface EncodedScript {
  body: Buffer;
  encoding: ScriptEncoding;
  /** Strong: one Redoc version, one encoding. */
  etag: string;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Redoc's 1.1 MB script, read and compressed once per process (in libuv's thread pool, off the
 * event loop) and then served from memory: compressing it per request would let any client spend
 * the service's CPU at will, so the compression middleware is bypassed for it.
 */
const apiReference = () => {
  let encoded: Promise<Record<ScriptEncoding, Buffer> & { version: string }> | null = null;
  const load = async (): Promise<Record<ScriptEncoding, Buffer> & { version: string }> => {
    const { version } = JSON.parse(await fs.readFile(REDOC_PACKAGE, 'utf8')) as { version: string };
    const identity = await fs.readFile(REDOC_BUNDLE);
    const [br, gz] = await Promise.all([
      brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
      gzip(identity, { level: 9 }),
    ]);
    return { identity, br, gzip: gz, version };
  };

  return {
    async script(encoding: ScriptEncoding): Promise<EncodedScript> {
      encoded ??= load().catch((error: unknown) => {
        encoded = null;
        throw error;
      });
      const script = await encoded;
      return { body: script[encoding], encoding, etag: `"redoc-${script.version}-${encoding}"` };
    },
  };
};

export default apiReference;
