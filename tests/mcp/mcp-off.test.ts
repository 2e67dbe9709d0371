import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ env: { MCP_ENABLED: 'false' } });
});

afterAll(async () => {
  await app.stop();
});

it('serves no MCP endpoint when MCP_ENABLED=false, and the REST API as before', async () => {
  const base = await app.baseUrl();
  const answer = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
  });
  expect(answer.status).toBe(404);
  await app.api().get('/api/artikel').expect(200);
});
