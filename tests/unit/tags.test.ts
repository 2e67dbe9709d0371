import { formatTags, parseTags, tagKey } from '../../src/plugins/artikel/server/src/utils/tags';

describe('parseTags', () => {
  it('splits on commas, trims and drops empty entries', () => {
    expect(parseTags(' Wedding ,, Outdoor ,  ')).toEqual(['Wedding', 'Outdoor']);
  });

  it('drops case-insensitive duplicates and keeps the first spelling', () => {
    expect(parseTags('Wedding, wedding, WEDDING, Rain')).toEqual(['Wedding', 'Rain']);
  });

  it('gives no tags for null, undefined and blank input', () => {
    expect(parseTags(null)).toEqual([]);
    expect(parseTags(undefined)).toEqual([]);
    expect(parseTags('  ')).toEqual([]);
  });

  it('round-trips through formatTags', () => {
    expect(parseTags(formatTags(['Über', 'Black & White']))).toEqual(['Über', 'Black & White']);
  });

  it('compares tags by their lower-case form', () => {
    expect(tagKey(' ÜBER ')).toBe('über');
  });
});
