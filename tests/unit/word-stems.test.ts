import { Stemmer } from 'sastrawijs';
import { mayFind, searchableText } from '../../src/plugins/artikel/server/src/utils/search-words';
import { shareStem, stemCores, stemsOf } from '../../src/plugins/artikel/server/src/utils/word-stems';
import { occurrences } from '../../src/plugins/artikel/server/src/utils/highlight';

// Sastrawi's dictionary of Indonesian root words, as its stemmer holds it.
const ROOTS = Object.keys((new Stemmer() as unknown as { internalDictionary: Record<string, unknown> }).internalDictionary);
const PREFIXES = [
  '',
  'me',
  'mem',
  'men',
  'meng',
  'meny',
  'pe',
  'pem',
  'pen',
  'peng',
  'peny',
  'ber',
  'ter',
  'di',
  'ke',
  'se',
  'per',
  'memper',
];
const SUFFIXES = ['', 'nya', 'kan', 'an', 'i', 'lah', 'kah', 'annya'];
const ENGLISH_SUFFIXES = [
  's',
  'es',
  'ies',
  'ed',
  'ied',
  'ing',
  'ingly',
  'ly',
  'y',
  'ational',
  'tional',
  'enci',
  'ization',
  'ation',
  'fulness',
  'biliti',
  'iviti',
  'ical',
  'ness',
  'ement',
];

describe('word stems', () => {
  it('gives a word its Indonesian and English stems, lower-cased, and none to what is not one word', () => {
    expect(stemsOf('Memotret')).toEqual(['potret', 'memotret']);
    expect(stemsOf('weddings')).toEqual(['weddings', 'wed']);
    expect(stemsOf('foto-foto')).toEqual([]);
    expect(stemsOf('di')).toEqual([]);
    expect(stemsOf('x'.repeat(41))).toEqual([]);
    expect(shareStem('pemotretan', 'potretnya')).toBe(true);
    expect(shareStem('tanam', 'tahan')).toBe(false);
  });

  // What read-freshness and the highlight rely on: a word holding neither of a stem's cores does not have that stem.
  it('finds the core of each stem inside every word that has it, for every root of the dictionary with its affixes', () => {
    let checked = 0;
    // Every fifth root (about 6,000): the whole dictionary (30,000 roots, 6.5 million forms) held it too, in 40 s.
    for (const [index, root] of ROOTS.entries()) {
      if (index % 5 !== 0) continue;
      const affixed = PREFIXES.flatMap((prefix) => SUFFIXES.map((suffix) => `${prefix}${root}${suffix}`));
      const english = index % 10 === 0 ? ENGLISH_SUFFIXES.map((suffix) => `${root}${suffix}`) : [];
      for (const word of [...affixed, ...english]) {
        for (const stem of stemsOf(word)) {
          checked += 1;
          if (!stemCores(stem).some((core) => word.includes(core)))
            throw new Error(`${word}: its stem ${stem} has the cores ${stemCores(stem).join(', ')}, which it does not hold`);
        }
      }
    }
    expect(checked).toBeGreaterThan(200_000);
  });

  it('never tells a cached search that a write cannot concern it where the write brings a form of its word', () => {
    const text = searchableText({ title: 'Sesi pemotretan', content: 'Kami menulis dan mencetak.', tags: 'Keluarga' });
    expect(mayFind(['potret'], text)).toBe(true);
    expect(mayFind(['tulis'], text)).toBe(true);
    expect(mayFind(['cetakan'], text)).toBe(true);
    expect(mayFind(['gunung'], text)).toBe(false);
  });

  it('marks the whole form in a text, in any case, beside the word itself', () => {
    const text = 'POTRET keluarga: kami memotret, lalu pemotretannya selesai.';
    expect(occurrences(text, ['potret']).map(([start, end]) => text.slice(start, end))).toEqual(['POTRET', 'memotret', 'pemotretannya']);
  });
});
