import fs from 'node:fs';
import path from 'node:path';

/**
 * The n8n workflows of docs/recipes/ played against a real service, node by node, as n8n 2.41 runs
 * the nodes they use (Manual Trigger, Code, HTTP Request, Split Out): their expressions evaluated
 * as n8n's are (JavaScript inside `{{ }}`, `$json`, `$('Node').item.json`, `$response`), their
 * requests sent with Node's fetch(), an error answer passed to the node's error output as n8n
 * passes it ("<status> - <the body as JSON text>"). Running n8n itself is not needed for what the
 * tests check: the requests the files make and what the service answers them. The files were run
 * in a real n8n when they were written (docs/recipes/README.md).
 */

const RECIPES = path.resolve(__dirname, '..', '..', 'docs', 'recipes');
/** The service's address in the files, replaced by the test service's. */
export const RECIPE_ORIGIN = 'https://api.studio.example';

interface Parameter {
  name: string;
  value: string;
}

export interface WorkflowNode {
  name: string;
  type: string;
  parameters: Record<string, unknown> & {
    url?: string;
    method?: string;
    jsCode?: string;
    mode?: string;
    jsonBody?: string;
    fieldToSplitOut?: string;
    headerParameters?: { parameters: Parameter[] };
    bodyParameters?: { parameters: Parameter[] };
    queryParameters?: { parameters: Parameter[] };
    options?: {
      response?: { response?: { fullResponse?: boolean } };
      batching?: { batch?: { batchSize?: number; batchInterval?: number } };
      pagination?: {
        pagination?: { paginationMode?: string; nextURL?: string; paginationCompleteWhen?: string; completeExpression?: string };
      };
    };
  };
  retryOnFail?: boolean;
  onError?: string;
  credentials?: Record<string, { id: string | null; name: string }>;
}

export interface Workflow {
  name: string;
  nodes: WorkflowNode[];
  connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

/** One item flowing between nodes, with the item of every earlier node it came from (what `$('Node').item` reads). */
interface Item {
  json: Record<string, unknown>;
  lineage: Record<string, Item>;
}

/** One request a workflow sent, and its answer. */
export interface SentRequest {
  node: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  status: number;
  answerHeaders: Record<string, string>;
  answer: unknown;
}

export interface WorkflowRun {
  requests: SentRequest[];
  /** Each node's output items (the error output's after the main one's), their JSON. */
  outputs: Record<string, Array<Record<string, unknown>>>;
}

export function loadWorkflow(file: string): Workflow {
  return JSON.parse(fs.readFileSync(path.join(RECIPES, file), 'utf8')) as Workflow;
}

/** Every workflow file of docs/recipes/. */
export const recipeFiles = (): string[] =>
  fs
    .readdirSync(RECIPES)
    .filter((file) => file.endsWith('.json'))
    .sort();

interface Scope {
  item: Item;
  response?: { body: unknown; headers: Record<string, string>; statusCode: number };
  previous?: string;
}

/** The `$` of n8n's expressions and Code nodes: `$('Node').item.json` is the item of that node this item came from. */
const nodeAccessor = (item: Item) => (name: string) => {
  const from = item.lineage[name];
  if (from === undefined) throw new Error(`no item of node "${name}" before this one`);
  return { item: { json: from.json } };
};

/** An n8n parameter: text, or an expression (`=` then text with `{{ … }}` parts; one part alone gives its value as it is). */
export function evaluate(parameter: unknown, scope: Scope): unknown {
  if (typeof parameter !== 'string' || !parameter.startsWith('=')) return parameter;
  const parts = parameter
    .slice(1)
    .split(/(\{\{[\s\S]*?\}\})/)
    .filter((part) => part !== '');
  const values = parts.map((part) => {
    const expression = /^\{\{([\s\S]*)\}\}$/.exec(part);
    if (expression === null) return part;
    const run = new Function('$json', '$', '$response', '$prevNode', `return (${expression[1]});`);
    return run(scope.item.json, nodeAccessor(scope.item), scope.response, { name: scope.previous }) as unknown;
  });
  return values.length === 1 ? values[0] : values.map((value) => String(value)).join('');
}

const keyPairs = (parameters: Parameter[] | undefined, scope: Scope): Array<[string, unknown]> =>
  (parameters ?? []).map((parameter) => [parameter.name, evaluate(parameter.value, scope)]);

/** The nodes in an order where each comes after those it takes items from. */
function inOrder(workflow: Workflow): WorkflowNode[] {
  const before = new Map<string, Set<string>>(workflow.nodes.map((node) => [node.name, new Set<string>()]));
  for (const [from, { main }] of Object.entries(workflow.connections))
    for (const outputs of main) for (const { node } of outputs) before.get(node)?.add(from);
  const ordered: WorkflowNode[] = [];
  const placed = new Set<string>();
  while (ordered.length < workflow.nodes.length) {
    const next = workflow.nodes.find(
      (node) => !placed.has(node.name) && [...(before.get(node.name) ?? [])].every((name) => placed.has(name)),
    );
    if (next === undefined) throw new Error('the workflow has a cycle');
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** Plays a workflow against the service at `origin`, its Bearer credential holding `token`. */
export async function runWorkflow(
  workflow: Workflow,
  options: { origin: string; token: string; rows?: Array<Record<string, unknown>> },
): Promise<WorkflowRun> {
  const inputs = new Map<string, Array<{ item: Item; previous: string }>>();
  const run: WorkflowRun = { requests: [], outputs: {} };
  const send = (from: string, branch: number, items: Item[]) => {
    for (const { node } of workflow.connections[from]?.main[branch] ?? [])
      inputs.set(node, [...(inputs.get(node) ?? []), ...items.map((item) => ({ item, previous: from }))]);
  };

  for (const node of inOrder(workflow)) {
    const received = inputs.get(node.name) ?? [];
    const produce = (json: Record<string, unknown>, from: Item | undefined): Item => {
      const item: Item = { json, lineage: { ...(from?.lineage ?? {}) } };
      item.lineage[node.name] = item;
      return item;
    };
    let outputs: Item[][];
    if (node.type === 'n8n-nodes-base.manualTrigger') outputs = [[produce({}, undefined)]];
    else if (node.type === 'n8n-nodes-base.code') outputs = [runCode(node, received, produce, options.rows)];
    else if (node.type === 'n8n-nodes-base.splitOut')
      outputs = [
        received.flatMap(({ item }) =>
          ((item.json[node.parameters.fieldToSplitOut ?? ''] as Array<Record<string, unknown>>) ?? []).map((entry) => produce(entry, item)),
        ),
      ];
    else if (node.type === 'n8n-nodes-base.httpRequest') outputs = await runRequests(node, received, produce, options, run.requests);
    else throw new Error(`the player has no n8n node ${node.type}`);
    run.outputs[node.name] = outputs.flat().map((item) => item.json);
    outputs.forEach((items, branch) => send(node.name, branch, items));
  }
  return run;
}

function runCode(
  node: WorkflowNode,
  received: Array<{ item: Item; previous: string }>,
  produce: (json: Record<string, unknown>, from: Item | undefined) => Item,
  rows: Array<Record<string, unknown>> | undefined,
): Item[] {
  const code = node.parameters.jsCode ?? '';
  if (node.parameters.mode === 'runOnceForEachItem') {
    return received.map(({ item, previous }) => {
      const result = new Function('$json', '$', '$prevNode', code)(item.json, nodeAccessor(item), { name: previous }) as {
        json: Record<string, unknown>;
      };
      return produce(result.json, item);
    });
  }
  // The sample rows' node (a stand-in for Google Sheets): its rows, or the test's own in their place.
  const from = received[0]?.item;
  const results = new Function('$input', code)({ all: () => received.map(({ item }) => item) }) as Array<{ json: Record<string, unknown> }>;
  const source = results[0]?.json.source;
  const given = rows?.map((row) => ({ json: source === undefined ? row : { source, ...row } }));
  return (given ?? results).map((result) => produce(result.json, from));
}

async function runRequests(
  node: WorkflowNode,
  received: Array<{ item: Item; previous: string }>,
  produce: (json: Record<string, unknown>, from: Item | undefined) => Item,
  options: { origin: string; token: string },
  log: SentRequest[],
): Promise<Item[][]> {
  const { parameters } = node;
  const success: Item[] = [];
  const failure: Item[] = [];
  const fullResponse = parameters.options?.response?.response?.fullResponse === true;
  const pagination = parameters.options?.pagination?.pagination;
  for (const { item, previous } of received) {
    const scope: Scope = { item, previous };
    let url = String(evaluate(parameters.url, scope)).replace(RECIPE_ORIGIN, options.origin);
    const query = keyPairs(parameters.queryParameters?.parameters, scope);
    if (query.length > 0)
      url += `?${new URLSearchParams(query.map(([name, value]): [string, string] => [name, String(value)])).toString()}`;
    const headers: Record<string, string> = Object.fromEntries(
      keyPairs(parameters.headerParameters?.parameters, scope).map(([name, value]) => [name, String(value)]),
    );
    if (parameters.authentication === 'genericCredentialType' && parameters.genericAuthType === 'httpBearerAuth')
      headers.Authorization = `Bearer ${options.token}`;
    let body: unknown;
    if (parameters.sendBody === true) {
      headers['Content-Type'] = 'application/json';
      body =
        parameters.specifyBody === 'json'
          ? evaluate(parameters.jsonBody, scope)
          : Object.fromEntries(keyPairs(parameters.bodyParameters?.parameters, scope));
    }
    for (let page = 0; ; page += 1) {
      if (page > 1000) throw new Error(`${node.name}: more than 1000 pages`);
      const method = String(parameters.method ?? 'GET');
      const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await response.text();
      const answer: unknown = text === '' ? {} : (JSON.parse(text) as unknown);
      const answerHeaders = Object.fromEntries(response.headers.entries());
      log.push({ node: node.name, method, url, headers, body, status: response.status, answerHeaders, answer });
      if (response.status >= 400) {
        if (node.onError !== 'continueErrorOutput') throw new Error(`${node.name}: ${response.status} ${text}`);
        failure.push(produce({ error: { message: `${response.status} - ${JSON.stringify(text)}`, status: response.status } }, item));
        break;
      }
      const json = fullResponse
        ? { body: answer, headers: answerHeaders, statusCode: response.status }
        : (answer as Record<string, unknown>);
      success.push(produce(json, item));
      if (pagination?.paginationMode !== 'responseContainsNextURL') break;
      const pageScope: Scope = { item, previous, response: { body: answer, headers: answerHeaders, statusCode: response.status } };
      if (evaluate(pagination.completeExpression, pageScope) === true) break;
      url = String(evaluate(pagination.nextURL, pageScope));
    }
  }
  return [success, failure];
}
