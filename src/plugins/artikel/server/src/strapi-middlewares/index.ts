import type { Core } from '@strapi/strapi';
import { bodyParsedWhenSent } from './body-parsed-when-sent';
import { requestLineWhenKept } from './request-line-when-kept';
import { securityHeadersBuiltOnce } from './security-headers-built-once';
import type { MiddlewareFactory } from './types';

/** Strapi's own middlewares, extended where they do per request what can be done once, or need not be done at all. */
export function extendStrapiMiddlewares(strapi: Core.Strapi): void {
  const middlewares = strapi.get('middlewares');
  middlewares.extend('strapi::security', (factory: MiddlewareFactory) => securityHeadersBuiltOnce(factory));
  middlewares.extend('strapi::body', (factory: MiddlewareFactory) => bodyParsedWhenSent(factory));
  middlewares.extend('strapi::logger', (factory: MiddlewareFactory) => requestLineWhenKept(factory));
}
