import { describe, expect, it } from 'vitest';
import { formatFileSize } from './numbers';

describe('formatFileSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [34, '34 bytes'],
    [1023, '1.023 bytes'],
    [1024, '1 kB'],
    [1536, '1,5 kB'],
    [1024 * 1024 - 1, '1 MB'],
    [1024 * 1000, '1.000 kB'],
    [1024 * 1024, '1 MB'],
    [5.25 * 1024 * 1024, '5,3 MB'],
    [3 * 1024 ** 3, '3 GB'],
  ])('%d bytes reads %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});
