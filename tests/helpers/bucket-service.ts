import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server, type S3Server } from './s3-server';
import { registerAdmin } from './service-photos';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from './service-process';

/** A service process whose uploads go to a bucket of its own, with its first administrator registered. */
export interface BucketService {
  /** The test's folder: the database file, the public folder and the service's log. */
  folder: string;
  databaseFile: string;
  /** The service's log (its standard output). */
  logFile: string;
  store: S3Server;
  /** The running service; `restart` replaces it. */
  service: ServiceProcess;
  /** The administrator's admin JWT. */
  jwt: string;
  /** The service's variables: the bucket's, its own public folder, and the test's. */
  env: Record<string, string>;
  /** Stops the service (if it runs) and starts it again on the same database, bucket and variables. */
  restart: () => Promise<ServiceProcess>;
  /** Stops everything and removes the folder, the bucket and the database. */
  stop: () => Promise<void>;
}

export async function startBucketService(name: string, env: Record<string, string> = {}): Promise<BucketService> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `artikel-${name}-`));
  const databaseFile = path.join(folder, 'data.db');
  const logFile = path.join(folder, 'service.log');
  const store = await startS3Server();
  const serviceEnv = { ...store.env, PUBLIC_DIR: path.join(folder, 'public'), ...env };
  const started = await startServiceProcess(databaseFile, serviceEnv, { logFile });
  const bucketService: BucketService = {
    folder,
    databaseFile,
    logFile,
    store,
    service: started,
    jwt: await registerAdmin(started.baseUrl),
    env: serviceEnv,
    restart: async () => {
      await bucketService.service.stop();
      bucketService.service = await startServiceProcess(databaseFile, serviceEnv, { logFile });
      return bucketService.service;
    },
    stop: async () => {
      await bucketService.service.stop();
      await store.stop();
      await removeServiceDatabase(databaseFile);
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
  return bucketService;
}
