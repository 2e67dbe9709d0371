import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's one account: its access key id and secret are both "S3RVER". */
const ACCESS_KEY = 'S3RVER';

export interface S3Server {
  /** The S3 API's address, http://127.0.0.1:<port>. */
  endpoint: string;
  bucket: string;
  /** The variables that put a service's uploads in this bucket (path-style, s3rver's credentials). */
  env: Record<string, string>;
  /** Every key in the bucket, sorted. */
  keys: () => Promise<string[]>;
  stop: () => Promise<void>;
}

/**
 * A real S3 API server for the run (s3rver, from npm: see docs/testing.md), on a free 127.0.0.1
 * port, keeping its objects in a temporary folder that goes with it, with one empty bucket.
 */
export async function startS3Server(bucket = 'studio-photos'): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    },
    keys: async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key])));
        token = page.NextContinuationToken;
      } while (token !== undefined);
      return keys.sort();
    },
    stop: async () => {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
