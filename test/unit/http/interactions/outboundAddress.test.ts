import assert from 'node:assert/strict';
import { mayReach, PUBLIC_ONLY } from '../../../../src/http/interactions/outboundAddress.js';
import { InteractionDeliveryError, outboundTarget } from '../../../../src/http/interactions/signedDelivery.js';

describe('outbound address policy', () => {
  it('reaches public addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1', '100.128.0.1']) {
      assert.equal(mayReach(address, PUBLIC_ONLY), true, address);
    }
  });

  it('refuses this host, private networks, link-local metadata and reserved ranges by default', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
    ]) {
      assert.equal(mayReach(address, PUBLIC_ONLY), false, address);
    }
  });

  it('reaches only the non-public ranges the option names', () => {
    const loopback = { outboundAllowPrivate: ['loopback'] };
    assert.equal(mayReach('127.0.0.1', loopback), true);
    assert.equal(mayReach('::1', loopback), true);
    assert.equal(mayReach('10.0.0.1', loopback), false);
    assert.equal(mayReach('169.254.169.254', loopback), false);
    assert.equal(mayReach('10.0.0.1', { outboundAllowPrivate: ['10.0.0.0/8'] }), true);
  });

  it('takes only http(s) URLs without credentials, and checks IP literals before any connection', () => {
    assert.equal(outboundTarget('https://bot.example.com/interactions', PUBLIC_ONLY).hostname, 'bot.example.com');
    for (const url of [
      'ftp://bot.example.com/',
      'file:///etc/passwd',
      'not a url',
      'https://user:pass@bot.example.com/',
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      assert.throws(
        () => outboundTarget(url, PUBLIC_ONLY),
        (error: unknown) => error instanceof InteractionDeliveryError && error.reason === 'refused_url',
        url,
      );
    }
    assert.equal(outboundTarget('http://[::1]:9/', { outboundAllowPrivate: ['loopback'] }).port, '9');
  });
});
