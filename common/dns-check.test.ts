import { describe, expect, it } from 'vitest';
import {
  DNS_CHECK_LABELS,
  type DnsCheckCode,
  DnsCheckMessages,
  describeDnsError,
  isResolverProbablyDown,
} from './dns-check';

const rows = (...checks: DnsCheckCode[]) => checks.map((check) => ({ check }));

describe('isResolverProbablyDown', () => {
  it('is true when more than half of the domains asked failed, invalid names not counted', () => {
    expect(isResolverProbablyDown(rows('ERROR', 'ERROR', 'OK'))).toBe(true);
    expect(isResolverProbablyDown(rows('ERROR', 'ERROR', 'INVALID', 'INVALID', 'INVALID', 'OK'))).toBe(true);
    expect(isResolverProbablyDown(rows('ERROR'))).toBe(true);
  });

  it('is false for half or fewer, and without lookups', () => {
    expect(isResolverProbablyDown(rows('ERROR', 'NXDOMAIN'))).toBe(false);
    expect(isResolverProbablyDown(rows('ERROR', 'OK', 'NODATA', 'NXDOMAIN'))).toBe(false);
    expect(isResolverProbablyDown(rows('INVALID', 'INVALID'))).toBe(false);
    expect(isResolverProbablyDown([])).toBe(false);
  });
});

describe('DNS texts', () => {
  it('labels a failed lookup in Dutch', () => {
    expect(DNS_CHECK_LABELS.ERROR).toBe('Opzoeken mislukt');
  });

  it('describes the resolver codes in Dutch and keeps an unknown code visible', () => {
    expect(describeDnsError(null)).toBe('');
    expect(describeDnsError('ETIMEOUT')).toBe('Geen antwoord van de DNS-server (time-out)');
    expect(describeDnsError('RESOLVER_DOWN')).toBe('Niet opgezocht: de DNS-server werkt niet');
    expect(describeDnsError('EBADRESP')).toBe('Opzoeken mislukt (EBADRESP)');
  });
});

describe('DNS check messages', () => {
  it('count domains and addresses in Dutch, one and many', () => {
    expect(DnsCheckMessages.confirm(1, 1)).toBe(
      'Weet je zeker dat je 1 domein met samen 1 adres aan de blacklist wilt toevoegen?',
    );
    expect(DnsCheckMessages.confirm(13, 7962)).toBe(
      'Weet je zeker dat je 13 domeinen met samen 7.962 adressen aan de blacklist wilt toevoegen?',
    );
    expect(DnsCheckMessages.added(1)).toBe('1 domein toegevoegd aan de blacklist');
  });
});
