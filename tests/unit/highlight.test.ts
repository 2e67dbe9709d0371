// @timing: that highlighting grows linearly (run one at a time, see jest.config.js)
import {
  EXCERPT_CHARACTERS,
  excerptText,
  highlightOf,
  markedText,
  occurrences,
} from '../../src/plugins/artikel/server/src/utils/highlight';
import { closestSpellings } from '../../src/plugins/artikel/server/src/domain/spelling-suggestions';

describe('markedText', () => {
  it('escapes the text and marks each occurrence in any case, also inside longer words', () => {
    expect(markedText(`<b>"Über" & über's Überfahrt</b>`, ['ÜBER'])).toBe(
      '&lt;b&gt;&quot;<mark>Über</mark>&quot; &amp; <mark>über</mark>&#39;s <mark>Über</mark>fahrt&lt;/b&gt;',
    );
  });

  it('merges overlapping occurrences of different words into one mark', () => {
    expect(markedText('fotografi', ['foto', 'tog'])).toBe('<mark>fotog</mark>rafi');
  });

  it('keeps the original characters where the case folding changes their length', () => {
    expect(markedText('İstanbul', ['stan'])).toBe('İ<mark>stan</mark>bul');
  });

  it('marks a word’s forms whole, and a longer word that only holds a form (a letter outside ASCII or the BMP included) not as a form', () => {
    expect(markedText('Pemotretan İstanbul, memotret; é-memotret 𝐀memotret', ['potret'])).toBe(
      '<mark>Pemotretan</mark> İstanbul, <mark>memotret</mark>; é-<mark>memotret</mark> 𝐀memotret',
    );
    expect(markedText('İpemotretan memfoto', ['potret', 'foto'])).toBe('İpemotretan <mark>memfoto</mark>');
  });
});

describe('highlightOf', () => {
  it('cuts about 200 characters around the densest matches, at white space, with ellipses', () => {
    const content = `${'awal kata '.repeat(60)}lensa makro dan lensa lagi ${'akhir kata '.repeat(60)} makro`;
    const { excerpt } = highlightOf({ title: 'x', content, summary: null }, ['lensa', 'makro']);
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt).toContain('<mark>lensa</mark> <mark>makro</mark> dan <mark>lensa</mark> lagi');
    expect(excerpt.replace(/<\/?mark>/g, '').length).toBeLessThanOrEqual(EXCERPT_CHARACTERS + 2);
  });

  it('shows part of an occurrence longer than the window (a word repeated into one run)', () => {
    const { excerpt } = highlightOf({ title: 'x', content: 'a'.repeat(100_000), summary: null }, ['aa']);
    expect(excerpt.startsWith(`<mark>${'a'.repeat(EXCERPT_CHARACTERS)}</mark>`)).toBe(true);
  });

  it('takes the summary when the words occur only in the title', () => {
    expect(highlightOf({ title: 'Makro', content: 'Tanpa', summary: 'Ringkas & jelas' }, ['makro'])).toEqual({
      title: '<mark>Makro</mark>',
      excerpt: 'Ringkas &amp; jelas',
    });
  });

  it('grows linearly with the text', () => {
    const time = (size: number) => {
      const content = 'ab<a '.repeat(size);
      const started = process.hrtime.bigint();
      highlightOf({ title: 'x', content, summary: null }, ['ab', 'b<', 'zz']);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    time(1000);
    expect(time(160_000)).toBeLessThan(Math.max(50, 20 * time(20_000)));
  });
});

describe('excerptText and occurrences', () => {
  it('drops tags, link targets and emphasis marks, and reads the common entities', () => {
    expect(excerptText('## Judul\n\n<p>Satu <strong>dua</strong> &amp; [tiga](https://x.example) *empat*</p>')).toBe(
      'Judul Satu dua & tiga empat',
    );
    expect(occurrences('aaaa', ['aa'])).toEqual([[0, 4]]);
  });
});

describe('closestSpellings', () => {
  it('keeps candidates within one edit per three letters, closest first', () => {
    expect(closestSpellings('prewedng', ['prewedding', 'wedding', 'prewed'])).toEqual(['prewedding', 'prewed']);
    expect(closestSpellings('makri', ['makro', 'macro', 'mark'])).toEqual(['makro']);
  });
});
