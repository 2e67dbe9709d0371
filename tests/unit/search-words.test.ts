import { caseSpellings, mayFind, searchableText } from '../../src/plugins/artikel/server/src/utils/search-words';

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
    expect(mayFind(['kelvinx'], kelvin)).toBe(false);
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

describe('caseSpellings', () => {
  it('spells each letter outside ASCII both ways and ASCII letters in lower case only, which LIKE folds itself', () => {
    expect(caseSpellings('ÜBER')).toEqual(['über', 'Über']);
    expect(caseSpellings('Äpfel-Öl').sort()).toEqual(['äpfel-öl', 'äpfel-Öl', 'Äpfel-öl', 'Äpfel-Öl'].sort());
  });

  it('gives a word without cased letters outside ASCII once', () => {
    expect(caseSpellings('Camera42')).toEqual(['camera42']);
    expect(caseSpellings('日本')).toEqual(['日本']);
  });

  it('keeps a letter whose upper case is two letters in lower case only', () => {
    expect(caseSpellings('straße')).toEqual(['straße']);
  });

  it('spells at most six letters both ways, so a long word gives at most 64 patterns', () => {
    const spellings = caseSpellings('éééééééé');
    expect(spellings).toHaveLength(64);
    expect(spellings.every((spelling) => spelling.endsWith('éé'))).toBe(true);
  });
});
