'use strict';

// Prints a new Strapi API token that may only create articles (POST /api/artikel), for automation
// tools and agents; with ARTIKEL_TOKEN_ACTIONS=create,update,delete it may also change (PATCH) or
// delete (DELETE) them. Usage: [ARTIKEL_TOKEN_ACTIONS=create,update] npm run token -- [name]
const { commandLine } = require('./lib/command-line');
const { loadStrapi, progressPrinter, refuseNpmBanner, runCommand } = require('./lib/load-strapi');

const USAGE =
  'usage: npm run -s token -- [name]   (a token that may create articles; ARTIKEL_TOKEN_ACTIONS=create,update,delete for one that may also change and delete them)';

const ACTIONS = ['create', 'update', 'delete'];

/** The plugin's actions the token holds: create unless ARTIKEL_TOKEN_ACTIONS names others. */
function requestedPermissions() {
  const asked = (process.env.ARTIKEL_TOKEN_ACTIONS || 'create')
    .split(',')
    .map((action) => action.trim())
    .filter(Boolean);
  const unknown = asked.filter((action) => !ACTIONS.includes(action));
  if (unknown.length > 0) throw new Error(`ARTIKEL_TOKEN_ACTIONS may name ${ACTIONS.join(', ')}; not ${unknown.join(', ')}`);
  return asked.map((action) => `plugin::artikel.artikel.${action}`);
}

/** What the command is doing, on stderr: stdout carries only the token, for TOKEN=$(npm run -s token). */
const progress = progressPrinter();

async function main() {
  const given = commandLine({ usage: USAGE, positionals: ['name'] });
  if (given === null) return;
  if (refuseNpmBanner('token', 'TOKEN=$(npm run -s token) (with -s), or as node scripts/create-api-token.js')) return;
  const name = given.name || `automation-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const permissions = requestedPermissions();
  const strapi = await loadStrapi(progress);
  try {
    progress(`creating the API token "${name}"`);
    const token = await strapi.service('admin::api-token').create({
      name,
      description: `Created by npm run token: ${permissions.join(', ')}`,
      type: 'custom',
      lifespan: null,
      permissions,
    });
    process.stdout.write(`${token.accessKey}\n`);
    const missing = ACTIONS.filter((action) => !permissions.includes(`plugin::artikel.artikel.${action}`));
    progress(`done: the token above holds ${permissions.join(', ')} and nothing else; it is shown once`);
    if (missing.length > 0)
      progress(
        `it may not ${missing.join(' or ')} articles; for a token that may: ARTIKEL_TOKEN_ACTIONS=create,update,delete npm run -s token`,
      );
  } finally {
    await strapi.destroy();
  }
}

runCommand(main);
