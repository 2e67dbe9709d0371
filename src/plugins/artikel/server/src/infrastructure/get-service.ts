import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../constants';
import type { ArtikelConfig } from '../config';
import type { ArtikelServices } from '../services/types';

export function getService<Name extends keyof ArtikelServices>(strapi: Core.Strapi, name: Name): ArtikelServices[Name] {
  return strapi.plugin(PLUGIN_ID).service(name) as ArtikelServices[Name];
}

/** One setting of the plugin's configuration (see config/index.ts), typed by its name. */
export function getConfig<Key extends keyof ArtikelConfig>(strapi: Core.Strapi, key: Key): ArtikelConfig[Key] {
  return strapi.plugin(PLUGIN_ID).config(key) as ArtikelConfig[Key];
}
