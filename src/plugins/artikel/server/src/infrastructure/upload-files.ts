import type { Readable } from 'node:stream';

/** A file on its way into the upload provider, as Strapi's upload services hand it around. */
export interface FileOnItsWay {
  name?: string;
  hash: string;
  ext?: string;
  mime?: string;
  /** Where the file waits on disk; every file Strapi's own upload paths make has one. */
  filepath?: string;
  getStream: () => Readable;
  /** Kilobytes, as Strapi stores it. */
  size?: number;
  sizeInBytes?: number;
  tmpWorkingDirectory?: string;
  [field: string]: unknown;
}

/** The upload plugin's provider service (plugin::upload.provider): every stored file passes through it. */
export interface ProviderService {
  checkFileSize: (file: FileOnItsWay) => Promise<void>;
  upload: (file: FileOnItsWay) => Promise<void>;
  replace: (newFile: FileOnItsWay, oldFile: unknown) => Promise<void>;
  [method: string]: unknown;
}

/** Who uploads, as the upload plugin's admin routes pass it on (none for an API token). */
export interface UploadOptions {
  user?: { id?: unknown };
}

/** The upload plugin's upload service (plugin::upload.upload), as far as this plugin's hooks wrap it. */
export interface UploadService {
  upload: (input: unknown, options?: UploadOptions) => Promise<unknown>;
  replace: (id: unknown, input: unknown, options?: UploadOptions) => Promise<unknown>;
  [method: string]: unknown;
}

/** The upload plugin's image-manipulation service; `optimize` gets every optimizable image as uploaded. */
export interface ImageManipulationService {
  optimize: (file: FileOnItsWay) => Promise<FileOnItsWay>;
  [method: string]: unknown;
}

/** Raster images whose metadata may say where they were taken (SVG is text and holds no EXIF). */
export const isRasterImage = (mime: string | undefined): boolean =>
  typeof mime === 'string' && mime.startsWith('image/') && mime !== 'image/svg+xml';
