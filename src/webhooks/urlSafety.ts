import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { UnsafeWebhookUrl } from './webhook.errors.ts';

/**
 * Where webhooks may go. Every address a merchant URL resolves to must be a public unicast address, in
 * every mode: otherwise a merchant could make PixGate call its own internal services or the cloud's
 * metadata service (169.254.169.254, fd00:ec2::254) and read the answer (SSRF). The one exception is
 * loopback (127.0.0.0/8, ::1) where the policy allows it (`WEBHOOK_ALLOW_PRIVATE`, on outside production),
 * for a receiver on the developer's own machine; private, link-local, unique-local and the other
 * special-purpose ranges stay refused there too. In production the URL must also be HTTPS. The check runs
 * when a URL is configured and again at every delivery, inside the socket's own DNS lookup, so a DNS answer
 * that changes later (rebinding) cannot slip through.
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

/** 127.0.0.0/8 and ::1, also written IPv4-mapped (::ffff:127.0.0.1). Not 0.0.0.0 or ::, which are not loopback. */
export function isLoopbackAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === undefined || !ipaddr.isValid(canonical)) return false;
  return ipaddr.process(canonical).range() === 'loopback';
}

/** How a resolver answers: every address of a name (the socket's lookup and the registration check share it). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface UrlPolicy {
  /** Loopback receivers allowed (development: WEBHOOK_ALLOW_PRIVATE); every other non-public address is refused in every mode. */
  allowLoopback: boolean;
  /** Production: only https. */
  requireHttps: boolean;
  /** The system's resolver (getaddrinfo) unless given; tests give one to play DNS rebinding. */
  resolve?: Resolver | undefined;
}

/** Whether a webhook may connect to `address` under `policy`. */
export function isAllowedAddress(address: string, policy: Pick<UrlPolicy, 'allowLoopback'>): boolean {
  return isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
}

/** The socket-level refusal of a private address at connection time (an attempt's error, not a client's). */
class UnsafeAddressError extends Error {
  constructor() {
    super('unsafe address');
    this.name = 'UnsafeAddressError';
  }
}

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

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
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await (policy.resolve ?? systemResolver)(hostname);
  } catch {
    throw new UnsafeWebhookUrl('unresolvable');
  }
  if (addresses.length === 0 || addresses.some((entry) => !isAllowedAddress(entry.address, policy))) {
    throw new UnsafeWebhookUrl('privateAddress');
  }
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that refuses disallowed addresses at connection time, in every mode, so
 * the address checked is the address connected to.
 */
export function safeLookup(policy: UrlPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    (policy.resolve ?? systemResolver)(hostname).then(
      (addresses) => {
        const allowed = addresses.filter((entry) => isAllowedAddress(entry.address, policy));
        if (allowed.length === 0) {
          const refusal: NodeJS.ErrnoException = new UnsafeAddressError();
          refusal.code = 'EUNSAFE';
          return callback(refusal, []);
        }
        if (options.all) return callback(null, allowed);
        const first = allowed[0]!;
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
