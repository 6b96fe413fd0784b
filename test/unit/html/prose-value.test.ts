import { describe, expect, it } from 'vitest';
import { isProseValue } from '../../../src/core/html/text';

describe('isProseValue: which attribute values are worth translating', () => {
  it.each([
    ['A tip', true],
    ['Indiana Pacers', true],
    ['Hello', true],
    ['東京都', true],
    ['50%OFF', true],
    ['Terms & conditions', true],
    ['Search: a=b & c', true],
    ['12345', false],
    ['', false],
    ['https://127.0.0.1/wiki/Tokyo', false],
    ['mailto://x', false],
    ['info@example.com', false],
    ['ctx_ver=Z39.88-2004&rft_val_fmt=info%3Aofi%2Ffmt%3Akev%3Amtx%3Abook&rft.genre=unknown', false],
    ['a=1&b=2', false],
    ['Caf%C3%A9', false],
    // A formula's source, as Wikipedia and MathJax give a formula's image.
    ['{\\displaystyle A^{\\mathsf {H}}}', false],
    ['x^2 + \\frac{1}{2}', false],
    ['\\alpha_{i} \\leq n', false],
    // A backslash in prose, without a formula's braces.
    ['C:\\Program Files\\App', true],
    ['Use \\n for a new line', true],
  ])('%s -> %s', (value, prose) => {
    expect(isProseValue(value)).toBe(prose);
  });
});
