/** See node-options.js. */
export function serviceNodeOptions(callerOptions?: string): string;
/** See node-options.js. */
export function serviceStartScript(appDir: string): string;
