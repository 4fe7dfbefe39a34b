import { describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/webhooks/sender.ts';
import { checkWebhookUrl, isPrivateAddress } from '../../src/webhooks/urlSafety.ts';
import { UnsafeWebhookUrl } from '../../src/webhooks/webhook.errors.ts';

/**
 * Issue 12, point 11: webhooks go only to public unicast addresses (an allow-list from ipaddr.js), checked
 * when a URL is configured, for IP literals before connecting, and at connection time in the socket's
 * lookup. One case per special-purpose range, and public addresses that must pass.
 */
const production = { allowLoopback: false, requireHttps: true };

const refused: [string, string[]][] = [
  ['NAT64 64:ff9b::/96', ['64:ff9b::a00:1', '64:ff9b::7f00:1', '64:ff9b::808:808']],
  ['local NAT64 64:ff9b:1::/48', ['64:ff9b:1::1', '64:ff9b:1:ffff::a00:1']],
  ['6to4 2002::/16', ['2002::1', '2002:c0a8:101::1', '2002:7f00:1::1']],
  ['Teredo 2001::/32', ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2']],
  ['site-local fec0::/10', ['fec0::1', 'feff::1']],
  ['IPv4 documentation 192.0.2.0/24', ['192.0.2.1', '192.0.2.255']],
  ['IPv4 documentation 198.51.100.0/24', ['198.51.100.7']],
  ['IPv4 documentation 203.0.113.0/24', ['203.0.113.42']],
  ['IPv6 documentation 2001:db8::/32', ['2001:db8::1', '2001:db8:ffff::1']],
  ['IPv6 documentation 3fff::/20', ['3fff::1']],
  ['benchmarking 198.18.0.0/15', ['198.18.0.1', '198.19.255.254']],
  ['benchmarking 2001:2::/48', ['2001:2::1']],
  ['carrier-grade NAT 100.64.0.0/10', ['100.64.0.1', '100.127.255.254']],
  ['multicast', ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::1']],
  ['broadcast', ['255.255.255.255']],
  ['reserved 240.0.0.0/4', ['240.0.0.1', '250.1.2.3']],
  ['IETF protocol assignments 192.0.0.0/24', ['192.0.0.8']],
  ['6to4 relay anycast 192.88.99.0/24', ['192.88.99.1']],
  ['private', ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1']],
  ['loopback', ['127.0.0.1', '127.255.255.254', '::1']],
  ['link-local', ['169.254.169.254', 'fe80::1']],
  ['unique-local', ['fc00::1', 'fd12:3456::1']],
  ['unspecified', ['0.0.0.0', '0.1.2.3', '::']],
  ['IPv4-mapped private or loopback', ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe']],
  ['discard 100::/64', ['100::1']],
  ['IPv4-compatible and other ::/8 forms outside 2000::/3', ['::8.8.8.8', '::ffff:0:808:808']],
  ['ORCHID', ['2001:10::1', '2001:20::1']],
  ['not an address', ['localhost', '', '1.2.3', 'example.com']],
];

const allowed = ['8.8.8.8', '200.160.2.3', '1.1.1.1', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8', '2001:4860:4860::8888', '2606:4700:4700::1111', '2804:14c::1'];

describe('webhook address classifier: public unicast only', () => {
  for (const [range, addresses] of refused) {
    it(`refuses ${range}`, () => {
      for (const address of addresses) expect(isPrivateAddress(address), address).toBe(true);
    });
  }

  it('accepts public unicast addresses, IPv4, IPv4-mapped and IPv6', () => {
    for (const address of allowed) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('refuses such a literal when the URL is configured in production', async () => {
    for (const host of ['[64:ff9b::a00:1]', '[2002:c0a8:101::1]', '[2001::1]', '[fec0::1]', '198.51.100.7', '[2001:db8::1]']) {
      await expect(checkWebhookUrl(`https://${host}/hook`, production), host).rejects.toBeInstanceOf(UnsafeWebhookUrl);
    }
    await expect(checkWebhookUrl('https://[2606:4700:4700::1111]/hook', production)).resolves.toBeInstanceOf(URL);
  });

  it('refuses such a literal at delivery time, before any connection', async () => {
    for (const host of ['[64:ff9b:1::1]', '[2002::1]', '100.64.0.1', '192.0.2.1']) {
      const result = await postWebhook(`https://${host}/hook`, {}, '{}', { timeoutMs: 1000, policy: production });
      expect(result, host).toMatchObject({ status: null, error: 'unsafe address' });
    }
  });
});
