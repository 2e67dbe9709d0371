import type services from './index';

type ServiceFactories = typeof services;

/** Each service of the plugin by name, typed from its factory. */
export type ArtikelServices = { [Name in keyof ServiceFactories]: ReturnType<ServiceFactories[Name]> };
export type ArticleViewsService = ArtikelServices['article-views'];
