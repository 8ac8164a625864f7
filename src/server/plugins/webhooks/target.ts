import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// LD: where webhooks may go. Only https, and never to this machine or the internal network
// (server-side request forgery): every address a name resolves to is checked when a message is
// sent, and the connection goes to the address that was checked (the socket's own lookup is
// this check), so a name that changes its answer between check and connect gains nothing.
// Plain http, and loopback addresses, only when the policy allows local targets (a development
// server, or the test switch WEBHOOK_LOCAL_TARGETS): private and link-local ranges never.

export interface TargetPolicy {
  /** http:// and loopback (localhost, 127.0.0.0/8, ::1) are allowed. */
  localTargets: boolean;
}

/** Why a target is refused (a locale key under webhooks.refused). */
export type TargetProblem = 'invalidUrl' | 'httpsRequired' | 'credentialsInUrl' | 'blockedAddress';

/** Ranges no webhook may reach: private, shared, link-local, reserved, multicast, documentation. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is. */
function plainAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  const version = isIP(bare);
  if (version === 0) return null;
  return { address: bare, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether a resolved address may be reached under the policy. */
export function addressAllowed(address: string, policy: TargetPolicy): boolean {
  const plain = plainAddress(address);
  if (!plain) return false;
  if (INTERNAL.check(plain.address, plain.family)) return false;
  if (LOOPBACK.check(plain.address, plain.family)) return policy.localTargets;
  return true;
}

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** Checks an endpoint's address as written (when it is saved and before each send); null = fine. */
export function checkTargetUrl(raw: string, policy: TargetPolicy): TargetProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalidUrl';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'invalidUrl';
  if (!url.hostname) return 'invalidUrl';
  if (url.username || url.password) return 'credentialsInUrl';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = plainAddress(host);
  const local = isLoopbackName(host) || (literal !== null && LOOPBACK.check(literal.address, literal.family));
  if (url.protocol === 'http:' && !(policy.localTargets && local)) return 'httpsRequired';
  if (isLoopbackName(host) && !policy.localTargets) return 'blockedAddress';
  if (literal && !addressAllowed(literal.address, policy)) return 'blockedAddress';
  return null;
}

/** A refusal of the connection itself, logged on the delivery as its error. */
export class BlockedTargetError extends Error {
  readonly code = 'WEBHOOK_BLOCKED_ADDRESS';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, an address webhooks may not reach`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The socket's lookup: resolves the name, refuses the connection when any of its addresses is
 * not allowed, and hands the socket the checked addresses (so it connects to nothing else).
 */
export function checkedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, ...(typeof options.family === 'number' && options.family !== 0 ? { family: options.family } : {}) }, (error, addresses) => {
      if (error) return callback(error, '');
      const blocked = addresses.find((entry) => !addressAllowed(entry.address, policy));
      if (blocked || addresses.length === 0) return callback(new BlockedTargetError(hostname, blocked?.address ?? '(none)'), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}
