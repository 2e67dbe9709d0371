import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const CHILD = path.resolve(__dirname, 'service-child.js');

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** A full-access API token the process issued for itself. */
  token: string;
  /** Ends the process the way an operator stops a service, and waits for it. */
  stop: () => Promise<void>;
}

/**
 * The compiled service in a process of its own on this SQLite file, listening on a free port:
 * Strapi cannot boot twice in one process, so tests that restart the service use this.
 */
export async function startServiceProcess(databaseFile: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const child = fork(CHILD, [], {
    env: { ...process.env, DATABASE_FILENAME: databaseFile, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number; token: string }));
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before it was ready`)));
  });
  return {
    child,
    baseUrl: `http://127.0.0.1:${ready.port}`,
    token: ready.token,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
