import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import S3rver from '@20minutes/s3rver';

/** The server's one account: its access key id and secret are both "S3RVER". */
const ACCESS_KEY = 'S3RVER';

export interface S3Server {
  /** The S3 API's address, http://127.0.0.1:<port>. */
  endpoint: string;
  bucket: string;
  /** The variables that put a service's uploads in this bucket (path-style, s3rver's credentials). */
  env: Record<string, string>;
  /** Every key in the bucket, sorted. */
  keys: () => Promise<string[]>;
  /** An outage: the server stops answering (its port closed), its objects kept for resume(). */
  pause: () => Promise<void>;
  /** The outage ends: the server answers again on the same address, with the same objects. */
  resume: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * A real S3 API server for the run (@20minutes/s3rver, from npm: see docs/testing.md), on a free 127.0.0.1
 * port, keeping its objects in a temporary folder that goes with it, with one empty bucket.
 */
export async function startS3Server(bucket = 'studio-photos'): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-s3-'));
  const serve = (on: number) =>
    new S3rver({ address: '127.0.0.1', port: on, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  let server: S3rver | null = serve(0);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
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
      // An anonymous ListObjects (version 1), paged by marker: the server's signature check rejects
      // the AWS SDK's signed listing requests (its uploads, reads and deletes it checks correctly).
      const keys: string[] = [];
      let marker = '';
      for (;;) {
        const answer = await fetch(`${endpoint}/${bucket}?marker=${encodeURIComponent(marker)}`);
        if (answer.status !== 200) throw new Error(`listing the bucket answered ${answer.status}`);
        const listing = new XMLParser({ isArray: (name) => name === 'Contents' }).parse(await answer.text()) as {
          ListBucketResult: { IsTruncated: boolean; Contents?: Array<{ Key: string | number }> };
        };
        const listed = (listing.ListBucketResult.Contents ?? []).map((object) => String(object.Key));
        keys.push(...listed);
        if (!listing.ListBucketResult.IsTruncated || listed.length === 0) return keys.sort();
        marker = listed[listed.length - 1];
      }
    },
    pause: async () => {
      await server?.close();
      server = null;
    },
    resume: async () => {
      server = serve(port);
      await server.run();
    },
    stop: async () => {
      await server?.close();
      server = null;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface FaultyFront {
  /** The variables that send a service's uploads through the front. */
  env: Record<string, string>;
  /** From now on, each PUT of an object whose key matches is answered 503 (null: none is). */
  refuse: (keys: RegExp | null) => void;
  stop: () => Promise<void>;
}

/**
 * A front to an S3 server that passes every request through, except the PUTs of the object keys it
 * is told to refuse, which it answers with S3's own 503 (SlowDown): a storage failing half-way
 * through an upload, at a chosen object.
 */
export async function startFaultyFront(server: S3Server): Promise<FaultyFront> {
  let refused: RegExp | null = null;
  const target = new URL(server.endpoint);
  const front = http.createServer((request, response) => {
    const key = decodeURIComponent((request.url ?? '').split('?')[0]);
    if (request.method === 'PUT' && refused !== null && refused.test(key)) {
      request.resume();
      response.writeHead(503, { 'Content-Type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Refused by the test</Message></Error>');
      return;
    }
    const forwarded = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;
  return {
    env: { ...server.env, S3_ENDPOINT: `http://127.0.0.1:${port}` },
    refuse: (keys) => {
      refused = keys;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      }),
  };
}
