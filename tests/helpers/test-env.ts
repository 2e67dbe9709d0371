import crypto from 'node:crypto';

// Secrets per test process, so tests never write the development secrets file.
const random = () => crypto.randomBytes(16).toString('base64');
for (const name of ['API_TOKEN_SALT', 'ADMIN_JWT_SECRET', 'TRANSFER_TOKEN_SALT', 'ENCRYPTION_KEY', 'JWT_SECRET']) {
  process.env[name] ??= random();
}
process.env.APP_KEYS ??= [random(), random()].join(',');
process.env.STRAPI_TELEMETRY_DISABLED = 'true';
process.env.LOG_LEVEL ??= 'error';
process.env.STUDIO_NAME = 'Lichtbild Studio';
process.env.ARTIKEL_RATE_LIMIT ??= '0';
// Views reach the table this often on SQLite (1 s by default); the tests that read the table wait for it (fixtures.ts viewsWritten).
process.env.ARTIKEL_VIEW_WRITE_MS ??= '50';
