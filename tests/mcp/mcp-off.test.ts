import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ env: { MCP_ENABLED: 'false' } });
});

afterAll(async () => {
  await app.stop();
});

it('serves no MCP endpoint when MCP_ENABLED=false (with it on, the same request is a 401 asking for a token), and the REST API as before', async () => {
  const base = await app.baseUrl();
  const answer = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
  });
  // No MCP session: the path is not served for POST (Strapi answers 405 where the route would be).
  expect([404, 405]).toContain(answer.status);
  expect(await answer.text()).not.toContain('jsonrpc');
  await app.api().get('/api/artikel').expect(200);
});
