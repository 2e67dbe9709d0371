import { normalizeSlug, slugFromTitle, withSuffix } from '../../src/plugins/artikel/server/src/utils/slug-text';

describe('slugs', () => {
  it('lower-cases, transliterates and joins words with dashes', () => {
    expect(normalizeSlug('  Über Fotografie & Licht!  ')).toBe('uber-fotografie-and-licht');
  });

  it('cuts long slugs at a word boundary', () => {
    const slug = normalizeSlug('word '.repeat(100), 30);
    expect(slug.length).toBeLessThanOrEqual(30);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('gives a title with nothing sluggable a stable, usable slug', () => {
    const slug = slugFromTitle('📷📷📷');
    expect(slug).toMatch(/^artikel-[0-9a-f]{8}$/);
    expect(slugFromTitle('📷📷📷')).toBe(slug);
    expect(slugFromTitle('🌅')).not.toBe(slug);
  });

  it('numbers taken slugs from -2 on', () => {
    expect(withSuffix('golden-hour', 1)).toBe('golden-hour');
    expect(withSuffix('golden-hour', 2)).toBe('golden-hour-2');
  });
});
