import type { Core } from '@strapi/strapi';
import createError from 'http-errors';
import { idempotencyKeys, type IdempotencyKey, type StoredAnswer } from '../repositories/idempotency-keys';
import { tryLockUntilCommit } from '../infrastructure/locks';
import { getConfig } from '../infrastructure/get-service';

/** A POST that carries an Idempotency-Key: its key and the fingerprint of its body. */
export interface KeyedRequest extends IdempotencyKey {
  fingerprint: string;
}

/** What a POST answers, as stored for the retries of a keyed one. */
export type PostAnswer = Omit<StoredAnswer, 'fingerprint'>;

const PURGE_EVERY_MS = 60 * 60 * 1000;

const keyError = (status: number, message: string): Error =>
  createError(status, message, {
    details: { errors: [{ path: ['Idempotency-Key'], message, name: status === 409 ? 'ConflictError' : 'UnprocessableEntityError' }] },
  });

/**
 * Idempotency-Key on POST (draft-ietf-httpapi-idempotency-key-header): the first request's answer is
 * stored with its article, in the same transaction, so no crash leaves one without the other; its
 * retries get that answer again. The key is held (an advisory lock on PostgreSQL, shared by every
 * instance) while its request runs, so a retry that arrives meanwhile is a 409 instead of a
 * second article; a crash releases it with the transaction.
 */
const idempotency = ({ strapi }: { strapi: Core.Strapi }) => {
  const keys = idempotencyKeys(strapi);
  const lifetimeMs = () => getConfig(strapi, 'idempotencyHours') * 60 * 60 * 1000;
  let purgeTimer: NodeJS.Timeout | null = null;

  /** The stored answer for this key, if any; the same key with another body is a 422. */
  const storedAnswer = async (request: KeyedRequest): Promise<PostAnswer | null> => {
    const stored = await keys.find(request, Date.now());
    if (stored === null) return null;
    if (stored.fingerprint !== request.fingerprint) {
      // Most often a row of a sheet changed after it was published and is sent again: say where its article is, and how to change it.
      const made = stored.status === 201 && stored.location !== null ? ` (it created ${stored.location})` : '';
      const change = made === '' ? '' : `; to change that article, send PATCH ${stored.location} with the changed fields`;
      throw keyError(
        422,
        `This Idempotency-Key was already used with a different request body${made}${change}; for a new article, use a new key`,
      );
    }
    const { fingerprint: _fingerprint, ...answer } = stored;
    return answer;
  };

  const purge = async (): Promise<void> => {
    const removed = await keys.purgeExpired(Date.now());
    if (removed > 0) strapi.log.debug(`artikel: purged ${removed} expired idempotency keys`);
  };

  return {
    /** An answer already stored for this key and body (no lock: the common retry costs one read). */
    storedAnswer,

    /**
     * Inside the write's transaction, before writing: holds the key until commit (409 while another
     * request holds it) and gives the answer stored meanwhile, if any, to replay instead of writing.
     */
    async hold(request: KeyedRequest): Promise<PostAnswer | null> {
      if (!(await tryLockUntilCommit(strapi, `idempotency:${request.scope}:${request.key}`))) {
        throw keyError(409, 'A request with this Idempotency-Key is still in progress; retry it after that one has been answered');
      }
      return storedAnswer(request);
    },

    /** Inside the write's transaction, after writing: stores its answer for the key's lifetime. */
    async remember(request: KeyedRequest, answer: PostAnswer): Promise<void> {
      await keys.store(request, { ...answer, fingerprint: request.fingerprint }, Date.now() + lifetimeMs());
    },

    /** Purges expired keys now and every hour (each instance; deleting twice is harmless). */
    async start(): Promise<void> {
      this.stop();
      await purge();
      purgeTimer = setInterval(() => {
        purge().catch((error: unknown) => strapi.log.warn(`artikel: purging expired idempotency keys failed: ${String(error)}`));
      }, PURGE_EVERY_MS);
      purgeTimer.unref();
    },

    stop(): void {
      if (purgeTimer !== null) clearInterval(purgeTimer);
      purgeTimer = null;
    },
  };
};

export default idempotency;
