import { Writable } from 'node:stream';
import { winston } from '@strapi/logger';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
});

afterAll(async () => {
  await app.stop();
});

/** The messages the app logs while `during` runs, as an operator's transport keeping `level` and above receives them. */
async function linesLogged(level: string, during: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString().trimEnd());
      done();
    },
  });
  const transport = new winston.transports.Stream({ stream, level, format: winston.format.printf((info) => String(info.message)) });
  app.strapi.log.add(transport);
  try {
    await during();
  } finally {
    app.strapi.log.remove(transport);
  }
  return lines;
}

describe('the request log', () => {
  it('logs one line per request with its method, path, time and status when a transport keeps http lines', async () => {
    const lines = await linesLogged('http', async () => {
      await app.api().get('/api/artikel/latest').expect(200);
      await app.api().get('/api/artikel/no-such-article').expect(404);
    });
    const requestLines = lines.filter((line) => line.includes('/api/artikel/'));
    expect(requestLines).toHaveLength(2);
    expect(requestLines[0]).toMatch(/^GET \/api\/artikel\/latest \(\d+ ms\) 200$/);
    expect(requestLines[1]).toMatch(/^GET \/api\/artikel\/no-such-article \(\d+ ms\) 404$/);
  });

  it('logs no request line when every transport keeps warnings and worse only', async () => {
    const lines = await linesLogged('warn', async () => {
      await app.api().get('/api/artikel/latest').expect(200);
    });
    expect(lines.filter((line) => line.includes('/api/artikel/'))).toEqual([]);
  });
});
