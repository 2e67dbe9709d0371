import { createRequire } from 'node:module';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { artikelTools } from './tools';
import { getConfig } from '../infrastructure/get-service';

type RegisterTool = (tool: unknown) => void;

/** MCP tool annotations (the specification's hints) of the studio's tools. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

type SdkRegisterTool = (name: string, config: { annotations?: ToolAnnotations } & Record<string, unknown>, callback: unknown) => unknown;

/** What the studio changes in the tools Strapi's MCP server registers for each session (see passThroughSdk). */
interface SdkRegistration {
  annotations: ReadonlyMap<string, ToolAnnotations>;
  /** Tools never listed: Strapi's generic content tools for Article and Category, unless asked for. */
  hidden: ReadonlySet<string>;
}

/**
 * Where the SDK's registerTool, once passed through, finds the latest app's registration: on the
 * function itself, since the SDK outlives this module where a process loads the app more than once
 * (a Strapi destroyed and created again, the test workers).
 */
const REGISTRATION = Symbol.for('artikel.mcp-registration');
type PassedThrough = SdkRegisterTool & { [REGISTRATION]?: SdkRegistration };

/** A tool that is never listed: what Strapi's registry gets back for a hidden tool (it only enables and disables it). */
const NEVER_LISTED = Object.freeze({ enabled: false, enable() {}, disable() {}, remove() {}, update() {} });

/** Strapi's generic Content Manager tools of a content type (content-manager's derive-content-type-mcp-tools, 5.54). */
const genericToolsOf = (slug: string): string[] =>
  ['list', 'get', 'create', 'update', 'delete', 'publish', 'unpublish'].map((verb) => `${verb}_${slug}`).concat(`discard_${slug}_draft`);

/**
 * Two things Strapi's registry does not let a plugin say, said where it hands each tool to the MCP
 * SDK (McpServer.registerTool of the copy Strapi's core loads):
 * - its annotations (readOnlyHint, destructiveHint): the registry passes a tool's title,
 *   description and schemas but drops them (McpToolRegistry.bind, 5.54), so clients never saw
 *   which tools only read and which delete;
 * - which tools agents see: Strapi's 16 generic tools for Article and Category (31 KB of schema
 *   for list_article alone) beside the studio's own, which do the same with the studio's rules,
 *   are not registered unless ARTIKEL_MCP_GENERIC_TOOLS=true.
 */
function passThroughSdk(next: SdkRegistration): void {
  const fromCore = createRequire(path.join(path.dirname(require.resolve('@strapi/core/package.json')), 'index.js'));
  const sdk = fromCore('@modelcontextprotocol/server') as { McpServer?: { prototype: { registerTool: PassedThrough } } };
  const prototype = sdk.McpServer?.prototype;
  if (prototype === undefined) return;
  if (prototype.registerTool[REGISTRATION] !== undefined) {
    prototype.registerTool[REGISTRATION] = next;
    return;
  }
  const original = prototype.registerTool;
  const registerTool: PassedThrough = function (this: unknown, name, config, callback) {
    const registration = registerTool[REGISTRATION];
    if (registration?.hidden.has(name) === true) return NEVER_LISTED;
    const own = registration?.annotations.get(name);
    return original.call(
      this,
      name,
      own === undefined || config.annotations !== undefined ? config : { ...config, annotations: own },
      callback,
    );
  };
  registerTool[REGISTRATION] = next;
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
  passThroughSdk({
    annotations: new Map(tools.map((tool) => [tool.name, tool.annotations])),
    hidden: new Set(getConfig(strapi, 'mcpGenericTools') ? [] : [...genericToolsOf('article'), ...genericToolsOf('category')]),
  });
  for (const tool of tools) register(tool);
}
