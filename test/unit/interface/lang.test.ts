import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../../src/core/detect';
import { canonicalLanguage } from '../../../src/core/lang';

describe('canonicalLanguage', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['eng', 'en'],
    ['iw', 'he'],
    ['in', 'id'],
    ['tl', 'fil'],
    ['zh-hans', 'zh-Hans'],
    ['ZH-HANS-cn', 'zh-Hans-CN'],
    ['pt_br', 'pt-BR'],
    ['en-us', 'en-US'],
    ['spa', 'es'],
    ['ca', 'ca'],
  ])('canonicalizes %j to %j', (input, expected) => {
    expect(canonicalLanguage(input)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['wildcard', '*'],
    ['whitespace around', ' en'],
    ['longer than 35 characters', `en-${'a'.repeat(33)}`],
    ['private use', 'x-foo'],
    ['extension', 'en-u-ca-buddhist'],
    ['private-use suffix', 'en-x-foo'],
    ['grandfathered irregular tag', 'i-klingon'],
    ['undetermined', 'und'],
    ['trailing dash', 'en-'],
    ['single letter', 'e'],
    ['digits', '12'],
    ['five-letter language subtag', 'abcde'],
    ['pipe', 'en|es'],
  ])('rejects %s', (_rule, input) => {
    expect(canonicalLanguage(input)).toBeUndefined();
  });
});

describe('detectLanguage', () => {
  const candidates = ['en', 'es', 'fr', 'pt', 'de', 'zh-Hans', 'ja', 'ru'];

  it.each([
    ['The quick brown fox jumps over the lazy dog.', 'en'],
    ['Hello, how are you today? I am fine thank you very much.', 'en'],
    ['Hola, ¿cómo estás hoy? Estoy muy bien.', 'es'],
    ['Bonjour, comment allez-vous aujourd’hui ?', 'fr'],
    ['Guten Morgen, wie geht es dir heute?', 'de'],
    ['Bom dia, como vai você hoje?', 'pt'],
    ['你好，今天怎么样？我很好。', 'zh-Hans'],
    ['こんにちは、お元気ですか。', 'ja'],
    ['Привет, как дела сегодня?', 'ru'],
  ])('detects %j as %s', (text, expected) => {
    expect(detectLanguage(text, candidates)).toBe(expected);
  });

  it.each([
    ['text too short', 'hi', candidates],
    ['digits only', '1234567890123', candidates],
    ['text in a language that is not a candidate', 'Hola, ¿cómo estás hoy? Estoy muy bien.', ['en']],
    ['script of no candidate', '你好，今天怎么样？我很好。', ['en', 'es']],
    ['no candidate franc knows', 'Bon dia, com estàs avui?', ['ca']],
    ['no candidates', 'The quick brown fox jumps over the lazy dog.', []],
  ])('is undefined when unsure: %s', (_rule, text, list) => {
    expect(detectLanguage(text, list)).toBeUndefined();
  });

  it('answers with the candidate as given, the first of a shared language', () => {
    expect(detectLanguage('Bom dia, como vai você hoje?', ['en', 'pt-BR', 'pt-PT'])).toBe('pt-BR');
  });
});
