/** See node-options.js. */
export function serviceNodeOptions(callerOptions?: string): string;
