import type { Core } from '@strapi/strapi';
import { artikelTools } from './tools';

type RegisterTool = (tool: unknown) => void;

/**
 * Adds the studio's tools to Strapi's own MCP server, beside the Content Manager's generic ones.
 * Called while the plugin boots, before the server starts (Strapi refuses tools registered later).
 * Each tool is listed only to an admin token whose permissions include the Content Manager action
 * it needs on Article.
 */
export function registerArtikelTools(strapi: Core.Strapi): void {
  const mcp = (strapi as unknown as { ai?: { mcp?: { registerTool?: RegisterTool } } }).ai?.mcp;
  if (typeof mcp?.registerTool !== 'function') return;
  const register = mcp.registerTool.bind(mcp);
  for (const tool of artikelTools(strapi)) register(tool);
}
