import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook call as Strapi's webhook runner sends it: `{ event, createdAt, model, uid, entry }`. */
export interface ReceivedWebhook {
  event: string;
  model?: string;
  uid?: string;
  entry?: Record<string, unknown> & { documentId?: string; slug?: string };
  /** The X-Strapi-Event header the call carried. */
  header: string | undefined;
  /** When the call reached the receiver (ms since the epoch). */
  receivedAt: number;
}

export interface WebhookReceiver {
  /** The address to register as the webhook's url. */
  url: string;
  /** Every call received so far, oldest first. */
  received: ReceivedWebhook[];
  /** The calls of one event about one document (matched by the entry's documentId). */
  eventsFor: (documentId: string, event: string) => ReceivedWebhook[];
  /** Waits until `check` holds on the calls received, polling; fails after `timeoutMs`. */
  waitFor: (check: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
}

/** The events the lifecycle tests listen to. */
export const LIFECYCLE_EVENTS = ['entry.publish', 'entry.unpublish', 'entry.update', 'entry.delete'];

/** The body of POST /admin/webhooks (Settings → Webhooks → Create) for a receiver. */
export function webhookForm(receiver: WebhookReceiver, name = 'lifecycle test receiver') {
  return { name, url: receiver.url, headers: {}, events: LIFECYCLE_EVENTS };
}

/** A local HTTP server that records every webhook call it gets and answers 200. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<ReceivedWebhook, 'header' | 'receivedAt'>;
        const header = request.headers['x-strapi-event'];
        received.push({ ...body, header: Array.isArray(header) ? header[0] : header, receivedAt: Date.now() });
      } catch {
        received.push({ event: '(not JSON)', header: undefined, receivedAt: Date.now() });
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    eventsFor: (documentId, event) => received.filter((call) => call.event === event && call.entry?.documentId === documentId),
    waitFor: async (check, timeoutMs = 15_000) => {
      const started = Date.now();
      while (!check(received)) {
        if (Date.now() - started > timeoutMs) {
          throw new Error(
            `the expected webhook calls did not arrive within ${timeoutMs} ms; received: ${received.map((call) => call.event).join(', ')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Registers the first administrator of a service reached over HTTP (a service process) and, as that
 * editor, a webhook pointing at the receiver; returns the editor's admin JWT.
 */
export async function registerWebhookOverHttp(baseUrl: string, receiver: WebhookReceiver): Promise<string> {
  const registered = await fetch(`${baseUrl}/admin/register-admin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'webhooks@studio.example', firstname: 'Web', lastname: 'Hooks', password: 'Editor-Passw0rd' }),
  });
  if (registered.status !== 200) throw new Error(`register-admin answered ${registered.status}`);
  const jwt = ((await registered.json()) as { data: { token: string } }).data.token;
  const created = await fetch(`${baseUrl}/admin/webhooks`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(webhookForm(receiver)),
  });
  if (created.status !== 201) throw new Error(`POST /admin/webhooks answered ${created.status}: ${await created.text()}`);
  return jwt;
}
