import { fillUrlPattern, signPreviewToken, verifyPreviewToken } from '../../src/plugins/artikel/server/src/utils/preview-tokens';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);

describe('preview tokens', () => {
  it('grant their document until they expire, and nothing after', () => {
    const token = signPreviewToken(key, 'doc-id-1', 1_000);
    expect(verifyPreviewToken(key, token, 999)).toBe('doc-id-1');
    expect(verifyPreviewToken(key, token, 1_000)).toBeNull();
  });

  it('are refused when signed with another key, cut, or altered in any part', () => {
    const token = signPreviewToken(key, 'doc-id-1', 1_000);
    expect(verifyPreviewToken(otherKey, token, 0)).toBeNull();
    expect(verifyPreviewToken(key, token.slice(0, -2), 0)).toBeNull();
    const [, expiry, signature] = token.split('.');
    const otherDocument = Buffer.from('doc-id-2').toString('base64url');
    expect(verifyPreviewToken(key, `${otherDocument}.${expiry}.${signature}`, 0)).toBeNull();
    expect(verifyPreviewToken(key, '', 0)).toBeNull();
    expect(verifyPreviewToken(key, 'a.b.c.d', 0)).toBeNull();
    expect(verifyPreviewToken(key, 'a b.c.d', 0)).toBeNull();
  });
});

describe('URL patterns', () => {
  it('fill each placeholder URL-encoded and leave unknown ones alone', () => {
    expect(fillUrlPattern('https://studio.example/artikel/{slug}?p={token}&x={other}', { slug: 'a b', token: 'x.y' })).toBe(
      'https://studio.example/artikel/a%20b?p=x.y&x={other}',
    );
  });
});
