/**
 * The design system's time field writes and reads a time with its language's separator: "13.52"
 * in Indonesian, "13:52" in English. An editor types either, whatever the admin's language (phones
 * and habit write "13:50"); the field split "13:50" at the dot it expected and threw "RangeError:
 * Invalid time value" out of the page. So a colon or a dot typed or pasted into a time field
 * becomes the field's own separator as it goes in.
 */

/** The field's separator, read from the pattern the design system gives its time input (\d{2}\.\d{2}). */
function separatorOf(target: EventTarget | null): string | null {
  if (!(target instanceof HTMLInputElement) || target.inputMode !== 'numeric') return null;
  const pattern = target.getAttribute('pattern') ?? '';
  const prefix = '\\d{2}';
  if (!pattern.startsWith(prefix) || !pattern.endsWith(prefix)) return null;
  const between = pattern.slice(prefix.length, pattern.length - prefix.length).replace(/^\\/, '');
  return between === ':' || between === '.' ? between : null;
}

const TYPED_TIME = /^\s*(\d{1,2})[:.](\d{2})\s*$/;

/** Puts text where the editor's cursor is, as typing would (the field's own input events follow). */
function insert(text: string): void {
  // The one way to insert text that the page's own handlers see as the editor's input.
  document.execCommand('insertText', false, text);
}

export function acceptEitherTimeSeparator(root: Document): void {
  root.addEventListener(
    'beforeinput',
    (event) => {
      const separator = separatorOf(event.target);
      if (separator === null || event.inputType !== 'insertText') return;
      if ((event.data === ':' || event.data === '.') && event.data !== separator) {
        event.preventDefault();
        insert(separator);
      }
    },
    true,
  );
  root.addEventListener(
    'paste',
    (event) => {
      const separator = separatorOf(event.target);
      const match = separator === null ? null : TYPED_TIME.exec(event.clipboardData?.getData('text') ?? '');
      if (separator === null || match === null) return;
      event.preventDefault();
      insert(`${match[1].padStart(2, '0')}${separator}${match[2]}`);
    },
    true,
  );
}
