import {
  ftsWordStartsOf,
  mayFind,
  searchableText,
  searchText,
  searchWordsOf,
  withinSearchLimits,
} from '../../src/plugins/artikel/server/src/utils/search-words';

const text = (title: string, content = '', tags: string | null = null) => searchableText({ title, content, tags });

describe('whether a search may find an article, as the read cache tells which searches a write changed', () => {
  it('finds an article holding every word, in any ASCII case, in its title, content or tags', () => {
    const heron = text('A Grey Heron', 'Standing in the reeds at dawn.', 'Birds, Wildlife');
    expect(mayFind(['heron'], heron)).toBe(true);
    expect(mayFind(['HERON', 'reeds'], heron)).toBe(true);
    expect(mayFind(['wild'], heron)).toBe(true);
    expect(mayFind(['heron', 'owl'], heron)).toBe(false);
    expect(mayFind(['gull'], heron)).toBe(false);
  });

  it('does not find a word across the border of title and content', () => {
    expect(mayFind(['heronstanding'], text('Heron', 'standing'))).toBe(false);
  });

  it('lets a character outside ASCII stand for any, as a database may fold it to the letter searched for', () => {
    // The Kelvin sign folds to "k" in a case-insensitive search.
    const kelvin = text('5000 \u212Aelvin light');
    expect(mayFind(['kelvin'], kelvin)).toBe(true);
    expect(mayFind(['gelvin'], kelvin)).toBe(true);
    // A longer word is not there; where the text's word could be a form of it (its stem's core,
    // "elvin", lies in a word holding such a character), it counts as found.
    expect(mayFind(['kelvinxyz'], kelvin)).toBe(false);
    expect(mayFind(['kelvinx'], kelvin)).toBe(true);
    expect(mayFind(['heron'], text('Reiher über dem See'))).toBe(false);
  });

  it('counts a word holding anything but printable ASCII as found, whatever the text', () => {
    expect(mayFind(['über'], text('Boats at dusk'))).toBe(true);
    expect(mayFind(['a\u0000b'], text('Boats at dusk'))).toBe(true);
  });

  it('takes characters of a word that mean something in a pattern literally', () => {
    expect(mayFind(['f/2.8]'], text('Shot at f/2.8] wide open ü'))).toBe(true);
    expect(mayFind(['f/2x8]'], text('Shot at f/2.8] wide open ü'))).toBe(false);
    expect(mayFind(['a-c'], text('abc ü'))).toBe(false);
    expect(mayFind(['^\\'], text('x^\\y ü'))).toBe(true);
  });
});

describe('the words of a search', () => {
  it('drops control characters, so a word holding one is the word without it', () => {
    expect(searchWordsOf(searchText('pan\u0001tai\u007f  foto\u0000 '))).toEqual(['pantai', 'foto']);
  });

  it('keeps each word once, whatever its case', () => {
    expect(searchWordsOf('Über über ÜBER kabut')).toEqual(['Über', 'kabut']);
  });

  it('keeps a search within 10 distinct words of 100 characters and 200 characters in all', () => {
    expect(withinSearchLimits(Array.from({ length: 10 }, (_unused, index) => `kata${index}`).join(' '))).toBe(true);
    expect(withinSearchLimits(Array.from({ length: 11 }, (_unused, index) => `kata${index}`).join(' '))).toBe(false);
    expect(withinSearchLimits('kata '.repeat(30).trim())).toBe(true);
    expect(withinSearchLimits('ü'.repeat(100))).toBe(true);
    expect(withinSearchLimits('ü'.repeat(101))).toBe(false);
    expect(withinSearchLimits(`${'a'.repeat(60)} `.repeat(4).trim())).toBe(false);
  });
});

describe("the word index's query of a search", () => {
  it('looks a word up as the one word it begins where the index holds only one, else by its beginning, its forms beside it', () => {
    expect(ftsWordStartsOf(['workshop'], [[]], ['workshop'])).toBe('"workshop"');
    expect(ftsWordStartsOf(['worksh'], [[]], ['workshop'])).toBe('"workshop"');
    expect(ftsWordStartsOf(['wed', 'potret'], [[], ['memotret']], [null, 'potret'])).toBe('"wed"* AND ("potret" OR "memotret")');
    expect(ftsWordStartsOf(['wed'])).toBe('"wed"*');
  });

  it('is none for a word the word index cannot look up as one word', () => {
    expect(ftsWordStartsOf(['f/2.8'], [[]], ['f'])).toBeNull();
  });
});
