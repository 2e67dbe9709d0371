import { createRequire } from 'node:module';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { artikelTools } from './tools';

type RegisterTool = (tool: unknown) => void;

/** MCP tool annotations (the specification's hints) of the studio's tools. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

type SdkRegisterTool = (name: string, config: { annotations?: ToolAnnotations } & Record<string, unknown>, callback: unknown) => unknown;

/**
 * Strapi's tool registry passes a tool's title, description and schemas to the MCP SDK but drops
 * its annotations (strapi.ai.mcp, 5.54: McpToolRegistry.bind), so clients never see which tools
 * only read and which delete. Until it passes them, the SDK's McpServer (the copy Strapi's core
 * loads) adds the studio's own annotations when one of its tools is registered for a session.
 */
function passAnnotations(annotations: ReadonlyMap<string, ToolAnnotations>): void {
  const fromCore = createRequire(path.join(path.dirname(require.resolve('@strapi/core/package.json')), 'index.js'));
  const sdk = fromCore('@modelcontextprotocol/server') as { McpServer?: { prototype: { registerTool: SdkRegisterTool } } };
  const prototype = sdk.McpServer?.prototype;
  if (prototype === undefined || (prototype.registerTool as { artikel?: boolean }).artikel === true) return;
  const original = prototype.registerTool;
  const registerTool: SdkRegisterTool = function (this: unknown, name, config, callback) {
    const own = annotations.get(name);
    return original.call(
      this,
      name,
      own === undefined || config.annotations !== undefined ? config : { ...config, annotations: own },
      callback,
    );
  };
  (registerTool as { artikel?: boolean }).artikel = true;
  prototype.registerTool = registerTool;
}

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
  const tools = artikelTools(strapi);
  passAnnotations(new Map(tools.map((tool) => [tool.name, tool.annotations])));
  for (const tool of tools) register(tool);
}
