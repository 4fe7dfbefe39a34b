import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { UnsafeWebhookUrl } from './webhook.errors.ts';

/**
 * Where webhooks may go. In production a merchant URL must be HTTPS and must not resolve to a private,
 * loopback, link-local, unique-local, multicast or unspecified address: otherwise a merchant could make
 * PixGate call its own internal services (SSRF). The check runs when a URL is configured and again at
 * every delivery, inside the socket's own DNS lookup, so a DNS answer that changes later (rebinding)
 * cannot slip through.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

// IPv4-mapped IPv6 (::ffff:a.b.c.d) is not listed: BlockList would then match every IPv4 address; mapped
// addresses are unwrapped and checked against the IPv4 ranges instead.
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export interface UrlPolicy {
  /** Production: only https, only public addresses. Development: anything (localhost receivers). */
  allowPrivate: boolean;
  requireHttps: boolean;
}

/** The socket-level refusal of a private address at connection time (an attempt's error, not a client's). */
class UnsafeAddressError extends Error {
  constructor() {
    super('unsafe address');
    this.name = 'UnsafeAddressError';
  }
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/** Checks a URL when it is configured; throws UnsafeWebhookUrl naming why it is refused. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeWebhookUrl('invalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeWebhookUrl('invalid');
  if (url.username || url.password) throw new UnsafeWebhookUrl('invalid');
  if (policy.requireHttps && url.protocol !== 'https:') throw new UnsafeWebhookUrl('notHttps');
  if (policy.allowPrivate) return url;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await resolveAll(hostname);
  } catch {
    throw new UnsafeWebhookUrl('unresolvable');
  }
  if (addresses.length === 0 || addresses.some((entry) => isPrivateAddress(entry.address))) {
    throw new UnsafeWebhookUrl('privateAddress');
  }
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that refuses private addresses at connection time (production), so the
 * address checked is the address connected to.
 */
export function safeLookup(policy: UrlPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = policy.allowPrivate ? addresses : addresses.filter((entry) => !isPrivateAddress(entry.address));
      if (allowed.length === 0) {
        const refusal: NodeJS.ErrnoException = new UnsafeAddressError();
        refusal.code = 'EUNSAFE';
        return callback(refusal, []);
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0]!;
      callback(null, first.address, first.family);
    });
  };
}
