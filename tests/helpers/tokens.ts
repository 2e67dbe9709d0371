import type { Core } from '@strapi/strapi';

export type TokenKind = 'full-access' | 'read-only' | 'custom';

interface ApiTokenService {
  create: (attributes: {
    name: string;
    description: string;
    type: TokenKind;
    lifespan: null;
    permissions?: string[];
  }) => Promise<{ accessKey: string }>;
}

let counter = 0;

/** A Strapi API token as Settings → API Tokens creates it; returns the plain key a client sends. */
export async function createApiToken(strapi: Core.Strapi, type: TokenKind, permissions?: string[]): Promise<string> {
  counter += 1;
  const service = strapi.service('admin::api-token') as unknown as ApiTokenService;
  const token = await service.create({
    name: `test-${type}-${counter}`,
    description: '',
    type,
    lifespan: null,
    ...(permissions ? { permissions } : {}),
  });
  return token.accessKey;
}
