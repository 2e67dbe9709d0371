import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { currentStore } from '../helpers/store';

/**
 * Strapi's admin login limit (5 tries in 5 minutes per e-mail and address): on one instance, and
 * on PostgreSQL across two instances on one database, where a guesser who spreads their tries
 * over the instances gets no more of them.
 */
let folder: string;
let databaseFile: string;
const services: ServiceProcess[] = [];

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-login-limit-'));
  databaseFile = path.join(folder, 'data.db');
});

afterAll(async () => {
  for (const service of services) await service.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

const guess = (service: ServiceProcess, email: string, n: number) =>
  fetch(`${service.baseUrl}/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: `Wrong-Guess-${n}` }),
  }).then((response) => response.status);

it(`refuses the sixth wrong password in five minutes with a 429, ${currentStore() === 'postgres' ? 'counted across two instances' : 'on the one instance a SQLite file has'}`, async () => {
  services.push(await startServiceProcess(databaseFile));
  if (currentStore() === 'postgres') services.push(await startServiceProcess(databaseFile));
  const statuses: number[] = [];
  for (let n = 0; n < 6; n += 1) statuses.push(await guess(services[n % services.length], 'owner@studio.example', n));
  expect(statuses.slice(0, 5).every((status) => status === 400 || status === 401)).toBe(true);
  expect(statuses[5]).toBe(429);
  // Another e-mail from the same address has its own count.
  expect([400, 401]).toContain(await guess(services[0], 'other@studio.example', 7));
}, 180_000);
