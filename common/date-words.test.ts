import { describe, expect, it } from 'vitest';
import { resolveDateBound } from './date-math';
import { dateBoundInWords, dateBoundOfWords } from './date-words';

describe('dateBoundOfWords', () => {
  it('reads today and periods back or ahead as the engine’s relative bounds', () => {
    expect(dateBoundOfWords(' Vandaag ')).toBe('NOW');
    expect(dateBoundOfWords('30 dagen geleden')).toBe('NOW-30DAYS');
    expect(dateBoundOfWords('1 dag geleden')).toBe('NOW-1DAYS');
    expect(dateBoundOfWords('2  weken geleden')).toBe('NOW-14DAYS');
    expect(dateBoundOfWords('6 maanden geleden')).toBe('NOW-6MONTHS');
    expect(dateBoundOfWords('1 jaar geleden')).toBe('NOW-1YEARS');
    expect(dateBoundOfWords('over 2 maanden')).toBe('NOW+2MONTHS');
    expect(dateBoundOfWords('over 1 week')).toBe('NOW+7DAYS');
  });

  it('keeps a date, the engine’s own text and anything else as typed', () => {
    expect(dateBoundOfWords(' 01-02-2030 ')).toBe('01-02-2030');
    expect(dateBoundOfWords('NOW-1YEAR/DAY')).toBe('NOW-1YEAR/DAY');
    expect(dateBoundOfWords('3 uur geleden')).toBe('3 uur geleden');
    expect(dateBoundOfWords('gisteren')).toBe('gisteren');
  });

  it('gives bounds the engine resolves', () => {
    const now = new Date('2030-06-15T10:00:00Z');
    expect(resolveDateBound(dateBoundOfWords('1 jaar geleden'), now)).toBe('2029-06-15');
    expect(resolveDateBound(dateBoundOfWords('over 2 weken'), now)).toBe('2030-06-29');
  });
});

describe('dateBoundInWords', () => {
  it('writes today and one step of days, months or years in words, and reads back', () => {
    for (const [bound, words] of [
      ['NOW', 'vandaag'],
      ['NOW-30DAYS', '30 dagen geleden'],
      ['NOW-1DAY', '1 dag geleden'],
      ['now+1year', 'over 1 jaar'],
      ['NOW-6MONTHS', '6 maanden geleden'],
    ]) {
      expect(dateBoundInWords(bound)).toBe(words);
      expect(resolveDateBound(dateBoundOfWords(words))).toBe(resolveDateBound(bound));
    }
  });

  it('leaves a date and a bound it cannot word as they are', () => {
    expect(dateBoundInWords('01-01-1980')).toBe('01-01-1980');
    expect(dateBoundInWords('NOW-1YEAR/DAY')).toBe('NOW-1YEAR/DAY');
    expect(dateBoundInWords('NOW-2HOURS')).toBe('NOW-2HOURS');
  });
});
