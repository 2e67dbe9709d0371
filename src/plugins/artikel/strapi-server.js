'use strict';

// The plugin's server is TypeScript compiled together with the app (see tsconfig.json), and
// `npm run build` empties dist/ first, so this loads the code of the last build. The test suites
// compile into a folder of their own (ARTIKEL_DIST_DIR, see tests/helpers/global-setup.ts), so a
// test run never touches the build a running service uses.
const path = require('node:path');

const distDir = process.env.ARTIKEL_DIST_DIR || path.resolve(__dirname, '..', '..', '..', 'dist');
module.exports = require(path.join(distDir, 'src', 'plugins', 'artikel', 'server', 'src')).default;
