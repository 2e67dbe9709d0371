// @timing: that each text step's time grows linearly (run one at a time, see jest.config.js)
// @same-on-every-store: the text steps are pure functions, no database (not run by test:postgres, see jest.config.js)
import fc from 'fast-check';
import {
  containsHtml,
  plainText,
  readingTimeMinutes,
  renderContentHtml,
  sanitizeStoredContent,
  splitSentences,
  summarize,
  withoutMarkup,
} from '../../src/plugins/artikel/server/src/utils/content';
import { neutralizeMarkdownLinks } from '../../src/plugins/artikel/server/src/utils/markdown-links';
import { parseTags } from '../../src/plugins/artikel/server/src/utils/tags';

/**
 * Every step the service runs over an article's text must take time linear in its size: a
 * backtracking pattern that rescans the rest of the text from each of many positions turns a
 * 48 KB body into seconds of a blocked event loop (issue #28, finding 3). Each step is timed on an
 * input built from repeated fragments at SMALL and at 8 × SMALL characters: a linear step takes
 * about 8 times as long, a quadratic one 64 times; the bound allows 8 × SLACK, and never less than
 * FLOOR_MS, so that noise on a shared machine does not fail it.
 */
const SMALL = 4_000;
const GROWTH = 8;
const SLACK = 4;
const FLOOR_MS = 100;

const STEPS: Record<string, (text: string) => unknown> = {
  sanitizeStoredContent,
  renderContentHtml,
  plainText,
  summarize,
  readingTimeMinutes,
  containsHtml,
  neutralizeMarkdownLinks,
  parseTags,
};

// What made the old patterns rescan: unclosed tags and link targets, runs without a sentence end,
// definitions, comments, emphasis and code marks, and the letters between them.
const FRAGMENTS = [
  '<a ',
  '](',
  '‹',
  'a',
  '.',
  '[',
  '<!--',
  '`',
  '*',
  '_',
  '<',
  '>',
  '[x]:',
  '\n[',
  ']',
  '(',
  ')',
  ' ',
  '\n',
  '\t',
  '](<',
  '](javascript:',
  '<https:',
  '&',
  '&#106;',
  '\\',
  '#',
  '> ',
  '- ',
  '|',
  ',',
  '!',
  '?',
  ':',
  '"',
  '<br',
  '<p>',
  '\u2028',
];

function millisecondsOf(step: (text: string) => unknown, text: string, runs: number): number {
  let fastest = Infinity;
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    step(text);
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return fastest;
}

function repeatedTo(unit: string, length: number): string {
  // The ".x" tail makes a trailing run end in something a sentence or tag pattern must fail on.
  return `${unit.repeat(Math.ceil(length / unit.length))}.x`;
}

interface Scaling {
  step: string;
  unit: string;
  smallMs: number;
  largeMs: number;
}

function measuredScalingOf(step: string, unit: string): Scaling {
  const small = repeatedTo(unit, SMALL);
  const large = repeatedTo(unit, SMALL * GROWTH);
  millisecondsOf(STEPS[step], small, 1); // warm up the step's code before timing it
  return { step, unit, smallMs: millisecondsOf(STEPS[step], small, 3), largeMs: millisecondsOf(STEPS[step], large, 3) };
}

const isLinear = ({ smallMs, largeMs }: Scaling) => largeMs <= Math.max(FLOOR_MS, smallMs * GROWTH * SLACK);

/**
 * A step that looks non-linear is measured twice more, and fails only if it looks so every time: on
 * a loaded machine (CI, 2026-11-27) one measurement of the large input met a 250 ms pause where the
 * step itself takes 30 ms, while a rescanning pattern is slow every time.
 */
function scalingOf(step: string, unit: string): Scaling {
  let scaling = measuredScalingOf(step, unit);
  for (let remeasure = 0; remeasure < 2 && !isLinear(scaling); remeasure += 1) {
    scaling = measuredScalingOf(step, unit);
  }
  return scaling;
}

describe('the text pipeline takes time linear in the size of the text', () => {
  it.each(Object.keys(STEPS))('%s grows at most linearly on every repeated adversarial fragment', (step) => {
    const scalings = FRAGMENTS.map((fragment) => scalingOf(step, fragment));
    const slowest = scalings.reduce((worst, scaling) => (scaling.largeMs > worst.largeMs ? scaling : worst));
    process.stdout.write(
      `${step}: slowest ${JSON.stringify(slowest.unit)} ${slowest.smallMs.toFixed(1)} ms at ${SMALL}, ${slowest.largeMs.toFixed(1)} ms at ${SMALL * GROWTH}\n`,
    );
    expect(scalings.filter((scaling) => !isLinear(scaling))).toEqual([]);
  });

  it('grows at most linearly on generated mixtures of the fragments, for every step', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
        (unit) => {
          const notLinear = Object.keys(STEPS)
            .map((step) => scalingOf(step, unit))
            .filter((scaling) => !isLinear(scaling));
          expect(notLinear).toEqual([]);
        },
      ),
      { numRuns: 12, seed: 28 },
    );
  });
});

describe('the one-pass scanners give exactly what the patterns they replace gave', () => {
  // The old patterns, kept here only as the reference on short texts (where their cost is harmless).
  const OLD_MARKUP = /<[^>]*>|\]\([^)]*\)|^\s*\[[^\]]+\]:.*$/gm;
  const OLD_SENTENCES = /[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g;
  const OLD_HTML_TAG = /<\/?[a-z][a-z0-9-]*(\s[^>]*)?\/?>|<!--/i;
  const shortTexts = fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 3 })), { maxLength: 30 })
    .map((parts) => parts.join(''));

  it('removes the same markup before counting words, so reading times stay as they were', () => {
    fc.assert(
      fc.property(shortTexts, (text) => expect(withoutMarkup(text)).toBe(text.replace(OLD_MARKUP, ' '))),
      { numRuns: 3000 },
    );
  });

  it('splits the same sentences for the summary', () => {
    fc.assert(
      fc.property(shortTexts, (text) => expect(splitSentences(text)).toEqual(text.match(OLD_SENTENCES) ?? [text])),
      { numRuns: 3000 },
    );
  });

  it('sees HTML in the same texts', () => {
    fc.assert(
      fc.property(shortTexts, (text) => expect(containsHtml(text)).toBe(OLD_HTML_TAG.test(text))),
      { numRuns: 3000 },
    );
  });
});
