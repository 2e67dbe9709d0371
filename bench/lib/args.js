// @ts-check
'use strict';

/**
 * `--name value`, `--name=value` and boolean `--flag`, typed after the defaults. An unknown option
 * is an error: a typo like --article should not silently run the default size. Numbers must be
 * positive, except those named in `zeroAllowed` (0 turning something off).
 */
/**
 * @template {Record<string, any>} T
 * @param {string[]} argv
 * @param {T} defaults
 * @param {{ zeroAllowed?: string[] }} [options]
 * @returns {T}
 */
function parseArgs(argv, defaults, { zeroAllowed = [] } = {}) {
  /** @type {Record<string, any>} */
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i += 1) {
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(argv[i]);
    if (!match) throw new Error(`Unexpected argument "${argv[i]}"`);
    const name = match[1].replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
    if (!(name in defaults))
      throw new Error(
        `Unknown option --${match[1]}; known: ${Object.keys(defaults)
          .map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)
          .join(' ')}`,
      );
    if (typeof defaults[name] === 'boolean') {
      options[name] = match[2] === undefined ? true : match[2] !== 'false';
      continue;
    }
    const raw = match[2] ?? argv[(i += 1)];
    if (raw === undefined) throw new Error(`--${match[1]} needs a value`);
    if (typeof defaults[name] === 'number') {
      const value = Number(raw);
      if (zeroAllowed.includes(name) ? !(value >= 0) : !(Number.isFinite(value) && value > 0)) {
        throw new Error(`--${match[1]} must be a ${zeroAllowed.includes(name) ? 'number, 0 or more' : 'positive number'}`);
      }
      options[name] = value;
    } else {
      options[name] = raw;
    }
  }
  return /** @type {T} */ (options);
}

module.exports = { parseArgs };
