'use strict';

// The commands' arguments, read by Node's own util.parseArgs: an option a command does not know, an
// option without its value, a value where none belongs, or one argument too many is refused before
// anything loads, with the command's usage, instead of being taken for a token's name (`npm run -s
// token -- --help` once made a token named "--help"). --help (-h) prints the usage on stdout, exit 0.
const { parseArgs } = require('node:util');

/** What commandLine throws: runCommand prints its message and exits 2 (a usage error, as in POSIX tools). */
class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = 2;
  }
}

/**
 * The command line's options and positional arguments, or null when it asked for --help (then the
 * usage is printed and the command should end). `options`: util.parseArgs's option map; `positionals`:
 * the names of the positional arguments the command takes, in order (all optional). Throws a
 * UsageError that names what was not understood, with the usage.
 */
function commandLine({ usage, options = {}, positionals = [], argv = process.argv.slice(2) }) {
  const known = { ...options, help: { type: 'boolean', short: 'h' } };
  // Not strict: util.parseArgs's own refusals suggest moving the option after "--", which a reader
  // of a command's usage does not need; each refusal below names the command's own options instead.
  const {
    values,
    positionals: given,
    tokens,
  } = parseArgs({ args: argv, options: known, allowPositionals: true, strict: false, tokens: true });
  const optionList = Object.entries(options)
    .map(([name, option]) => (option.type === 'string' ? `--${name} N` : `--${name}`))
    .join(', ');
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = known[token.name];
    if (option === undefined)
      throw new UsageError(
        `unknown option ${token.rawName}; ${optionList === '' ? 'the command takes no options' : `the options are ${optionList}`}\n${usage}`,
      );
    if (option.type === 'string' && token.value === undefined) throw new UsageError(`${token.rawName} needs a value\n${usage}`);
    if (option.type === 'boolean' && token.inlineValue === true) throw new UsageError(`${token.rawName} takes no value\n${usage}`);
  }
  if (values.help === true) {
    process.stdout.write(`${usage}\n`);
    return null;
  }
  if (given.length > positionals.length)
    throw new UsageError(
      `too many arguments: ${given
        .slice(positionals.length)
        .map((argument) => JSON.stringify(argument))
        .join(' ')} (the command takes ${positionals.length === 0 ? 'none' : positionals.join(', then ')})\n${usage}`,
    );
  const { help: _help, ...chosen } = values;
  return { ...chosen, ...Object.fromEntries(positionals.map((name, index) => [name, given[index]])) };
}

module.exports = { UsageError, commandLine };
