import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { XMLParser } from 'fast-xml-parser';
import S3rver from '@20minutes/s3rver';

/** s3rver's one account: its access key id and secret are both "S3RVER". */
const S3RVER_KEY = 'S3RVER';

export interface S3Server {
  /** The S3 API's address as services are given it (the front's), http://127.0.0.1:<port>. */
  endpoint: string;
  bucket: string;
  /** The variables that put a service's uploads in this bucket (path-style, the server's credentials). */
  env: Record<string, string>;
  /** Every key in the bucket, sorted. */
  keys: () => Promise<string[]>;
  /** An outage: the address stops answering (its port closed), the objects kept for resume(). */
  pause: () => Promise<void>;
  /** The outage ends: the address answers again, with the same objects. */
  resume: () => Promise<void>;
  /** From now on, each PUT of an object whose key matches is answered 503 SlowDown (null: none is). */
  refuse: (keys: RegExp | null) => void;
  /** From now on, each PUT of an object whose key matches waits, unanswered, until the gate is released. */
  hold: (keys: RegExp) => HeldPuts;
  stop: () => Promise<void>;
}

/** PUTs kept waiting by S3Server.hold: a storage slow on chosen objects, to order what a test races. */
export interface HeldPuts {
  /** How many PUTs wait now. */
  waiting: () => number;
  /** Lets the waiting PUTs through to the bucket, or answers them 503 SlowDown; the gate then holds no more. */
  release: (answer: 'store' | 'refuse') => void;
}

/** A held PUT, answered once its gate is released. */
type HeldPut = (answer: 'store' | 'refuse') => void;

/** Where the objects live: the S3 server the front passes requests to. */
interface Backend {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  keys: () => Promise<string[]>;
  stop: () => Promise<void>;
}

/**
 * A real S3 API server for a test file, with an empty bucket of its own: by default
 * @20minutes/s3rver in this process (from npm: see docs/testing.md), keeping its objects in a
 * temporary folder; with ARTIKEL_TEST_S3_ENDPOINT, ARTIKEL_TEST_S3_ACCESS_KEY_ID and
 * ARTIKEL_TEST_S3_SECRET_ACCESS_KEY (and ARTIKEL_TEST_S3_REGION), a bucket made for the file on that
 * server (Ceph's RADOS Gateway, MinIO, …), publicly readable, emptied and removed afterwards. Either
 * is reached through a front on a free 127.0.0.1 port that passes every request through, and can
 * close its port (an outage), refuse chosen PUTs (a storage failing half-way through an upload) or
 * hold them until the test lets them on.
 */
export async function startS3Server(bucket = `studio-photos-${randomBytes(4).toString('hex')}`): Promise<S3Server> {
  const backend = process.env.ARTIKEL_TEST_S3_ENDPOINT ? await externalBucket(bucket) : await s3rverBucket(bucket);
  let refused: RegExp | null = null;
  const gates: Array<{ keys: RegExp; held: HeldPut[] }> = [];
  const target = new URL(backend.endpoint);
  const refuse = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    request.resume();
    response.writeHead(503, { 'Content-Type': 'application/xml' });
    response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Refused by the test</Message></Error>');
  };
  const pass = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    // The Host the client signed is kept: the server checks the signature against it.
    const forwarded = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  };
  const front = http.createServer((request, response) => {
    const key = decodeURIComponent((request.url ?? '').split('?')[0]);
    const isPut = request.method === 'PUT';
    if (isPut && refused !== null && refused.test(key)) return refuse(request, response);
    const gate = isPut ? gates.find((candidate) => candidate.keys.test(key)) : undefined;
    if (gate !== undefined) {
      gate.held.push((answer) => (answer === 'store' ? pass : refuse)(request, response));
      return;
    }
    pass(request, response);
  });
  const listen = (port: number) => new Promise<void>((resolve) => front.listen(port, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      front.close(() => resolve());
      front.closeAllConnections();
    });
  await listen(0);
  const { port } = front.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: backend.region,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: backend.accessKeyId,
      S3_SECRET_ACCESS_KEY: backend.secretAccessKey,
    },
    keys: backend.keys,
    pause: close,
    resume: () => listen(port),
    refuse: (keys) => {
      refused = keys;
    },
    hold: (keys) => {
      const gate = { keys, held: [] as HeldPut[] };
      gates.push(gate);
      return {
        waiting: () => gate.held.length,
        release: (answer) => {
          gates.splice(gates.indexOf(gate), 1);
          for (const answerHeld of gate.held.splice(0)) answerHeld(answer);
        },
      };
    },
    stop: async () => {
      if (front.listening) await close();
      await backend.stop();
    },
  };
}

/** s3rver on a free port, the bucket in a temporary folder that goes with it. */
async function s3rverBucket(bucket: string): Promise<Backend> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    region: 'us-east-1',
    keys: async () => {
      // An anonymous ListObjects (version 1), paged by marker: s3rver rejects the AWS SDK's signed
      // listing requests (its uploads, reads and deletes it checks correctly).
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
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A new bucket on the S3 server ARTIKEL_TEST_S3_* name, readable by anyone (as the service's photo URLs need). */
async function externalBucket(bucket: string): Promise<Backend> {
  const endpoint = process.env.ARTIKEL_TEST_S3_ENDPOINT as string;
  const accessKeyId = process.env.ARTIKEL_TEST_S3_ACCESS_KEY_ID ?? '';
  const secretAccessKey = process.env.ARTIKEL_TEST_S3_SECRET_ACCESS_KEY ?? '';
  const region = process.env.ARTIKEL_TEST_S3_REGION ?? 'us-east-1';
  const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const policy = {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: '*', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${bucket}/*`] }],
  };
  await client.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: JSON.stringify(policy) }));
  const keys = async (): Promise<string[]> => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      found.push(...(page.Contents ?? []).map((object) => String(object.Key)));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return found.sort();
  };
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    region,
    keys,
    stop: async () => {
      const left = await keys();
      for (let start = 0; start < left.length; start += 1000) {
        const batch = left.slice(start, start + 1000).map((Key) => ({ Key }));
        await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch } }));
      }
      await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      client.destroy();
    },
  };
}
