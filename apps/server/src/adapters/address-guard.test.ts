import { describe, expect, it } from 'vitest';
import { forbiddenAddressKind } from './address-guard';

describe('forbiddenAddressKind: only globally routable unicast addresses may be reached', () => {
  it.each([
    ['0.1.2.3', 'an unspecified address'],
    ['10.1.2.3', 'a private address'],
    ['100.64.0.1', 'a private address'],
    ['100.100.100.200', 'a private address'],
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['169.254.10.1', 'a link-local address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.0.0.192', 'a special-purpose address'],
    ['192.0.2.1', 'a documentation address'],
    // This host's own interface address where the service was reached through it.
    ['192.0.2.2', 'a documentation address'],
    ['192.88.99.1', 'a special-purpose address'],
    ['192.168.1.1', 'a private address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['198.19.255.255', 'a benchmarking address'],
    ['198.51.100.7', 'a documentation address'],
    ['203.0.113.9', 'a documentation address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['240.0.0.1', 'a reserved address'],
    ['255.255.255.255', 'a reserved address'],
  ])('IPv4 %s is %s', (address, kind) => {
    expect(forbiddenAddressKind(address)).toBe(kind);
  });

  it.each([
    ['::', 'an unspecified address'],
    ['::1', 'a loopback address'],
    ['[::1]', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:a9fe:a9fe', 'a cloud metadata address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['::ffff:c000:202', 'a documentation address'],
    ['::127.0.0.1', 'a reserved address'],
    ['64:ff9b::7f00:1', 'a loopback address'],
    ['64:ff9b::192.0.2.2', 'a documentation address'],
    ['64:ff9b:1::a00:1', 'a reserved address'],
    ['100::1', 'a reserved address'],
    ['2001::1', 'a special-purpose address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a special-purpose address'],
    ['2001:2::1', 'a special-purpose address'],
    ['2001:db8::1', 'a documentation address'],
    ['3fff::1', 'a documentation address'],
    ['2002:7f00:1::1', 'a 6to4 address'],
    ['2002:808:808::1', 'a 6to4 address'],
    ['fc00::1', 'a private address'],
    ['fd12::1', 'a private address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['ff02::1', 'a multicast address'],
    ['4000::1', 'a reserved address'],
  ])('IPv6 %s is %s', (address, kind) => {
    expect(forbiddenAddressKind(address)).toBe(kind);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is global unicast: allowed', (address) => {
    expect(forbiddenAddressKind(address)).toBeNull();
  });

  it('judges only address literals: a name is checked once resolved', () => {
    expect(forbiddenAddressKind('localhost')).toBeNull();
  });
});
