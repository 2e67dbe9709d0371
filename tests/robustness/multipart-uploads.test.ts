import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { isContractError, reportFigure } from '../helpers/robustness';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { eventually } from '../helpers/eventually';

// A real service process whose temporary folder (TMPDIR) is this test's own: whatever a request
// writes there is seen, and nothing else writes there.
let service: ServiceProcess;
let folder: string;
let temporary: string;
let adminJwt: string;

const THREE_MB = Buffer.alloc(3 * 1024 * 1024, 0x61);

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  // A renditions folder the service removes while it is walked makes the walk fail: walk again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 10) throw error;
    }
  }
}

/**
 * The files left in the temporary folder once what an upload started is done: a photo's AVIF and
 * WebP renditions are made right after the upload answered, in a folder of their own that goes with them.
 */
const temporaryFilesOnceRenditionsAreMade = (): Promise<string[]> =>
  eventually(
    () => filesUnder(temporary),
    (files) => files.length === 0,
    { withinMs: 60_000, everyMs: 100 },
  );

function form(fields: Record<string, Blob | string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') body.append(name, value);
    else body.append(name, value, value instanceof File ? value.name : `${name}.bin`);
  }
  return body;
}

async function send(
  method: string,
  url: string,
  body: FormData,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${service.baseUrl}${url}`, { method, body, headers });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-multipart-'));
  temporary = path.join(folder, 'tmp');
  fs.mkdirSync(temporary);
  service = await startServiceProcess(path.join(folder, 'data.db'), { TMPDIR: temporary });
  const registered = await fetch(`${service.baseUrl}/admin/register-admin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'editor@studio.example', firstname: 'Eda', lastname: 'Editor', password: 'Editor-Passw0rd' }),
  });
  adminJwt = ((await registered.json()) as { data: { token: string } }).data.token;
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await removeServiceDatabase(path.join(folder, 'data.db'));
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('multipart bodies outside the upload routes', () => {
  it.each([
    ['POST /api/artikel without a token', 'POST', '/api/artikel', false],
    ['POST /api/artikel with a token', 'POST', '/api/artikel', true],
    ['PUT /api/artikel/some-slug', 'PUT', '/api/artikel/some-slug', true],
    ['POST to a path nothing serves', 'POST', '/no/such/path', false],
    ['POST /admin/login', 'POST', '/admin/login', false],
  ])('%s: a 415 that says where uploads go, with nothing written to disk', async (_label, method, url, withToken) => {
    const answer = await send(
      method,
      url,
      form({ x: new Blob([THREE_MB]), title: 'x' }),
      withToken ? { Authorization: `Bearer ${service.token}` } : {},
    );
    expect(answer.status).toBe(415);
    expect(isContractError(answer)).toBe(true);
    expect((answer.body as { error: { message: string } }).error.message).toMatch(/multipart.*upload/i);
    expect(filesUnder(temporary)).toEqual([]);
  });
});

describe('multipart bodies on the upload routes', () => {
  it('answers an upload without credentials with a 401 before reading the body', async () => {
    const answer = await send('POST', '/upload', form({ files: new Blob([THREE_MB]) }));
    expect(answer.status).toBe(401);
    expect(isContractError(answer)).toBe(true);
    expect(filesUnder(temporary)).toEqual([]);
  });

  it('leaves no temporary file behind a refused upload, whatever its fields are named', async () => {
    const answer = await send('POST', '/upload', form({ x: new Blob([THREE_MB]), files: new Blob([THREE_MB]) }), {
      Authorization: 'Bearer not-a-valid-jwt',
    });
    expect(answer.status).toBe(401);
    expect(filesUnder(temporary)).toEqual([]);
  });

  it('uploads through the admin and the API token as before, and leaves no temporary file', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const started = performance.now();
    const admin = await send(
      'POST',
      '/upload',
      form({ files: new File([png], 'photo.png', { type: 'image/png' }), other: new Blob([THREE_MB]) }),
      { Authorization: `Bearer ${adminJwt}` },
    );
    const adminMs = performance.now() - started;
    expect(admin.status).toBe(201);
    expect((admin.body as Array<{ width: number; mime: string }>)[0]).toMatchObject({ width: 40, mime: 'image/png' });
    const api = await send('POST', '/api/upload', form({ files: new File([png], 'photo.png', { type: 'image/png' }) }), {
      Authorization: `Bearer ${service.token}`,
    });
    expect(api.status).toBe(201);
    expect(await temporaryFilesOnceRenditionsAreMade()).toEqual([]);
    reportFigure('admin upload with a 3 MB extra field', `${adminMs.toFixed(0)} ms, temporary folder empty afterwards`);
  });

  it('sets the admin menu logo (Settings → Overview), a multipart POST /admin/project-settings, and leaves no temporary file', async () => {
    const png = await sharp({ create: { width: 60, height: 60, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    const answer = await send('POST', '/admin/project-settings', form({ menuLogo: new File([png], 'logo.png', { type: 'image/png' }) }), {
      Authorization: `Bearer ${adminJwt}`,
    });
    expect(answer.status).toBe(200);
    const stored = await fetch(`${service.baseUrl}/admin/project-settings`, { headers: { Authorization: `Bearer ${adminJwt}` } });
    expect(stored.status).toBe(200);
    expect(((await stored.json()) as { menuLogo: { name: string; width: number } | null }).menuLogo).toMatchObject({
      name: 'logo.png',
      width: 60,
    });
    expect(await temporaryFilesOnceRenditionsAreMade()).toEqual([]);
  });

  it('refuses a logo upload without credentials with a 401, writing nothing', async () => {
    const answer = await send('POST', '/admin/project-settings', form({ menuLogo: new Blob([THREE_MB]) }));
    expect(answer.status).toBe(401);
    expect(filesUnder(temporary)).toEqual([]);
  });
});
