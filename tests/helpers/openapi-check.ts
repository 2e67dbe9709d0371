import fs from 'node:fs';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import type supertest from 'supertest';
import openApiDocument from '../../src/plugins/artikel/server/src/openapi/openapi.json';

/**
 * Every answer a test receives through a TestApp's agent is checked against the OpenAPI document
 * the service publishes (openapi-backend: its router finds the operation, Ajv checks the body
 * against the response schema of the status). A status the operation does not list is a problem
 * too. Answers to paths the document does not describe (the admin's routes) are not counted.
 */
// quick: the document itself is linted as OpenAPI 3.1 by @redocly/cli (npm run lint:openapi);
// openapi-backend's own check of documents knows only 3.0's schema dialect (no type arrays, no const).
const api = new OpenAPIBackend({
  definition: openApiDocument as unknown as Document,
  quick: true,
  validate: true,
  ajvOpts: { strict: false },
  // date-time and uri are checked, not ignored.
  customizeAjv: (ajv) => addFormats(ajv),
});
const ready = api.init();

const problems: string[] = [];
let checked = 0;
let pending: Array<Promise<void>> = [];

type Answer = { status: number; body: unknown; headers: Record<string, string>; text?: string };
type SentRequest = { method: string; url: string; on: (event: 'response', listener: (response: Answer) => void) => void };

/**
 * What is wrong with an answer according to the document: nothing ([]), or each difference; null
 * when the document does not describe the request at all.
 */
export async function answerProblems(
  method: string,
  url: string,
  answer: Pick<Answer, 'status' | 'body'> & { headers?: Record<string, string> },
): Promise<string[] | null> {
  await ready;
  const { pathname, searchParams } = new URL(url);
  const operation = api.matchOperation({ method, path: pathname, query: Object.fromEntries(searchParams), headers: {} });
  if (operation === undefined) return null;
  const target = `${pathname}${searchParams.size > 0 ? `?${searchParams}` : ''}`;
  const where = `${method.toUpperCase()} ${target.length > 120 ? `${target.slice(0, 120)}…` : target} → ${answer.status}`;
  if (!(String(answer.status) in (operation.responses ?? {})))
    return [`${where}: status ${answer.status} is not in the document for ${operation.operationId}`];
  // A 304 or a HEAD has no body to check.
  if (answer.status === 304 || method.toUpperCase() === 'HEAD') return [];
  // Answers other than JSON (feeds) must have a media type the document lists; their tests parse them.
  const mediaType = (answer.headers?.['content-type'] ?? 'application/json').split(';')[0].trim();
  if (mediaType !== 'application/json') {
    const documented = Object.keys(
      (operation.responses?.[String(answer.status)] as { content?: Record<string, unknown> } | undefined)?.content ?? {},
    );
    return documented.includes(mediaType) ? [] : [`${where}: media type ${mediaType} is not in the document (${documented.join(', ')})`];
  }
  const result = api.validateResponse(answer.body, operation, answer.status);
  return result.valid
    ? []
    : [`${where}: ${(result.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`).join('; ')}`];
}

async function check(method: string, url: string, answer: Answer): Promise<void> {
  const found = await answerProblems(method, url, answer);
  if (found === null) return;
  checked += 1;
  problems.push(...found);
}

/** A superagent plugin: checks the answer of every request sent through the agent. */
export function checkedAgainstOpenApi(request: supertest.Test): void {
  const sent = request as unknown as SentRequest;
  sent.on('response', (answer) => {
    pending.push(check(sent.method, sent.url, answer));
  });
}

/** The problems found since the last call, once every answer received so far has been checked. */
export async function takeOpenApiProblems(): Promise<string[]> {
  const waiting = pending;
  pending = [];
  await Promise.all(waiting);
  return problems.splice(0, problems.length);
}

/** Adds this file's count of checked answers to the run's tally (see global-teardown). */
export function recordOpenApiTally(): void {
  const tally = process.env.ARTIKEL_OPENAPI_TALLY;
  if (tally !== undefined && checked > 0) fs.appendFileSync(tally, `${checked}\n`);
  checked = 0;
}
