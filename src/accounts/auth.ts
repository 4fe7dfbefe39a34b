import { BlockList, isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { Clock } from '../platform/clock.ts';
import type { AccountRow, Database } from '../db/schema.ts';
import { hashApiKey, looksLikeApiKey } from '../primitives/apiKeys.ts';
import { AccountBlocked, AccountNotApproved, ApiKeyInvalid, ApiKeyMissing, IpNotAllowed, type IpMessageFamily } from './account.errors.ts';
import type { Logger } from '../platform/logger.ts';
import { findActiveKeyByHash, touchApiKey } from './apiKey.repository.ts';
import { isDatabaseUnavailable, retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';

/** The account a request acts for (through an API key, or a dashboard user's session). */
export interface AccountContext {
  accountId: string;
  account: AccountRow;
}

export interface AuthContext extends AccountContext {
  keyId: string;
}

interface CacheEntry {
  loadedAtMs: number;
  expiresAtMs: number;
  context: AuthContext;
  allowlist: BlockList | undefined;
}

const MAX_CACHED_KEYS = 10_000;
/**
 * While the database is out of reach (a failover), a lookup older than its TTL is still used up to this age:
 * the contract allows account checks cached up to 30 s, and no revocation can be committed meanwhile.
 */
const STALE_WHILE_UNAVAILABLE_MS = 30_000;

/** An API key's `last_used_at` is kept to the minute. */
const LAST_USE_RESOLUTION_MS = 60_000;

function buildAllowlist(entries: string[]): BlockList | undefined {
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    if (!address) continue;
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

function ipAllowed(allowlist: BlockList, ip: string): boolean {
  // Express may report IPv4 clients as IPv4-mapped IPv6 (`::ffff:10.0.0.1`).
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return allowlist.check(mapped[1], 'ipv4') || allowlist.check(ip, 'ipv6');
  return allowlist.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * API-key authentication and the account checks of the contract, in this order: the key (401), the IP
 * allowlist (403), KYC approved and not blocked (403).
 *
 * A key lookup (key + account, one query) is cached for `ttlMs` (default 5 s): revocation and account
 * changes made through another process act within that time, as the contract allows ("within seconds";
 * account checks cached up to 30 s). Changes made through this process's back office invalidate at once.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly logger: Logger | undefined;

  constructor(db: Kysely<Database>, clock: Clock, ttlMs: number, logger?: Logger) {
    this.db = db;
    this.clock = clock;
    this.ttlMs = ttlMs;
    this.logger = logger;
  }

  async authenticate(authorization: string | undefined, ip: string, family: IpMessageFamily): Promise<AuthContext> {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1]) throw new ApiKeyMissing();
    const secret = match[1];
    if (!looksLikeApiKey(secret)) throw new ApiKeyInvalid();

    const entry = await this.lookup(hashApiKey(secret));
    if (!entry) throw new ApiKeyInvalid();

    // The allowlist first: a key used from outside it (a stolen key) learns nothing about the account,
    // not even whether its KYC is approved or it is blocked.
    if (entry.allowlist && !ipAllowed(entry.allowlist, ip)) throw new IpNotAllowed(family);
    const { account } = entry.context;
    if (account.kyc_status !== 'approved') throw new AccountNotApproved();
    if (account.blocked) throw new AccountBlocked();
    return entry.context;
  }

  /** Drops cached lookups of one account (after a back-office change in this process). */
  invalidateAccount(accountId: string): void {
    for (const [hash, entry] of this.cache) {
      if (entry.context.accountId === accountId) this.cache.delete(hash);
    }
  }

  private async lookup(keyHash: string): Promise<CacheEntry | undefined> {
    const nowMs = this.clock.now();
    const cached = this.cache.get(keyHash);
    if (cached && cached.expiresAtMs > nowMs) return cached;

    let found: Awaited<ReturnType<typeof findActiveKeyByHash>>;
    try {
      const stale = cached !== undefined && nowMs - cached.loadedAtMs <= STALE_WHILE_UNAVAILABLE_MS;
      // With a recent lookup to fall back on, no waiting: it answers at once while the database is away.
      found = await retryWhileUnavailable(() => findActiveKeyByHash(this.db, keyHash), { timeoutMs: stale ? 0 : SWITCHOVER_RETRY_MS, firstPauseMs: 100 });
    } catch (error) {
      if (cached !== undefined && nowMs - cached.loadedAtMs <= STALE_WHILE_UNAVAILABLE_MS && isDatabaseUnavailable(error)) return cached;
      throw error;
    }
    this.cache.delete(keyHash);
    if (!found) return undefined;
    // The dashboard shows each key's last use. Written off the request's path, at most once a minute per
    // key (the statement itself skips a recent one), and only when the cache missed.
    touchApiKey(this.db, found.key.id, new Date(nowMs), LAST_USE_RESOLUTION_MS).catch((error: unknown) => {
      const fields = { keyId: found.key.id, error: String(error) };
      if (isDatabaseUnavailable(error)) this.logger?.warn('could not record the last use of an API key: database unavailable', fields);
      else this.logger?.error('could not record the last use of an API key', fields);
    });
    const entry: CacheEntry = {
      loadedAtMs: nowMs,
      expiresAtMs: nowMs + this.ttlMs,
      context: { accountId: found.account.id, keyId: found.key.id, account: found.account },
      allowlist: buildAllowlist(found.account.ip_allowlist),
    };
    if (this.cache.size >= MAX_CACHED_KEYS) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    if (this.ttlMs > 0) this.cache.set(keyHash, entry);
    return entry;
  }
}
