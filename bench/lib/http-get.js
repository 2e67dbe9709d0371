// @ts-check
'use strict';

const http = require('node:http');

/** One GET on 127.0.0.1 with a fresh connection, body parsed as JSON when it is JSON. */
function httpGet(port, path, { timeoutMs = 30000 } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json = null;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: the caller reports the status and text.
        }
        resolve({ status: response.statusCode, headers: response.headers, text, json });
      });
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${path} timed out after ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

/** How long a server may take to finish what earlier load left in flight. */
const DRAIN_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * Waits until the server answers a cheap request again and returns the seconds it took. Requests
 * still in flight when a load ends keep running on the server (stock Strapi's slowest searches
 * queue for minutes at 100,000 articles), and the next measurement must not pay for them.
 */
async function drain(port, path) {
  const started = Date.now();
  await httpGet(port, path, { timeoutMs: DRAIN_TIMEOUT_MS });
  return (Date.now() - started) / 1000;
}

module.exports = { DRAIN_TIMEOUT_MS, drain, httpGet };
