import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../constants';
import type { ArtikelServices } from '../services/types';

export function getService<Name extends keyof ArtikelServices>(strapi: Core.Strapi, name: Name): ArtikelServices[Name] {
  return strapi.plugin(PLUGIN_ID).service(name) as ArtikelServices[Name];
}
