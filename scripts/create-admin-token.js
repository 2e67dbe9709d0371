'use strict';

// Prints a new admin token for MCP clients (Claude Desktop, Cursor, the MCP Inspector, n8n's MCP
// Client Tool), owned by an administrator and holding their role's permissions on Article, with the
// role's conditions: an Author's agent works on the Author's own articles only. stdout carries only
// the token; stderr what the command does and the client configuration to paste.
// Usage: npm run -s mcp-token -- <administrator's e-mail> [token name]
const { UsageError, commandLine } = require('./lib/command-line');
const { loadStrapi, progressPrinter, refuseNpmBanner, runCommand } = require('./lib/load-strapi');

const USAGE = "usage: npm run -s mcp-token -- <administrator's e-mail> [token name]";

const ARTICLE = 'api::article.article';
const progress = progressPrinter();

/** What to paste into the MCP clients, for this service's address. */
function clientConfiguration(url) {
  const desktop = { mcpServers: { artikel: { type: 'http', url, headers: { Authorization: 'Bearer <the token above>' } } } };
  return [
    'Claude Desktop, Cursor and other clients with an mcpServers file:',
    JSON.stringify(desktop, null, 2),
    `Claude Code: claude mcp add --transport http artikel ${url} --header "Authorization: Bearer $ARTIKEL_ADMIN_TOKEN"`,
    `MCP Inspector: npx @modelcontextprotocol/inspector, transport "Streamable HTTP", URL ${url}, header Authorization: Bearer <the token above>`,
  ].join('\n');
}

async function main() {
  const given = commandLine({ usage: USAGE, positionals: ['e-mail', 'name'] });
  if (given === null) return;
  if (refuseNpmBanner('mcp-token', 'TOKEN=$(npm run -s mcp-token -- you@example.com) (with -s)')) return;
  const email = (given['e-mail'] || '').trim().toLowerCase();
  if (email === '') throw new UsageError('Name the administrator who owns the token: npm run -s mcp-token -- editor@studio.example');
  const name = given.name || `mcp-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const strapi = await loadStrapi(progress);
  try {
    const owner = await strapi.db.query('admin::user').findOne({ where: { email }, populate: ['roles'] });
    if (!owner) throw new Error(`No administrator has the e-mail ${email}: register one in the admin (/admin) first`);
    const granted = (await strapi.service('admin::permission').findUserPermissions(owner)).filter(
      (permission) => permission.subject === ARTICLE,
    );
    if (granted.length === 0)
      throw new Error(`${email}'s role holds no permission on Article: give the role Content Manager permissions first`);
    progress(`creating the admin token "${name}" for ${email}`);
    const token = await strapi.service('admin::api-token-admin').create(
      {
        kind: 'admin',
        name,
        description: `Created by npm run mcp-token for ${email}`,
        lifespan: null,
        adminPermissions: granted.map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions })),
      },
      owner,
    );
    process.stdout.write(`${token.accessKey}\n`);
    const actions = [...new Set(granted.map((permission) => permission.action.split('.').pop()))].join(', ');
    progress(`done: the token above acts as ${email} with their role on Article (${actions}); it is shown once`);
    const base = (process.env.PUBLIC_URL || `http://localhost:${process.env.PORT || 1337}`).replace(/\/$/, '');
    process.stderr.write(`\n${clientConfiguration(`${base}/mcp`)}\n`);
  } finally {
    await strapi.destroy();
  }
}

runCommand(main);
