'use strict';

// Preloaded (node --require) into the Strapi CLI commands the suites run (tests/helpers/strapi-cli.ts).
// `strapi export`, `import` and `transfer` compile a TypeScript app before they load it: tsc over
// the whole project into dist/, 12 s of a 2-core machine each time, and a rewrite of dist/, the build
// a running demo uses. The suites compiled this same tree once already (tests/helpers/global-setup.ts)
// into ARTIKEL_DIST_DIR: the command loads that build, as every other process of the suites does.
const core = require('@strapi/core');

const distDir = process.env.ARTIKEL_DIST_DIR;
if (!distDir) throw new Error("ARTIKEL_DIST_DIR is not set: the suites' global setup sets it to the build they compiled");
core.compileStrapi = async (options) => ({ appDir: options?.appDir ?? process.cwd(), distDir });
