'use strict';

// Prints a new Strapi API token that may only create articles (POST /api/artikel), for automation
// tools and agents. Usage: npm run token -- [name]
const path = require('node:path');
const { compileStrapi, createStrapi } = require('@strapi/strapi');

const CREATE_PERMISSION = 'plugin::artikel.artikel.create';

async function main() {
  const appDir = path.resolve(__dirname, '..');
  const name = process.argv[2] || `automation-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const { distDir } = await compileStrapi({ appDir });
  const strapi = await createStrapi({ appDir, distDir, logLevel: 'error' }).load();
  try {
    const token = await strapi.service('admin::api-token').create({
      name,
      description: 'Created by npm run token: may only publish articles through POST /api/artikel',
      type: 'custom',
      lifespan: null,
      permissions: [CREATE_PERMISSION],
    });
    process.stdout.write(`${token.accessKey}\n`);
  } finally {
    await strapi.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
