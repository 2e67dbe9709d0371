import type { Core } from '@strapi/strapi';

/** A middleware as Strapi's registry holds it: built once per use in the app's config. */
export type MiddlewareFactory = (config: object, context: { strapi: Core.Strapi }) => Core.MiddlewareHandler;

export type Context = Parameters<Core.MiddlewareHandler>[0];
