import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withEnv } from '../helpers/env';
import { removeTestTemplate } from '../helpers/store';

/**
 * The global teardown removes the template database a whole run made (see createTestTemplate), and
 * nothing else: ARTIKEL_TEST_TEMPLATE_FILE set by hand to a file in a shared folder once took the
 * whole folder (/tmp) with it.
 */
const onlyTheTemplateFile = (file: string) => ({ ARTIKEL_TEST_TEMPLATE_FILE: file, ARTIKEL_TEST_TEMPLATE_DATABASE: undefined });

describe("the teardown's removal of the test template", () => {
  it('leaves a folder it did not make, and everything in it, when the template file is named there by hand', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'not-a-template-'));
    try {
      const template = path.join(folder, 'template.db');
      const neighbour = path.join(folder, 'notes.txt');
      fs.writeFileSync(template, '');
      fs.writeFileSync(neighbour, 'keep me');
      await withEnv(onlyTheTemplateFile(template), removeTestTemplate);
      expect(fs.readFileSync(neighbour, 'utf8')).toBe('keep me');
      expect(fs.existsSync(template)).toBe(true);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('removes the folder a run made for its template, with the file and its write-ahead log', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-template-'));
    const template = path.join(folder, 'template.db');
    fs.writeFileSync(template, '');
    fs.writeFileSync(`${template}-wal`, '');
    await withEnv(onlyTheTemplateFile(template), removeTestTemplate);
    expect(fs.existsSync(folder)).toBe(false);
  });
});
