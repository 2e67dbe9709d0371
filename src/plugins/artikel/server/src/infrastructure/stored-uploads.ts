import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import type { Core } from '@strapi/strapi';
import type { FileOnItsWay, ProviderService } from './upload-files';

/** Longest a stored file may take to download from a remote store. */
const DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * The bytes of a file the upload provider stored, by its URL: from the public folder for the local
 * provider (relative URLs), else downloaded from the store, never more than the upload size limit.
 */
export async function storedBytes(strapi: Core.Strapi, url: string): Promise<Buffer> {
  const { sizeLimit } = strapi.config.get('plugin::upload') as { sizeLimit?: number };
  if (url.startsWith('/')) {
    const publicDir = resolve(strapi.dirs.static.public);
    const path = resolve(publicDir, `.${decodeURIComponent(url.split('?')[0])}`);
    if (!path.startsWith(publicDir + sep)) throw new Error('the file lies outside the public folder');
    return readFile(path);
  }
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`the store answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (sizeLimit !== undefined && declared > sizeLimit) throw new Error('the stored file is larger than the upload limit');
  const bytes = Buffer.from(await response.arrayBuffer());
  if (sizeLimit !== undefined && bytes.length > sizeLimit) throw new Error('the stored file is larger than the upload limit');
  return bytes;
}

/** Runs `work` with `bytes` written to a file of a temporary folder of its own, removed afterwards. */
export async function withTemporaryFile<T>(bytes: Buffer, name: string, work: (path: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'artikel-photo-'));
  try {
    const path = join(folder, name);
    await writeFile(path, bytes);
    return await work(path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A file for the upload provider made from one on disk (the provider service reads it as a stream). */
export function fileOnDisk(path: string, fields: { hash: string; [field: string]: unknown }): FileOnItsWay {
  return { ...fields, filepath: path, getStream: () => createReadStream(path) };
}

/** Stores a file through the upload plugin's provider service (and so through this plugin's privacy hook). */
export async function storeThroughProvider(strapi: Core.Strapi, file: FileOnItsWay): Promise<Record<string, unknown>> {
  await (strapi.plugin('upload').service('provider') as ProviderService).upload(file);
  const { getStream: _stream, filepath: _path, tmpWorkingDirectory: _folder, ...stored } = file;
  return stored;
}
