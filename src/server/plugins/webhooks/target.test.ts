import { describe, expect, it } from 'vitest';
import { addressAllowed, checkTargetUrl } from './target';

const production = { localTargets: false };
const development = { localTargets: true };

describe('webhook targets (LD, SSRF)', () => {
  it('takes https addresses on the public internet', () => {
    expect(checkTargetUrl('https://crm.example.com/hooks', production)).toBeNull();
    expect(checkTargetUrl('https://93.184.215.14/hooks', production)).toBeNull();
    expect(addressAllowed('2606:2800:21f:cb07:6820:80da:af6b:8b2c', production)).toBe(true);
  });

  it('refuses plain http, credentials and odd schemes', () => {
    expect(checkTargetUrl('http://crm.example.com/', production)).toBe('httpsRequired');
    expect(checkTargetUrl('http://crm.example.com/', development)).toBe('httpsRequired');
    expect(checkTargetUrl('https://a:b@crm.example.com/', production)).toBe('credentialsInUrl');
    expect(checkTargetUrl('file:///etc/passwd', production)).toBe('invalidUrl');
    expect(checkTargetUrl('nonsense', production)).toBe('invalidUrl');
  });

  it('refuses loopback, private, link-local and mapped addresses; loopback only for a development server', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
    ])
      expect(addressAllowed(address, production), address).toBe(false);
    expect(addressAllowed('127.0.0.1', development)).toBe(true);
    expect(addressAllowed('::1', development)).toBe(true);
    expect(addressAllowed('10.0.0.1', development)).toBe(false);
    expect(checkTargetUrl('https://localhost/x', production)).toBe('blockedAddress');
    expect(checkTargetUrl('http://localhost:3000/x', development)).toBeNull();
    expect(checkTargetUrl('http://127.0.0.1:3000/x', development)).toBeNull();
    expect(checkTargetUrl('http://10.0.0.1/x', development)).toBe('httpsRequired');
    expect(checkTargetUrl('https://10.0.0.1/x', development)).toBe('blockedAddress');
    expect(checkTargetUrl('https://[::ffff:7f00:1]/x', production)).toBe('blockedAddress');
  });
});
