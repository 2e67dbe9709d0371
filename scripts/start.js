'use strict';

// `npm start`: serves the built app as Strapi's own `strapi start` does (`createStrapi({ appDir,
// distDir }).start()` in the folder it is run from), without loading the rest of Strapi's CLI. That
// CLI loads every command it has, and its `console` command imports Node's `repl`, which loads
// Node's `domain`: from then on every EventEmitter of the process (each knex query builder, each
// request's streams) is made and emits through domain's wrappers. A CPU profile of 600 POSTs put
// that at 0.29 ms a POST (bench/README.md, "Ours against stock").

const fs = require('node:fs');
const path = require('node:path');
const { createStrapi } = require('@strapi/strapi');

const appDir = process.cwd();
// tsconfig.json's outDir, where `npm run build` writes the server's code.
const distDir = path.join(appDir, 'dist');

if (!fs.existsSync(path.join(distDir, 'src', 'index.js'))) {
  console.error(`${distDir} holds no build: run npm run build first, then npm start.`);
  process.exit(1);
}

createStrapi({ appDir, distDir })
  .start()
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
