'use strict';

// The plugin's server is TypeScript compiled together with the app (see tsconfig.json), and
// `npm run build` empties dist/ first, so this always loads the code of the last build.
module.exports = require('../../../dist/src/plugins/artikel/server/src').default;
