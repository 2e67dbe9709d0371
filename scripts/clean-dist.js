'use strict';

// `strapi build` compiles into dist/ without emptying it first; a deleted source file would live on there.
require('node:fs').rmSync(require('node:path').resolve(__dirname, '..', 'dist'), { recursive: true, force: true });
