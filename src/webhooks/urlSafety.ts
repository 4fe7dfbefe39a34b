import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { UnsafeWebhookUrl } from './webhook.errors.ts';

/**
 * Where webhooks may go. In production a merchant URL must be HTTPS and every address it resolves to must
 * be a public unicast address: otherwise a merchant could make PixGate call its own internal services
 * (SSRF). The check runs when a URL is configured and again at every delivery, inside the socket's own DNS
 * lookup, so a DNS answer that changes later (rebinding) cannot slip through.
 *
 * An allow-list, not a block-list: ipaddr.js names every special-purpose range (private, loopback,
 * link-local, unique-local, carrier-grade NAT, multicast, broadcast, reserved, documentation,
 * benchmarking, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4, Teredo, site-local fec0::/10, discard,
 * ORCHID, AMT, AS112…) and only what it calls `unicast` passes; IPv6 must also be in 2000::/3, the only
 * block IANA allocates for global unicast. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as its IPv4.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * The canonical text of an IP address (IPv6 as the WHATWG URL parser writes it, so `::ffff:127.0.0.1` is
 * `::ffff:7f00:1` and `::8.8.8.8` is `::808:808`, as the kernel would read them); undefined when it is not
 * a plain IPv4 or IPv6 address (names, shorthand IPv4 such as `1.2.3`, zone ids).
 */
function canonicalAddress(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

export function isPublicAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === undefined || !ipaddr.isValid(canonical)) return false;
  // process() unwraps IPv4-mapped IPv6 (::ffff:a.b.c.d) into the IPv4 address it carries.
  const parsed = ipaddr.process(canonical);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return false;
  return true;
}

/** Anything but a public unicast address (or not an address at all). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
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
