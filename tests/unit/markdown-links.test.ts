import { isSafeLinkDestination, neutralizeMarkdownLinks } from '../../src/plugins/artikel/server/src/utils/markdown-links';

describe('Markdown link neutralizing', () => {
  it.each([
    ['[x](javascript:alert(1))', '[x](#)'],
    ['![x](JaVaScRiPt:alert(1))', '![x](#)'],
    ['[x](  <javascript:alert(1)> "t")', '[x](  # "t")'],
    ['[x](&#106;avascript:alert(1))', '[x](#)'],
    ['[x](java&#x09;script:alert(1))', '[x](#)'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', '[x](#)'],
    ['[x](vbscript:msgbox(1))', '[x](#)'],
    ['[ref]: javascript:alert(1)\n\n[ref]', '[ref]: #\n\n[ref]'],
    ['see <javascript:alert(1)> now', 'see  now'],
    ['[x](javascript:alert((1)))', '[x](#)'],
  ])('defuses %j', (input, expected) => {
    expect(neutralizeMarkdownLinks(input)).toBe(expected);
  });

  it('keeps safe links, relative links, anchors and prose exactly as written', () => {
    const markdown =
      '# Data: 24 mm\n\n[site](https://example.com/a_(b)) [mail](mailto:a@b.c) [top](#top) [rel](../x.jpg "t") <https://x.y> Data: f/2.8';
    expect(neutralizeMarkdownLinks(markdown)).toBe(markdown);
  });

  it('judges a destination by its scheme after escapes, entities and ignored characters', () => {
    expect(isSafeLinkDestination('https://example.com')).toBe(true);
    expect(isSafeLinkDestination('/relative/path')).toBe(true);
    expect(isSafeLinkDestination('java\tscript:alert(1)')).toBe(false);
    expect(isSafeLinkDestination('javascript&colon;alert(1)')).toBe(false);
  });
});
